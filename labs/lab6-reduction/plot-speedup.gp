# plot-speedup.gp - lab 6, then and now: each step's speedup over step 1, on the seed's
# G80 (2^22 ints, its tables 1-7) and on this GPU at each size, with what CUB reaches over
# step 1 in the same run (dashed) and what the G80's 86.4 GB/s allowed over its step 1.
# Reads speedup.csv: one row per (variant, size), param = step.
load 'plots/style.gp'
sizes = system(sprintf("grep -v '^#' '%s' | awk -F, 'NR > 1 && $14 == \"ok\" { print $4 }' | sort -n -u | tr '\\n' ' '", csv))
colours = '#1f5fa8 #d1495b #e09f3e #2a9d3a #6a4c93 #444444'
log2(x) = log(x) / log(2)
size_label(n) = (abs(log2(n) - floor(log2(n) + 0.5)) < 1e-9) ? sprintf('n = 2^%d', floor(log2(n) + 0.5)) : sprintf('n = %d', n)
is_step(n) = column('n') == n && strcol('status') eq 'ok'
speedup(name) = column('param') == 1 ? 1 : column(name)
g80_peak_x = 86.4 / 2.083   # the G80's theoretical bandwidth over its step 1

set title sprintf("Lab 6: speedup over step 1, the seed's G80 then and %s now", gpu_name)
set xlabel 'step (1-7: the seed'."'".'s seven steps; 8-10: beyond them)'
set ylabel 'speedup over step 1 (x, log scale)'
set logscale y
set xrange [0.6:10.4]
set yrange [0.8:*]
set xtics ('1 divergent' 1, '2 strided' 2, '3 sequential' 3, '4 add on load' 4, \
           '5 last warp' 5, '6 unrolled' 6, '7 many/thread' 7, '8 vec4+shuffle' 8, \
           '9 one pass' 9, '10 1024 threads' 10) rotate by -30 font ',9'
set key top left font ',9'
first = real(word(sizes, 1))
@start_output
plot csv using (is_step(first) && column('param') <= 7 ? column('param') : NaN):(speedup('g80_total_x')) \
         with linespoints dt 1 lw 2 pt 5 lc rgb '#000000' title 'G80, 2^22 (the seed)', \
     g80_peak_x with lines dt 3 lw 1.5 lc rgb '#000000' title sprintf('G80: 86.4 GB/s over its step 1 = %.1fx', g80_peak_x), \
     for [k = 1:words(sizes)] csv using (is_step(real(word(sizes, k))) ? column('param') : NaN):(speedup('total_x')) \
         with linespoints dt 1 lw 2 pt 7 lc rgb word(colours, k) title sprintf('this GPU, %s', size_label(real(word(sizes, k)))), \
     for [k = 1:words(sizes)] csv using (is_step(real(word(sizes, k))) ? column('param') : NaN):'cub_x' \
         with lines dt 2 lw 1.5 lc rgb word(colours, k) title sprintf('CUB over step 1, %s', size_label(real(word(sizes, k))))
@finish_output
