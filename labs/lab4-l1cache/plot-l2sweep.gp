# plot-l2sweep.gp - lab 4: the L2 sweep. All SMs re-reading a buffer with ld.cg, bandwidth
# against the buffer's footprint (log scale), one line per mode: each line read by one SM
# (shared) or by every SM (every_sm); vertical lines at the whole L2 and at half of it (a
# partition). Open circles: the points the bisections timed (sample half).
load 'plots/style.gp'
l2 = real(meta('l2_bytes'))
# The verified rows of one variant: the grid's points (refined 0) or the bisections' (1).
sample_col(keep) = sprintf("/^#/ { next } /^lab,/ { for (i = 1; i <= NF; i++) if ($i == \"sample\") s = i; %s next }", keep)
rows(v, refined) = sprintf("< awk -F, '%s $2 == \"%s\" && $14 == \"ok\" && (($s != \"grid\") == %d)' '%s'", \
                           sample_col('print;'), v, refined, csv)
variants = system(sprintf("awk -F, '%s $14 == \"ok\" && !seen[$2]++ { printf \"%%s \", $2 }' '%s'", sample_col(''), csv))
refined = system(sprintf("awk -F, '%s $14 == \"ok\" && $s != \"grid\" && !seen[$2]++ { printf \"%%s \", $2 }' '%s'", \
                         sample_col(''), csv))
what(v) = v eq 'reread_shared' ? 'shared: each line read by one SM' : 'every_sm: every SM reads every line'
lt_of(v) = v eq 'reread_shared' ? 1 : 2
set title sprintf("Lab 4: L2 bandwidth against footprint, all SMs re-reading (ld.global.cg), on %s", gpu_name)
set xlabel 'footprint: bytes re-read (log scale)'
set ylabel 'bandwidth (GB/s, bytes read / time)'
set logscale x 2
set xtics ('4M' 4194304, '8M' 8388608, '16M' 16777216, '32M' 33554432, '64M' 67108864, '128M' 134217728, \
           '256M' 268435456)
set yrange [0:*]
set key top right
set arrow 1 from l2 / 2, graph 0 to l2 / 2, graph 1 nohead lt 3
set label 1 sprintf("half the L2 %.0f MiB ", l2 / 2 / 1048576) at l2 / 2, graph 0.04 right font ',9'
set arrow 2 from l2, graph 0 to l2, graph 1 nohead lt 3
set label 2 sprintf(" L2 %.0f MiB", l2 / 1048576) at l2, graph 0.04 left font ',9'
@start_output
# (an empty `for` over the refined variants still warns: the clause only where there are some)
circles = words(refined) == 0 ? '' : ", for [i = 1:words(refined)] rows(word(refined, i), 1) using " . \
          "'footprint_bytes':'gbps' with points lt lt_of(word(refined, i)) pt 6 ps 1.0 " . \
          "title (i == 1 ? 'points timed to refine the edges' : '')"
plot for [i = 1:words(variants)] rows(word(variants, i), 0) using 'footprint_bytes':'gbps' with linespoints \
     lt lt_of(word(variants, i)) title what(word(variants, i)) @circles
@finish_output
