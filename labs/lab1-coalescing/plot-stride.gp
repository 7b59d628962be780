# plot-stride.gp - lab 1: useful bandwidth of the strided copy against the stride, with what
# the 32-byte-sector model and the H100's DRAM model predict, the sector traffic the measured
# time implies, and the copy ceiling measured in the same run.
load 'plots/style.gp'
set title sprintf("Lab 1: strided copy on %s", gpu_name)
set xlabel 'stride (floats between the elements that consecutive threads copy)'
set ylabel 'bandwidth (GB/s, bytes read + written)'
set logscale x 2
set xrange [0.8:160]
set logscale y 10
set yrange [40:ceiling * 1.6]
set format y '%.0f'
set key bottom left
@start_output
plot csv using 'param':'gbps' with linespoints lt 1 title 'useful bandwidth, measured', \
     csv using 'param':'sector_model_gbps' with lines lt 3 title 'useful bandwidth, 32-byte-sector model', \
     csv using 'param':'dram_model_gbps' with lines lt 5 dt 3 title 'useful bandwidth, DRAM model (64-byte reads, partial-sector fills)', \
     csv using 'param':'sector_gbps' with linespoints lt 2 title 'sector traffic implied (sector bytes / measured time)', \
     ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling)
@finish_output
