# plot-occupancy.gp - lab 5: the resource table as a figure, occupancy against spills. Per
# variant and cap: the theoretical occupancy (occupancy API, bars) labelled inside with the
# registers a thread, the blocks an SM holds and the local memory a thread (the spills'
# stack frame), and the speed each reached (right axis).
load 'plots/style.gp'
names = 'fwd_o8_queue fwd_o8_ring'
bars = '#9ecae1 #fcae91'
is(k) = strcol('variant') eq word(names, k) && strcol('status') eq 'ok'
set title sprintf("Lab 5: occupancy against spills per register cap, %s", gpu_name)
set xlabel 'register cap, per variant'
set ylabel "theoretical occupancy (% of the SM's warp slots)"
set y2label 'Gpoints/s (interior points a second)'
set yrange [0:140]
set ytics 0, 25, 100 nomirror
set y2range [0:*]
set y2tics
set xrange [-0.6:*]
set grid noxtics
set boxwidth 0.7
set key below horizontal font ',9'
set bmargin 6
@start_output
plot for [k = 1:2] csv using 0:(is(k) ? column('occupancy_pct') : NaN):xtic(strcol('cap')) \
         with boxes lt 1 lc rgb word(bars, k) title sprintf('%s: occupancy', word(names, k)), \
     for [k = 1:2] csv using 0:(is(k) ? 2 : NaN):(sprintf("%d regs, %d blk, %d B local", \
         column('regs'), column('blocks_per_sm'), column('stack_bytes'))) \
         with labels rotate by 90 left font ',9' notitle, \
     for [k = 1:2] csv using 0:(is(k) ? column('gpoints_s') : NaN) axes x1y2 with linespoints lt k \
         title sprintf('%s: Gpoints/s', word(names, k))
@finish_output
