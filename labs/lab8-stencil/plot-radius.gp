# plot-radius.gp - lab 8, the seed's Fig. 3: GFLOP/s of the eleven codes for radii 1..5 on a
# cubic grid (256^3), grouped by radius, with the DRAM roofline of each radius (the copy
# ceiling of the same run moving 8 bytes a point, 2N-1 = 12r+1 flops a point).
load 'plots/style.gp'
codes = 'v1_base v2_base_intz v3_base_intz_reg v4_comp v5_comp_intz v6_comp_intz_reg v7_csl v8_csl_intz v9_csl_intz_reg v10_tuned v11_tma'
colours = '#9ecae1 #4292c6 #08519c #fcae91 #fb6a4a #a50f15 #a1d99b #41ab5d #006d2c #54278f #dd1c77'
code(name) = int(substr(name, 2, strstrt(name, '_') - 1)) # 'v10_tuned' -> 10
roof(r) = ceiling / 8.0 * (12 * r + 1)
stats csv using (column('edge')) nooutput
edge = STATS_max
set title sprintf("Lab 8: 3D star stencil on a %d^3 grid, %s", edge, gpu_name)
set xlabel 'stencil radius r (N = 6r+1 points)'
set ylabel 'GFLOP/s (2N-1 flops per interior point)'
set xrange [0.5:5.5]
set xtics 1, 1, 5
set yrange [0:roof(5) * 1.1]
set boxwidth 0.072
set grid noxtics
set key outside right top vertical font ',9'
do for [r = 1:5] { set arrow from r - 0.46, roof(r) to r + 0.46, roof(r) nohead lt 4 front }
@start_output
plot for [k = 1:11] csv using (column('param') + (k - 6) * 0.077):(code(strcol('variant')) == k ? column('gflops') : NaN) \
         with boxes lt 1 lc rgb word(colours, k) title word(codes, k), \
     NaN with lines lt 4 title sprintf('DRAM roofline (%.0f GB/s copy ceiling / 8 B)', ceiling)
@finish_output
