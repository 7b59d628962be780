# plot-roofline.gp - lab 8, the benchmark target: each code's share of the DRAM roofline (8
# bytes a point at the copy ceiling of the same run) for radii 1..5 on a 512^3 grid, with
# the 85% target line.
load 'plots/style.gp'
codes = 'v1_base v2_base_intz v3_base_intz_reg v4_comp v5_comp_intz v6_comp_intz_reg v7_csl v8_csl_intz v9_csl_intz_reg v10_tuned v11_tma'
colours = '#9ecae1 #4292c6 #08519c #fcae91 #fb6a4a #a50f15 #a1d99b #41ab5d #006d2c #54278f #dd1c77'
code(name) = int(substr(name, 2, strstrt(name, '_') - 1)) # 'v10_tuned' -> 10
stats csv using (column('edge')) nooutput
edge = STATS_max
set title sprintf("Lab 8: share of the DRAM roofline on a %d^3 grid, %s", edge, gpu_name)
set xlabel 'stencil radius r (N = 6r+1 points)'
set ylabel '% of the DRAM roofline (8 B per point at the copy ceiling)'
set xrange [0.5:5.5]
set xtics 1, 1, 5
set yrange [0:110]
set ytics 0, 20, 100
set boxwidth 0.072
set grid noxtics
set key outside right top vertical font ',9'
set arrow from 0.5, 85 to 5.5, 85 nohead lt 3 front
set label 'target 85%' at 5.45, 88 right front
@start_output
plot for [k = 1:11] csv using (column('param') + (k - 6) * 0.077):(code(strcol('variant')) == k ? column('pct_of_ceiling') : NaN) \
         with boxes lt 1 lc rgb word(colours, k) title word(codes, k), \
     100 with lines lt 4 title sprintf('roofline: copy ceiling %.0f GB/s', ceiling)
@finish_output
