# plot-zoom.gp - lab 10: bilinear zoom by the texture unit against the same interpolation from
# global memory, per zoom factor: the time (bars) and the largest error against exact weights
# (labels, and the right axis, log scale): the texture's 8-bit weights against float's 24 bits.
load 'plots/style.gp'
names = 'zoom_texture zoom_global'
bars = '#9ecae1 #fcae91'
is(k) = strcol('variant') eq word(names, k) && strcol('status') eq 'ok'
pos(p) = p == 50 ? 0 : p == 137 ? 1 : 2
set title sprintf("Lab 10: bilinear zoom, texture unit against global memory, %s", gpu_name)
set xlabel 'zoom (percent; 50 shrinks the image, the edges clamp)'
set ylabel 'time (ms, median)'
set y2label 'largest error against exact weights'
set logscale y2
set y2tics
set format y2 '%.0e'
set ytics nomirror
set yrange [0:*]
set xtics ('50%%' 0, '137%%' 1, '250%%' 2)
set xrange [-0.6:2.6]
set boxwidth 0.3
set grid noxtics
set key below horizontal
set bmargin 5
@start_output
plot for [k = 1:2] csv using (pos(column('param')) + (k - 1.5) * 0.32):(is(k) ? column('ms_median') : NaN) \
         with boxes lt 1 lc rgb word(bars, k) title sprintf('%s: time', word(names, k)), \
     for [k = 1:2] csv using (pos(column('param')) + (k - 1.5) * 0.32):(is(k) ? column('max_err') : NaN) axes x1y2 \
         with points lt k pt 7 ps 1.4 title sprintf('%s: largest error', word(names, k))
@finish_output
