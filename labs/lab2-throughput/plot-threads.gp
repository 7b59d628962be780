# plot-threads.gp - lab 2: read-modify-write bandwidth against the number of threads, for
# 4-, 8- and 16-byte words (seed 002, Fig. 1), with Little's law's prediction for each
# (dashed), the copy ceiling, and the thread count at which every SM is full.
load 'plots/style.gp'
stats csv using 'resident_threads' nooutput
resident = STATS_min
stats csv using 'latency_ns' nooutput
latency = STATS_max
set title sprintf("Lab 2: read-modify-write bandwidth against threads on %s", gpu_name)
set xlabel 'threads in the grid, T (log scale; Ki = 1024, Mi = 1024 Ki)'
set ylabel 'bandwidth (GB/s, bytes read + written; log scale)'
set logscale xy 2
set xrange [24:*]
set xtics ('32' 32, '128' 128, '512' 512, '2 Ki' 2048, '8 Ki' 8192, '32 Ki' 32768, '128 Ki' 131072, \
           '512 Ki' 524288, '2 Mi' 2097152, '8 Mi' 8388608)
set yrange [0.1:ceiling * 2]
set ytics (0.1, 1, 10, 100, 1000, 3000) format '%g'
set arrow 1 from resident, graph 0 to resident, graph 1 nohead lt 3 dt 3
set label 1 sprintf("every SM full:\n%.0f threads", resident) at resident, graph 0.6 right offset -0.8, 0
set key bottom right
is(v) = strcol('variant') eq v
@start_output
plot csv using (is('rmw_float') ? column('param') : NaN):'gbps' with linespoints lt 1 title 'float (4 B per load)', \
     csv using (is('rmw_float2') ? column('param') : NaN):'gbps' with linespoints lt 2 title 'float2 (8 B)', \
     csv using (is('rmw_float4') ? column('param') : NaN):'gbps' with linespoints lt 5 title 'float4 (16 B)', \
     csv using (is('rmw_float') ? column('param') : NaN):'model_gbps' with lines lt 1 dt 2 lw 1.5 \
         title sprintf("Little's law: min(ceiling, 2 x bytes in flight / %.0f ns)", latency), \
     csv using (is('rmw_float2') ? column('param') : NaN):'model_gbps' with lines lt 2 dt 2 lw 1.5 notitle, \
     csv using (is('rmw_float4') ? column('param') : NaN):'model_gbps' with lines lt 5 dt 2 lw 1.5 notitle, \
     ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling)
@finish_output
