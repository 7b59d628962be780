# plot-caps.gp - lab 5, the lesson: each variant's time against its register cap (left axis,
# lines), and what the cap pushed out of registers, the local memory a thread (the stack frame
# of the spills, bytes; right axis, bars). Each variant's fastest cap is ringed and the cap
# kernels.cu chose is marked; the dashed line is the DRAM floor (16 bytes a point at the copy
# ceiling of the same run).
load 'plots/style.gp'
names = 'fwd_o8_queue fwd_o8_ring'
bars = '#9ecae1 #fcae91'
pos(c) = c == 0 ? 7 : c <= 24 ? 0 : c <= 32 ? 1 : c <= 40 ? 2 : c <= 48 ? 3 : c <= 64 ? 4 : c <= 96 ? 5 : 6
is(k) = strcol('variant') eq word(names, k) && strcol('status') eq 'ok'
stats csv using (column('bytes')) nooutput
floor_ms = STATS_max / (ceiling * 1e6)
set title sprintf("Lab 5: 8th-order stencil, time and spills against the register cap, %s", gpu_name)
set xlabel 'register cap (__maxnreg__; none = the compiler''s choice)'
set ylabel 'time of one step (ms, median)'
set y2label 'spilled: local memory a thread (bytes, stack frame)'
set xtics ('24' 0, '32' 1, '40' 2, '48' 3, '64' 4, '96' 5, '128' 6, 'none' 7)
set xrange [-0.6:7.6]
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set grid noxtics
set boxwidth 0.26
set key below horizontal font ',9' maxcols 3
set bmargin 7
set arrow from -0.6, floor_ms to 7.6, floor_ms nohead lt 4 front
@start_output
plot for [k = 1:2] csv using (pos(column('param')) + (k - 1.5) * 0.28):(is(k) ? column('stack_bytes') : NaN) \
         axes x1y2 with boxes lt 1 lc rgb word(bars, k) title sprintf('%s: spilled bytes', word(names, k)), \
     for [k = 1:2] csv using (pos(column('param'))):(is(k) ? column('ms_median') : NaN) \
         with linespoints lt k title sprintf('%s: time', word(names, k)), \
     for [k = 1:2] csv using (pos(column('param'))):(is(k) && column('best') == 1 ? column('ms_median') : NaN) \
         with points pt 6 ps 3 lc rgb '#222222' title (k == 1 ? 'fastest cap' : ''), \
     for [k = 1:2] csv using (pos(column('param'))):(is(k) && column('chosen') == 1 ? column('ms_median') : NaN) \
         with points pt 3 ps 2.2 lc rgb '#2a9d3a' title (k == 1 ? 'chosen in kernels.cu' : ''), \
     NaN with lines lt 4 title sprintf('DRAM floor (%.0f GB/s)', ceiling)
@finish_output
