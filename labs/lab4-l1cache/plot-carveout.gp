# plot-carveout.gp - lab 4: the L1/shared split chosen at run time (the ca build). Left: the
# chase's latency against its footprint, one curve per shared-memory capacity: the L1's edge
# moves with what shared memory leaves it (dotted lines, labelled: the L1 each capacity should
# leave).
# Right: the stencil (r = 4) per capacity. Two panels need a multiplot, which gnuplot cannot
# replot into a second terminal, so the figure is drawn once per format (png_wanted,
# pdf_wanted of style.gp).
load 'plots/style.gp'
# "awk -F, ... CSV": the header, then the verified rows of `variant` (and carveout_pct == k).
col(name) = sprintf("for (i = 1; i <= NF; i++) if ($i == \"%s\") %s = i", name, name)
# Only the grid's points (sample grid, or no sample column): the bisections' would zigzag a line.
rows(v, k) = sprintf("< awk -F, '/^#/ { next } /^lab,/ { %s; %s; print; next } " . \
                     "$2 == \"%s\" && $14 == \"ok\" && (!sample || $sample == \"grid\") && (\"%s\" == \"\" || $pct == \"%s\")' '%s'", \
                     col('carveout_pct') . '; pct = carveout_pct', col('sample'), v, k, k, csv)
# each carveout's percentage, shared memory and L1, in the order of the run
each(field) = system(sprintf("awk -F, '/^#/ { next } /^lab,/ { %s; %s; next } $2 == \"chase\" && $14 == \"ok\" && " . \
                             "!seen[$carveout_pct]++ { printf \"%%s \", $%s }' '%s'", col('carveout_pct'), col(field), field, csv))
carves = each('carveout_pct')
smems = each('smem_kib')
l1s = each('l1_kib')
ncarves = words(carves)
nstencil = system(sprintf("awk -F, '$2 == \"stencil_1d\" && $14 == \"ok\" { n++ } END { print n + 0 }' '%s'", csv)) + 0
set palette defined (0 '#1f5fa8', 1 '#2a9d3a', 2 '#e09f3e', 3 '#d1495b')
unset colorbox
shade(i) = ncarves > 1 ? (i - 1.0) / (ncarves - 1) : 0
figure = "set multiplot layout 1, (ncarves > 0) + (nstencil > 0) title sprintf('Lab 4: the L1/shared-memory carveout (ca build) on %s', gpu_name); \
  if (ncarves > 0) { \
  set title 'chase: latency per load against footprint'; \
  set xlabel 'footprint (bytes, log scale)'; set ylabel 'latency per load (ns)'; \
  set logscale x 2; set xtics ('16K' 16384, '32K' 32768, '64K' 65536, '128K' 131072, '256K' 262144, '512K' 524288); \
  set yrange [0:*]; set offsets 0, 0, graph 1.1, 0; \
  set key top center maxrows 4 width -4 title 'shared memory in force (the L1 it leaves)'; \
  unset arrow; unset label; do for [i = 1:ncarves] { \
    set arrow i from real(word(l1s, i)) * 1024, graph 0 to real(word(l1s, i)) * 1024, graph 0.62 nohead lc palette frac shade(i) dt 3; \
    set label i sprintf('L1 %s KiB', word(l1s, i)) at real(word(l1s, i)) * 1024, graph 0.45 rotate by 90 left offset -0.4, 0 \
      tc palette frac shade(i) font ',9' }; \
  plot for [i = 1:ncarves] rows('chase', word(carves, i)) using 'footprint_bytes':'ns_per_hop' with linespoints lt 1 lw 1.5 \
       pt 7 ps 0.6 lc palette frac shade(i) title sprintf('%s KiB (%s KiB)', word(smems, i), word(l1s, i)) }; \
  unset arrow; unset label; unset logscale x; set xtics auto; set offsets 0, 0, 0, 0; set key bottom right title '' width 0 maxrows auto; \
  if (nstencil > 0) { \
  set title sprintf('stencil_1d, r = 4: time per launch'); \
  set xlabel 'shared memory per SM (KiB)'; set ylabel 'time per launch (ms, median)'; set xrange [-10:*]; \
  plot rows('stencil_1d', '') using 'smem_kib':'ms_median' with linespoints lt 1 title 'ca build' }; \
  unset multiplot"
if (png_wanted) {
    set terminal pngcairo size 1400,620 noenhanced font 'Sans,11'
    set output out.'.png'
    eval figure
}
if (pdf_wanted) {
    set terminal pdfcairo size 24cm,10cm noenhanced font 'Sans,9'
    set output out.'.pdf'
    eval figure
}
unset output
