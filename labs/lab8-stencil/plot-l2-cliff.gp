# plot-l2-cliff.gp - lab 8, the seed's Fig. 5 and 7 as curves: the L2 hit rate (left) and the
# kernel's time per interior point (right) of v1/v2 (r 1), v4/v5 (r 3) and v7/v8 (r 5) against
# X over the predicted cliff X, one profiled launch a point (counters.sh curve, l2-cliff.csv).
# Plain codes solid, their INTZ versions dashed; the vertical line is the seed's predicted
# cliff, 4(XY + 2r(X+Y) + 2rXY) = the L2 size. Two panels need a multiplot, which gnuplot
# cannot replot into a second terminal, so this script draws the figure once per format
# itself (png_wanted / pdf_wanted of style.gp).
load 'plots/style.gp'
codes = 'v1_base v2_base_intz v4_comp v5_comp_intz v7_csl v8_csl_intz'
colours = '#1f5fa8 #1f5fa8 #e09f3e #e09f3e #d1495b #d1495b'
radius(k) = (k - 1) / 2 * 2 + 1
title_of(k) = sprintf('%s (r %d)', word(codes, k), radius(k))
stats csv using (column('ny')) nooutput
ny = STATS_max
stats csv using (column('nz')) nooutput
nz = STATS_max
# the x of code k's verified rows, NaN for the others (a line breaks only between codes)
x_of(k) = strcol('variant') eq word(codes, k) && strcol('status') eq 'ok' ? column('param') / column('cliff_nx') : NaN
ps_per_point(dummy) = column('ms_median') * 1e9 / column('n')
set logscale x 2
set xrange [0.2:5]
set xtics ('1/4' 0.25, '1/2' 0.5, '3/4' 0.75, '1' 1, '2' 2, '4' 4)
set xlabel 'X / predicted cliff X'
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lt 3
figure = "set multiplot layout 1, 2 title sprintf('Lab 8: the L2 around the cliff (Y = %d, Z = %d), %s; one launch a point under Nsight Compute', ny, nz, gpu_name); \
  set title 'L2 hit rate'; set ylabel 'L2 sector hit rate (%)'; set yrange [0:100]; \
  set key bottom left font ',9' samplen 3; \
  plot for [k = 1:5:2] csv using (x_of(k)):'l2_hit_pct' with linespoints lc rgb word(colours, k) lw 2 dt 1 pt 7 ps marks title title_of(k), \
       for [k = 2:6:2] csv using (x_of(k)):'l2_hit_pct' with linespoints lc rgb word(colours, k) lw 2 dt 2 pt 6 ps marks title title_of(k), \
       NaN with lines lt 3 title 'predicted cliff'; \
  set title 'time per interior point'; set ylabel 'ps per interior point (one launch)'; set yrange [0:*]; \
  set key off; \
  plot for [k = 1:5:2] csv using (x_of(k)):(ps_per_point(0)) with linespoints lc rgb word(colours, k) lw 2 dt 1 pt 7 ps marks notitle, \
       for [k = 2:6:2] csv using (x_of(k)):(ps_per_point(0)) with linespoints lc rgb word(colours, k) lw 2 dt 2 pt 6 ps marks notitle; \
  unset multiplot"
if (png_wanted) {
    set terminal pngcairo size 1400,620 noenhanced font 'Sans,11'
    set output out.'.png'
    marks = 1
    eval figure
}
if (pdf_wanted) {
    set terminal pdfcairo size 24cm,10cm noenhanced font 'Sans,8'
    set output out.'.pdf'
    marks = 0.5
    eval figure
}
unset output
