# plot-stride.gp - lab 3: time per warp-wide shared-memory read against the stride, for
# 4-, 8- and 16-byte words, with the wavefronts the bank model predicts (one per clock).
load 'plots/style.gp'
set title sprintf("Lab 3: strided shared-memory reads on %s", gpu_name)
set xlabel 'stride (words between the words consecutive threads read)'
set ylabel 'SM clocks per warp-wide read (per SM)'
set logscale y 2
set xrange [0:34]
set xtics 0, 4, 32
set yrange [0.5:256]   # room above the data for the key
set key top center maxrows 2
sel(v) = strcol('variant') eq v ? column('clk_per_request') : NaN
model(v) = strcol('variant') eq v ? column('wavefronts_model') : NaN
@start_output
plot csv using 'param':(sel('stride_4byte')) with linespoints lt 1 title '4-byte words (measured)', \
     csv using 'param':(model('stride_4byte')) with lines lt 1 dt 2 lw 1.5 title '4-byte: wavefronts, gcd(s,32)', \
     csv using 'param':(sel('stride_8byte')) with linespoints lt 2 title '8-byte words (measured)', \
     csv using 'param':(model('stride_8byte')) with lines lt 2 dt 2 lw 1.5 title '8-byte: 2 gcd(s,16)', \
     csv using 'param':(sel('stride_16byte')) with linespoints lt 5 title '16-byte words (measured)', \
     csv using 'param':(model('stride_16byte')) with lines lt 5 dt 2 lw 1.5 title '16-byte: 4 gcd(s,8)'
@finish_output
