# plot-offset.gp - lab 1: useful bandwidth of the misaligned copy against the offset, with
# the per-warp sector model, the DRAM model (the L2 fetches a shared sector once) and the
# copy ceiling measured in the same run.
load 'plots/style.gp'
set title sprintf("Lab 1: misaligned copy on %s", gpu_name)
set xlabel 'offset (floats; a multiple of 8 keeps every warp on 32-byte sector boundaries)'
set ylabel 'bandwidth (GB/s, bytes read + written)'
set xrange [-0.5:32.5]
set xtics 0, 4, 32
set yrange [0:ceiling * 1.15]
set key bottom right
@start_output
# The DRAM model moves at most a few sectors more than the aligned copy, so it lies on the
# ceiling: drawn as open points over the ceiling's line, not as a line hidden under it.
plot ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling), \
     csv using 'param':'gbps' with linespoints lt 1 title 'useful bandwidth, measured', \
     csv using 'param':'sector_model_gbps' with lines lt 3 title 'useful bandwidth, 32-byte-sector model (per warp)', \
     csv using 'param':'dram_model_gbps' with points lt 5 pt 6 ps 1.3 title 'useful bandwidth, DRAM model (shared sectors fetched once): on the ceiling'
@finish_output
