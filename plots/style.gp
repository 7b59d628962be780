# plots/style.gp - the house style, loaded by every lab's plot script.
#
# A plot script is called with csv='results/labN/X.csv', out='plots/labN/X' and
# formats='png', 'pdf' or 'both'. It loads this file, sets up its axes, then:
#     @start_output; plot ...; @finish_output
# meta('key') reads a value from the CSV's comment header (gpu, ceiling_copy_gbps, ...).

reset
set datafile separator ','
set datafile commentschars '#'
set datafile columnheaders
set datafile missing ''
set encoding utf8
set grid xtics ytics lc rgb '#d8d8d8' lw 1 dt 1
set border 3 lw 1
set tics nomirror out
set key top right box opaque samplen 2 spacing 1.1
set style fill solid 0.85 border -1

set linetype 1 lc rgb '#1f5fa8' lw 2 pt 7 ps 0.9   # measured
set linetype 2 lc rgb '#d1495b' lw 2 pt 5 ps 0.9   # measured, second series
set linetype 3 lc rgb '#444444' lw 1.5 dt 2 pt 0   # model
set linetype 4 lc rgb '#2a9d3a' lw 2 dt 4 pt 0     # ceiling
set linetype 5 lc rgb '#e09f3e' lw 2 pt 9 ps 0.9   # extra series

meta(key) = system(sprintf("sh tools/csvmeta.sh '%s' '%s'", csv, key))
gpu_name = meta('gpu')
ceiling_text = meta('ceiling_copy_gbps')
ceiling = (ceiling_text eq '' ? NaN : real(ceiling_text))  # the class figures have none

if (!exists('formats')) formats = 'both'
png_wanted = formats eq 'png' || formats eq 'both'
pdf_wanted = formats eq 'pdf' || formats eq 'both'
start_output = "if (png_wanted) { set terminal pngcairo size 1000,620 noenhanced font 'Sans,11'; set output out.'.png' } else { set terminal pdfcairo size 16cm,10cm noenhanced font 'Sans,9'; set output out.'.pdf' }"
finish_output = "if (png_wanted && pdf_wanted) { set terminal pdfcairo size 16cm,10cm noenhanced font 'Sans,9'; set output out.'.pdf'; replot }; unset output"
