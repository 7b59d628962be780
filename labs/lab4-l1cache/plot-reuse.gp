# plot-reuse.gp - lab 4: the 1D stencil's time per launch against its radius, the same source
# built with the L1 on (ca) and off (cg); with --counters, ncu's L1 hit rate of each point
# on the right axis (dashed).
load 'plots/style.gp'
build_col(keep) = sprintf("/^#/ { next } /^lab,/ { for (i = 1; i <= NF; i++) { if ($i == \"build\") c = i; " . \
                          "if ($i == \"l1_hit_pct\") h = i }; %s next }", keep)
rows(b) = sprintf("< awk -F, '%s $c == \"%s\" && $14 == \"ok\"' '%s'", build_col('print;'), b, csv)
builds = system(sprintf("awk -F, '%s $14 == \"ok\" && !seen[$c]++ { printf \"%%s \", $c }' '%s'", build_col(''), csv))
hits = system(sprintf("awk -F, '%s $14 == \"ok\" && $h != \"\" { n++ } END { print n + 0 }' '%s'", build_col(''), csv)) + 0
what(b) = b eq 'ca' ? 'ca: loads cached in L1 and L2' : 'cg: loads cached in L2 only'
set title sprintf("Lab 4: 1D stencil, out[i] = in[i-r] + ... + in[i+r], L1 on and off, on %s", gpu_name)
set xlabel 'radius r (each output reads 2r+1 floats; neighbouring threads share 2r of them)'
set ylabel 'time per launch (ms, median)'
set xrange [0.5:8.5]
set xtics 1, 1, 8
set yrange [0:*]
# below the ca curve and above the cg hit rates at 0%: centre right, the key hid the ca curve at r = 6-8
set key at graph 0.98, graph 0.34 right top
if (hits) { set y2label 'L1 hit rate (%, ncu l1tex__t_sector_hit_rate.pct, dashed)'; set y2range [0:100]; \
            set y2tics 0, 20, 100; set ytics nomirror }
lt_of(b) = b eq 'ca' ? 1 : 2
@start_output
if (hits) { \
plot for [i = 1:words(builds)] rows(word(builds, i)) using 'param':'ms_median' with linespoints \
         lt lt_of(word(builds, i)) title what(word(builds, i)), \
     for [i = 1:words(builds)] rows(word(builds, i)) using 'param':'l1_hit_pct' axes x1y2 with linespoints \
         lt lt_of(word(builds, i)) dt 2 pt 6 title sprintf('%s: L1 hit rate', word(builds, i)) \
} else { \
plot for [i = 1:words(builds)] rows(word(builds, i)) using 'param':'ms_median' with linespoints \
         lt lt_of(word(builds, i)) title what(word(builds, i)) \
}
@finish_output
