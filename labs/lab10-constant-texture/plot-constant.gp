# plot-constant.gp - lab 10, the lesson of constant memory: the chase's time against k, the
# distinct words a warp asks for at once (1 = every lane the same word, a broadcast), through
# the constant cache, a plain global pointer and the read-only path. Dashed: the serialisation
# model calibrated on k = 1 of the same run (model_ms): time(1) x k for the constant cache,
# time(1) x the 128-byte lines touched for the L1 paths (dotted).
load 'plots/style.gp'
names = 'chase_constant chase_global chase_readonly'
kinds = '1 2 5'
is(k) = strcol('variant') eq word(names, k) && strcol('status') eq 'ok'
set title sprintf("Lab 10: k distinct words a warp request, %s", gpu_name)
set xlabel 'k: distinct words a warp asks for at once (1 = broadcast)'
set ylabel 'time of the chase (ms, median)'
set logscale xy 2
set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32)
set xrange [0.8:40]
set key top left
@start_output
plot for [k = 1:3] csv using (is(k) ? column('k') : NaN):'ms_median' with linespoints lt word(kinds, k) + 0 \
         title word(names, k), \
     csv using (is(1) ? column('k') : NaN):'model_ms' with lines lt 3 title 'model: time(k = 1) x k', \
     for [k = 2:3] csv using (is(k) ? column('k') : NaN):'model_ms' with lines lt 3 dt 3 \
         title (k == 2 ? 'model: time(k = 1) x 128-byte lines' : '')
@finish_output
