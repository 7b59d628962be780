# plot-occupancy.gp - lab 7: the resource table as a figure: theoretical occupancy of each
# variant (occupancy API), labelled with its registers per thread, resident blocks and the
# resource that limits them, against the TFLOP/s it reached.
load 'plots/style.gp'
set title sprintf("Lab 7: occupancy and speed per variant on %s", gpu_name)
set ylabel "theoretical occupancy (% of the SM's warp slots)"
set y2label 'TFLOP/s (measured)'
set yrange [0:135]
set ytics 0, 25, 100 nomirror
set y2range [0:*]
set y2tics
set xrange [-0.6:*]
set xtics rotate by -30 left font ',9'
set grid noxtics
set boxwidth 0.6
set key top left
set bmargin 6
# Each bar's label, written down the bar from its top (or up from it, above a short bar).
label(i) = sprintf("%d regs, %d blk, %s", column('regs_thread'), column('blocks_sm'), strcol('limited_by'))
tall(occ) = occ >= 45
@start_output
plot csv using 0:'occ_pct':xtic(strcol('variant')) with boxes lt 1 lc rgb '#9ecae1' title 'theoretical occupancy', \
     csv using 0:(tall(column('occ_pct')) ? column('occ_pct') - 3 : NaN):(label(0)) \
         with labels rotate by 90 right font ',9' notitle, \
     csv using 0:(tall(column('occ_pct')) ? NaN : column('occ_pct') + 3):(label(0)) \
         with labels rotate by 90 left font ',9' notitle, \
     csv using 0:'tflops' axes x1y2 with linespoints lt 2 title 'TFLOP/s'
@finish_output
