# plot-width.gp - lab 1: 4-byte against 16-byte accesses in a contiguous copy, as bars,
# against the cudaMemcpy ceiling measured in the same run.
load 'plots/style.gp'
set title sprintf("Lab 1: bytes per access on %s", gpu_name)
set ylabel 'bandwidth (GB/s, bytes read + written)'
set yrange [0:ceiling * 1.2]
set xrange [-0.6:1.6]
set boxwidth 0.55
set grid noxtics
set key top left
@start_output
plot csv using 0:'gbps':xtic(sprintf('%s (%d B)', strcol('variant'), column('param'))) with boxes lt 1 notitle, \
     csv using 0:'gbps':(sprintf('%.0f GB/s\n%.0f%% of ceiling', column('gbps'), column('pct_of_ceiling'))) with labels offset 0,1.6 notitle, \
     ceiling with lines lt 4 title sprintf('cudaMemcpy ceiling, %.0f GB/s', ceiling)
@finish_output
