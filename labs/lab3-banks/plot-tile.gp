# plot-tile.gp - lab 3: a 32-word-wide tile read by rows, by columns (the transpose
# pattern) and by columns with one word of padding per row, with the bank model.
load 'plots/style.gp'
set title sprintf("Lab 3: reading a shared tile by rows and by columns on %s", gpu_name)
set ylabel 'SM clocks per warp-wide read (per SM)'
set logscale y 2
set yrange [0.5:96]
set xrange [-0.6:2.6]
set boxwidth 0.55
set grid noxtics
set key top left
@start_output
plot csv using 0:'clk_per_request':xtic(sprintf('%s (pitch %d)', strcol('variant'), column('param'))) with boxes lt 1 notitle, \
     csv using 0:'clk_per_request':(sprintf('%.1f clk', column('clk_per_request'))) with labels offset 0,1 notitle, \
     csv using 0:'wavefronts_model' with points lt 3 pt 6 ps 1.6 lc rgb '#000000' title 'bank model (wavefronts per read)'
@finish_output
