# plot-staircase.gp - lab 10: the texture unit's filter weight against the exact one, one fetch
# per 1/1024 of a texel between texels 0 and 1 (the value fetched is the weight). The
# difference, in units of 1/256, is a sawtooth between -1/2 and +1/2: the weight is rounded to
# 8 fractional bits. The first 16 of the 256 steps; the ties (exactly halfway) are marked.
load 'plots/style.gp'
set title sprintf("Lab 10: the linear filter's weight has 8 fractional bits, %s", gpu_name)
set xlabel 'exact weight (position between texel 0 and texel 1)'
set ylabel 'fetched weight - exact weight (units of 1/256)'
set xrange [0:0.0625]
set yrange [-0.75:0.75]
set key top right
@start_output
plot csv using 'alpha_exact':((column('alpha_texture') - column('alpha_exact')) * 256) with linespoints lt 1 \
         title 'tex2D, linear filtering', \
     csv using 'alpha_exact':((column('alpha_model') - column('alpha_exact')) * 256) with lines lt 3 \
         title 'model: nearest multiple of 1/256', \
     csv using (column('tie') == 1 ? column('alpha_exact') : NaN):((column('alpha_texture') - column('alpha_exact')) * 256) \
         with points lt 5 pt 6 ps 1.6 title 'ties: exactly halfway'
@finish_output
