# plot-ilp.gp - lab 2: bandwidth against the bytes in flight, for 1, 2, 4 and 8 independent
# float loads per thread, with Little's law's single prediction and the copy ceiling. Points
# with more threads than the GPU holds at once are left out: their bytes in flight are
# those of the full GPU.
load 'plots/style.gp'
stats csv using 'latency_ns' nooutput
latency = STATS_max
set title sprintf("Lab 2: bandwidth against bytes in flight on %s", gpu_name)
set xlabel 'bytes in flight = resident threads x loads per thread x 4 B (log scale)'
set ylabel 'bandwidth (GB/s, bytes read + written; log scale)'
set logscale xy 2
set xtics ('128 B' 128, '1 KiB' 1024, '8 KiB' 8192, '64 KiB' 65536, '512 KiB' 524288, \
           '4 MiB' 4194304, '32 MiB' 33554432)
set yrange [0.1:ceiling * 2]
set ytics (0.1, 1, 10, 100, 1000, 3000) format '%g'
set samples 400
set key bottom right
model(b) = 2 * b / latency < ceiling ? 2 * b / latency : ceiling
in_flight(k) = column('loads_in_flight') == k && column('param') <= column('resident_threads') ? column('bytes_in_flight') : NaN
@start_output
plot csv using (in_flight(1)):'gbps' with linespoints lt 1 pt 6 ps 1.6 title '1 load per thread', \
     csv using (in_flight(2)):'gbps' with linespoints lt 2 pt 4 ps 1.3 title '2 loads', \
     csv using (in_flight(4)):'gbps' with linespoints lt 5 title '4 loads', \
     csv using (in_flight(8)):'gbps' with linespoints lt 1 lc rgb '#7b3fa0' pt 11 title '8 loads', \
     model(x) with lines lt 3 title sprintf("Little's law: min(ceiling, 2 x bytes in flight / %.0f ns)", latency), \
     ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling)
@finish_output
