# plot-tiles.gp - lab 7: TFLOP/s of every variant at m = n = k = N, grouped by tile size,
# tiled only against tiled and unrolled (the seed's Fig. 4 on this GPU), with cuBLAS SGEMM
# measured in the same run, the FP32 peak, and the shared-memory model of the tiled kernels.
load 'plots/style.gp'
stats csv using 'n' nooutput
size = int(STATS_max)
stats csv using 'cublas_tflops' nooutput
cublas = STATS_max
stats csv using 'peak_tflops' nooutput
peak = STATS_max
stats csv using 'smem_model_tflops' nooutput
smem_model = STATS_max
set title sprintf("Lab 7: %d x %d matrix multiply (float32) on %s", size, size, gpu_name)
set ylabel 'TFLOP/s (2 m n k / time)'
set xlabel 'tile (outputs per block along each side)'
set xrange [-0.6:7.6]
set yrange [0:peak * 1.45] # room for the key above the peak line
set xtics ('not tiled' 0, '4x4' 1, '8x8' 2, '12x12' 3, '16x16' 4, '32x32' 5, "128x128, 8x8\nper thread" 6, "128x256, warp\ntiles, 8x16" 7)
set grid noxtics
set boxwidth 0.36
set key top left
group(t) = t == 0 ? 0 : t == 4 ? 1 : t == 8 ? 2 : t == 12 ? 3 : t == 16 ? 4 : t == 32 ? 5 : 6
tiled(t) = t >= 4 && t <= 32
is_lib(name) = name eq 'cublas_sgemm'
x_of(t, u) = group(t) + (tiled(t) ? (u == 1 ? 0.19 : -0.19) : 0)
# warp_tiled shares register_blocked's 128 x 128 tile: its own group, after it
x_at(t, u, name) = name eq 'warp_tiled' ? 7 : x_of(t, u)
@start_output
plot csv using (x_of(column('param'), column('unrolled'))):(!is_lib(strcol('variant')) && tiled(column('param')) && column('unrolled') == 0 ? column('tflops') : NaN) \
         with boxes lt 1 title 'tiled only (loop over the tile kept)', \
     csv using (x_of(column('param'), column('unrolled'))):(!is_lib(strcol('variant')) && tiled(column('param')) && column('unrolled') == 1 ? column('tflops') : NaN) \
         with boxes lt 2 title 'tiled and unrolled', \
     csv using (x_at(column('param'), 0, strcol('variant'))):(!is_lib(strcol('variant')) && !tiled(column('param')) ? column('tflops') : NaN) \
         with boxes lt 5 title 'untiled; register-blocked; warp-tiled', \
     csv using (x_at(column('param'), column('unrolled'), strcol('variant'))):(!is_lib(strcol('variant')) ? column('tflops') : NaN):(sprintf('%.1f', column('tflops'))) \
         with labels offset 0,0.7 font ',9' notitle, \
     cublas with lines lt 4 title sprintf('cuBLAS SGEMM, FP32 with TF32 off: %.1f TFLOP/s', cublas), \
     peak with lines lt 3 title sprintf('FP32 peak at the maximum clock: %.1f TFLOP/s', peak), \
     smem_model with lines lt 3 dt 3 title sprintf('model, one output per thread: 2 shared loads per multiply-add, %.1f TFLOP/s', smem_model)
@finish_output
