# plot-stride.gp - lab 1: useful bandwidth of the strided copy against the stride, with the
# 32-byte-sector model's prediction, the traffic the model implies, and the copy ceiling.
load 'plots/style.gp'
set title sprintf("Lab 1: strided copy on %s", gpu_name)
set xlabel 'stride (floats between the elements consecutive threads copy)'
set ylabel 'bandwidth (GB/s, bytes read + written)'
set logscale x 2
set xrange [0.8:160]
set yrange [0:ceiling * 1.15]
set key top right
@start_output
plot csv using 'param':'gbps' with linespoints lt 1 title 'useful bandwidth (measured)', \
     csv using 'param':'model_gbps' with lines lt 3 title 'useful bandwidth predicted by the 32-byte-sector model', \
     csv using 'param':'sector_gbps' with linespoints lt 2 title 'sector traffic the model implies (sector bytes / time)', \
     ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling)
@finish_output
