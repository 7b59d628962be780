# plot-histogram.gp - lab 3: the histogram's speed against its number of bins, one panel per
# input (uniform, one hot bin, eight hot bins): global atomics, the privatised histogram and
# CUB, as samples' bytes read per second, under the copy ceiling of the same run. Three
# panels need a multiplot, which gnuplot cannot replot into a second terminal, so the figure
# is drawn once per format (png_wanted, pdf_wanted of style.gp).
load 'plots/style.gp'
# The verified rows of one variant and input, in the order of the run (awk: the CSV's
# columns found by name in its header).
col(name) = sprintf("for (i = 1; i <= NF; i++) if ($i == \"%s\") %s = i", name, name)
rows(v, input) = sprintf("< awk -F, '/^#/ { next } /^lab,/ { %s; %s; print; next } " . \
                         "$2 == \"%s\" && $status == \"ok\" && $input == \"%s\"' '%s'", \
                         col('status'), col('input'), v, input, csv)
inputs = 'uniform hot1 hot8'
about(i) = i == 1 ? 'uniform: every bin equally likely' : \
           i == 2 ? 'hot1: 90% of the samples in one bin' : 'hot8: 90% of the samples in eight bins'
figure = "set multiplot layout 1, 3 title sprintf('Lab 3: histograms with global and shared atomics, against CUB, on %s', gpu_name); \
  set logscale x 2; set xrange [24:5400]; set xtics ('32' 32, '128' 128, '512' 512, '2048' 2048, '4096' 4096); \
  set logscale y 10; set yrange [1:20000]; set format y '%g'; \
  set xlabel 'bins'; set key bottom left; \
  do for [i = 1:3] { \
    set title about(i); \
    set ylabel (i == 1 ? 'samples read (GB/s, 4 bytes a sample)' : ''); \
    plot rows('hist_shared_privatised', word(inputs, i)) using 'param':'gbps' with linespoints lt 1 title 'shared, privatised', \
         rows('hist_global_atomics', word(inputs, i)) using 'param':'gbps' with linespoints lt 2 title 'global atomics', \
         rows('cub_histogram_even', word(inputs, i)) using 'param':'gbps' with linespoints lt 5 title 'CUB HistogramEven', \
         ceiling with lines lt 4 title (i == 1 ? 'copy ceiling (reads + writes)' : '') }; \
  unset multiplot"
if (png_wanted) {
    set terminal pngcairo size 1500,600 noenhanced font 'Sans,11'
    set output out.'.png'
    eval figure
}
if (pdf_wanted) {
    set terminal pdfcairo size 27cm,10cm noenhanced font 'Sans,9'
    set output out.'.pdf'
    eval figure
}
unset output
