# plot-steps.gp - lab 6: bandwidth of every step at each size (solid), CUB's
# DeviceReduce::Sum measured in the same run at that size (dashed, same colour) and the
# cudaMemcpy copy ceiling. Reads steps.csv: one row per (variant, size), param = step.
load 'plots/style.gp'
# the sizes in the file, in increasing order ($4 = n, $14 = status)
sizes = system(sprintf("grep -v '^#' '%s' | awk -F, 'NR > 1 && $14 == \"ok\" { print $4 }' | sort -n -u | tr '\\n' ' '", csv))
colours = '#1f5fa8 #d1495b #e09f3e #2a9d3a #6a4c93 #444444'
log2(x) = log(x) / log(2)
size_label(n) = (abs(log2(n) - floor(log2(n) + 0.5)) < 1e-9) ? sprintf('n = 2^%d', floor(log2(n) + 0.5)) : sprintf('n = %d', n)
is_step(n) = column('n') == n && column('param') > 0 && strcol('status') eq 'ok'

set title sprintf("Lab 6: reduction steps on %s (bytes = 4n, input read once)", gpu_name)
set xlabel 'step (1-7: the seed'."'".'s seven steps; 8-10: beyond them)'
set ylabel 'bandwidth (GB/s, log scale)'
set logscale y
set xrange [0.6:10.4]
set xtics ('1 divergent' 1, '2 strided' 2, '3 sequential' 3, '4 add on load' 4, \
           '5 last warp' 5, '6 unrolled' 6, '7 many/thread' 7, '8 vec4+shuffle' 8, \
           '9 one pass' 9, '10 1024 threads' 10) rotate by -30 font ',9'
set yrange [100:ceiling * 2]
set key outside right top vertical font ',8' samplen 2
@start_output
plot for [k = 1:words(sizes)] csv using (is_step(real(word(sizes, k))) ? column('param') : NaN):'gbps' \
         with linespoints dt 1 lw 2 pt 7 lc rgb word(colours, k) title size_label(real(word(sizes, k))), \
     for [k = 1:words(sizes)] csv using (is_step(real(word(sizes, k))) ? column('param') : NaN):'cub_gbps' \
         with lines dt 2 lw 1.5 lc rgb word(colours, k) title sprintf('CUB DeviceReduce::Sum, %s', size_label(real(word(sizes, k)))), \
     ceiling with lines lt 4 title sprintf('cudaMemcpy copy ceiling, %.0f GB/s (read + write)', ceiling)
@finish_output
