# plot-rotate.gp - lab 10: an image rotated about its centre, through the texture path and from
# global memory, against the angle. At 0 and 90 degrees a warp reads one input row or one
# column; in between, a slanted line across up to 32 rows: what the texture's 2D layout is for.
load 'plots/style.gp'
names = 'rotate_texture rotate_global'
is(k) = strcol('variant') eq word(names, k) && strcol('status') eq 'ok'
set title sprintf("Lab 10: rotation, texture path against global memory, %s", gpu_name)
set xlabel 'rotation (degrees)'
set ylabel 'Gpixels/s (output pixels a second)'
set xrange [-5:95]
set xtics 0, 15, 90
set yrange [0:*]
set key bottom right
@start_output
plot for [k = 1:2] csv using (is(k) ? column('param') : NaN):'gpix_s' with linespoints lt k title word(names, k)
@finish_output
