# plot-cliff.gp - lab 8, the seed's Fig. 4 and 8: GFLOP/s against X (Y and Z fixed), one
# panel per radius (rows) and code family (columns: BASE, COMP, CSL); in each, the plain
# code (dotted), with the z loop in the thread (INTZ, dashed) and INTZ + registers (solid);
# v10 and v11 (beyond the seed, thin) in every panel for comparison. The first panel has the
# key.
# The vertical line is the seed's predicted cliff: 4(XY + 2r(X+Y) + 2rXY) = the L2 size.
# Fifteen panels need a multiplot, which gnuplot cannot replot into a second terminal, so
# this script draws the figure once per format itself (png_wanted / pdf_wanted of style.gp).
load 'plots/style.gp'
families = 'BASE COMP CSL'
l2 = real(meta('l2_bytes'))
stats csv using (column('ny')) nooutput
ny = STATS_max
stats csv using (column('nz')) nooutput
nz = STATS_max
cliff(r) = (l2 / 4.0 - 2 * r * ny) / ((2 * r + 1) * ny + 2 * r)
# The rows of one code and radius (the header kept): lines must not break at other rows.
codes = 'v1_base v2_base_intz v3_base_intz_reg v4_comp v5_comp_intz v6_comp_intz_reg v7_csl v8_csl_intz v9_csl_intz_reg v10_tuned v11_tma'
# the key's entries, in the first panel only
key(r, f, text) = r == 1 && f == 0 ? text : ''
rows_of(c, r) = sprintf("< awk -F, '/^lab,/ || ($2 == \"%s\" && $15 == %d)' '%s'", word(codes, c), r, csv)
set xrange [0:*]
set yrange [0:*]
set key off
set tics font ',8'
figure = "set multiplot layout 5, 3 title sprintf('Lab 8: GFLOP/s against X (Y = %d, Z = %d), %s\nplain: v1, v4, v7; INTZ: v2, v5, v8; INTZ + registers: v3, v6, v9', ny, nz, gpu_name) font ',11'; \
  do for [r = 1:5] { do for [f = 0:2] { \
    unset arrow; set arrow from cliff(r), graph 0 to cliff(r), graph 1 nohead lt 3; \
    if (r == 1 && f == 0) { set key bottom left reverse Left font ',8' samplen 2 } else { set key off }; \
    set title sprintf('%s, r = %d (cliff X = %.0f)', word(families, f + 1), r, cliff(r)) font ',9'; \
    set xlabel (r == 5 ? 'X (points)' : ''); set ylabel (f == 0 ? 'GFLOP/s' : ''); \
    plot rows_of(3 * f + 1, r) using 'param':'gflops' with lines lc rgb '#666666' dt 3 lw 2 title key(r, f, 'plain'), \
         rows_of(3 * f + 2, r) using 'param':'gflops' with lines lc rgb '#1f5fa8' dt 2 lw 2 title key(r, f, 'INTZ'), \
         rows_of(3 * f + 3, r) using 'param':'gflops' with lines lc rgb '#d1495b' dt 1 lw 2 title key(r, f, 'INTZ + registers'), \
         rows_of(10, r) using 'param':'gflops' with lines lc rgb '#000000' dt 1 lw 1 title key(r, f, 'v10 tuned'), \
         rows_of(11, r) using 'param':'gflops' with lines lc rgb '#2a9d3a' dt 1 lw 1 title key(r, f, 'v11 TMA'), \
         NaN with lines lt 3 title key(r, f, 'L2 cliff, predicted') } }; \
  unset multiplot"
if (png_wanted) {
    set terminal pngcairo size 1500,1700 enhanced font 'Sans,10'
    set output out.'.png'
    eval figure
}
if (pdf_wanted) {
    set terminal pdfcairo size 21cm,24cm enhanced font 'Sans,7'
    set output out.'.pdf'
    eval figure
}
unset output
