# plot-staircase.gp - lab 10: the texture unit's filter weight against the exact one, one fetch
# per 1/1024 of a texel between texels 0 and 1 (the value fetched is the weight). The
# difference, in units of 1/256, is a sawtooth between -1/2 and +1/2: the weight is rounded to
# 8 fractional bits. Zoomed to the first 16 of the 256 steps (1/16 of the fetches), as the
# figure says, with how many of all the fetches the model matches; the ties (exactly halfway)
# are marked.
load 'plots/style.gp'
zoom = 1.0 / 16
stats csv using (column('alpha_exact') <= zoom) nooutput name 'SHOWN'
stats csv using (column('alpha_texture') == column('alpha_model')) nooutput name 'MATCH'
set title sprintf("Lab 10: the linear filter's weight has 8 fractional bits, %s", gpu_name)
set xlabel 'exact weight (position between texel 0 and texel 1; zoomed to 0 .. 1/16)'
set ylabel 'fetched weight - exact weight (units of 1/256)'
set xrange [0:zoom]
set yrange [-0.75:0.75]
set key top right
set label 1 sprintf("zoomed: the %d fetches of weights 0 .. 1/16, of %d between texels 0 and 1;\n" . \
                    "the model matches %d of all %d (staircase.csv)", SHOWN_sum, SHOWN_records, MATCH_sum, MATCH_records) \
    at graph 0.02, graph 0.08 left
@start_output
plot csv using 'alpha_exact':((column('alpha_texture') - column('alpha_exact')) * 256) with linespoints lt 1 \
         title 'tex2D, linear filtering', \
     csv using 'alpha_exact':((column('alpha_model') - column('alpha_exact')) * 256) with lines lt 3 \
         title 'model: nearest multiple of 1/256', \
     csv using (column('tie') == 1 ? column('alpha_exact') : NaN):((column('alpha_texture') - column('alpha_exact')) * 256) \
         with points lt 5 pt 6 ps 1.6 title 'ties: exactly halfway'
@finish_output
