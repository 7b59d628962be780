# plot-model.gp - lab 9, the seed's figure: for each code (rows) and grid edge n (columns),
# the measured time of every block shape beside the time the lab's model predicts (bars), the
# seed's bound max(V/BW) (diamonds), and the model's error on a second axis. A multiplot
# cannot be replotted into a second terminal, so the figure is drawn once per format
# (png_wanted, pdf_wanted of style.gp).
load 'plots/style.gp'
codes = 'k1_7pt_blocking k2_27pt_blocking k3_27pt_tiling'
col(name) = sprintf("for (i = 1; i <= NF; i++) if ($i == \"%s\") %s = i", name, name)
# the header, then the verified rows of code v on the n^3 grid
rows(v, n) = sprintf("< awk -F, '/^#/ { next } /^lab,/ { %s; print; next } $2 == \"%s\" && $14 == \"ok\" && $edge == %s' '%s'", \
                     col('edge'), v, n, csv)
edges = system(sprintf("awk -F, '/^#/ { next } /^lab,/ { %s; next } $14 == \"ok\" && !seen[$edge]++ { printf \"%%s \", $edge }' '%s'", \
                       col('edge'), csv))
nedges = words(edges)
ncodes = 0
do for [k = 1:3] {
    found = system(sprintf("grep -c '^9,%s,.*,ok,' '%s' || true", word(codes, k), csv)) + 0
    if (found > 0) { ncodes = ncodes + 1 }
}
figure = "set multiplot layout ncodes, nedges title sprintf('Lab 9: measured against predicted time (model: issue, shared memory, memory, latency; seed: max(V/BW)), %s', gpu_name); \
  set style data boxes; set boxwidth 0.38; set ytics nomirror; set y2tics; set y2range [0:100]; \
  set xtics rotate by -45 font ',7'; set key top center horizontal maxrows 1 samplen 1.5 font ',8'; \
  set yrange [0:*]; set offsets 0, 0, graph 0.22, 0; \
  do for [k = 1:3] { \
    if (system(sprintf(\"grep -c '^9,%s,.*,ok,' '%s' || true\", word(codes, k), csv)) + 0 > 0) { \
      do for [e = 1:nedges] { \
        set title sprintf('%s, n = %s', word(codes, k), word(edges, e)) font ',9'; \
        set ylabel 'time (ms)'; set y2label '|error| (%)'; \
        plot rows(word(codes, k), word(edges, e)) using (column('shape_index') - 0.2):'ms_median' lt 1 title 'measured', \
             '' using (column('shape_index') + 0.2):'pred_ms':xtic(strcol('shape')) lt 3 lc rgb '#9a9a9a' title 'model', \
             '' using 'shape_index':'seed_ms' with points lt 4 pt 13 ps 0.8 title 'seed bound', \
             '' using 'shape_index':(abs(column('error_pct'))) axes x1y2 with points lt 2 pt 5 title '|error|' } } }; \
  unset multiplot"
if (png_wanted) {
    set terminal pngcairo size 500 * nedges + 200, 330 * ncodes + 80 noenhanced font 'Sans,10'
    set output out.'.png'
    eval figure
}
if (pdf_wanted) {
    set terminal pdfcairo size (8 * nedges + 3) * 1cm, (5.5 * ncodes + 1.5) * 1cm noenhanced font 'Sans,8'
    set output out.'.pdf'
    eval figure
}
unset output
