# plot-staircase.gp - lab 4: the latency staircase. One warp's time per dependent load against
# the chain's footprint (log scale), for the L1 on (ca) and off (cg), cycles on the right at
# the SM clock measured in the run; vertical lines where the device's capacities are: the L1
# the shared memory in force leaves, the L2's partition (half of it) and the whole L2. Open
# circles: the points the bisections timed (sample onset or half).
load 'plots/style.gp'
stats csv using 'sm_clock_mhz' nooutput
clock = STATS_max
stats csv using 'l1_kib' nooutput
l1 = STATS_max * 1024
l2 = real(meta('l2_bytes'))
# The verified rows of one build (ca and cg alternate in the CSV; a line needs them apart),
# and the builds that have any (refined: any bisection's points).
# rows(b, refined): the grid's points (0) or the bisections' (1, sample onset or half; a CSV
# without the sample column has only the grid's).
build_col(keep) = sprintf("/^#/ { next } /^lab,/ { for (i = 1; i <= NF; i++) { if ($i == \"build\") c = i; if ($i == \"sample\") s = i } %s next }", keep)
rows(b, refined) = sprintf("< awk -F, '%s $c == \"%s\" && $14 == \"ok\" && ((s && $s != \"grid\") == %d)' '%s'", build_col('print;'), b, refined, csv)
builds = system(sprintf("awk -F, '%s $14 == \"ok\" && !seen[$c]++ { printf \"%%s \", $c }' '%s'", build_col(''), csv))
refined = system(sprintf("awk -F, '%s $14 == \"ok\" && s && $s != \"grid\" && !seen[$c]++ { printf \"%%s \", $c }' '%s'", build_col(''), csv))
what(b) = b eq 'ca' ? 'ca: loads cached in L1 and L2 (-Xptxas -dlcm=ca)' : 'cg: loads cached in L2 only (-Xptxas -dlcm=cg)'
set title sprintf("Lab 4: load latency against footprint (one warp, a chain of dependent loads) on %s", gpu_name)
set xlabel 'footprint: bytes the chain runs through (log scale; one link per 32-byte sector)'
set ylabel 'latency per load (ns)'
set y2label sprintf('latency per load (SM cycles at %.0f MHz)', clock)
set logscale x 2
set xtics ('4K' 4096, '16K' 16384, '64K' 65536, '256K' 262144, '1M' 1048576, '4M' 4194304, \
           '16M' 16777216, '64M' 67108864, '256M' 268435456)
set yrange [0:*]
set ytics nomirror
set y2tics
set link y2 via y * clock / 1000 inverse y * 1000 / clock
set key top left
if (l1 > 0) { set arrow 1 from l1, graph 0 to l1, graph 1 nohead lt 3; \
              set label 1 sprintf(" L1 %.0f KiB", l1 / 1024) at l1, graph 0.5 left font ',9' }
set arrow 2 from l2 / 2, graph 0 to l2 / 2, graph 1 nohead lt 3
set label 2 sprintf(" L2 partition %.0f MiB", l2 / 2 / 1048576) at l2 / 2, graph 0.12 right font ',9'
set arrow 3 from l2, graph 0 to l2, graph 1 nohead lt 3
set label 3 sprintf(" L2 %.0f MiB", l2 / 1048576) at l2, graph 0.05 left font ',9'
@start_output
# (an empty `for` over the refined builds still warns: the clause only where there are some)
circles = words(refined) == 0 ? '' : ", for [i = 1:words(refined)] rows(word(refined, i), 1) using " . \
          "'footprint_bytes':'ns_per_hop' with points lt (word(refined, i) eq 'ca' ? 1 : 2) pt 6 ps 0.8 " . \
          "title (i == 1 ? 'points timed to refine the edges' : '')"
plot for [i = 1:words(builds)] rows(word(builds, i), 0) using 'footprint_bytes':'ns_per_hop' with linespoints \
     lt (word(builds, i) eq 'ca' ? 1 : 2) title what(word(builds, i)) @circles
@finish_output
