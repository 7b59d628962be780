# plot-struct.gp - lab 3: one field of a k-field struct per thread, from three shared
# layouts (AoS, SoA, padded AoS), as bars per k, with the bank model's wavefronts.
load 'plots/style.gp'
set title sprintf("Lab 3: AoS, SoA and padded AoS in shared memory on %s", gpu_name)
set xlabel 'k (4-byte fields per struct)'
set ylabel 'SM clocks per warp-wide read (per SM)'
set xrange [0.4:8.6]
set xtics 1, 1, 8
set yrange [0:*]
set boxwidth 0.26
set grid noxtics
set key top left
bar(v, dx) = strcol('variant') eq v ? column('param') + dx : NaN
@start_output
plot csv using (bar('struct_aos', -0.27)):'clk_per_request' with boxes lt 2 title 'AoS (measured)', \
     csv using (bar('struct_soa', 0)):'clk_per_request' with boxes lt 1 title 'SoA (measured)', \
     csv using (bar('struct_padded', 0.27)):'clk_per_request' with boxes lt 5 title 'padded AoS, stride k|1 (measured)', \
     csv using (bar('struct_aos', -0.27)):'wavefronts_model' with points lt 3 pt 6 ps 1.4 lc rgb '#000000' title 'bank model: gcd(k,32) for AoS, 1 otherwise', \
     csv using (bar('struct_soa', 0)):'wavefronts_model' with points lt 3 pt 6 ps 1.4 lc rgb '#000000' notitle, \
     csv using (bar('struct_padded', 0.27)):'wavefronts_model' with points lt 3 pt 6 ps 1.4 lc rgb '#000000' notitle
@finish_output
