# class-scores.gp - grade-all's class figure: how the students' totals are spread, in bars of
# 5% of the points (full marks in the last), with the median (grading/figures.py writes the CSV).
load 'plots/style.gp'
max_score = real(meta('max_score'))
median = real(meta('median'))
skipped = real(meta('skipped_points'))
binw = max_score / 20
bin(x) = x >= max_score ? max_score - binw / 2 : binw * (floor(x / binw) + 0.5)
set title sprintf("Lab %s: scores of %s students, graded %s (median %g/%g)%s%s", meta('lab'), meta('students'), \
    gpu_name eq 'none' ? 'without a GPU' : 'on '.gpu_name, median, max_score, \
    meta('not_graded') eq '0' ? '' : sprintf("; %s not graded", meta('not_graded')), \
    skipped > 0 ? sprintf("\nGPU tests skipped: %g of the %g points are not graded yet", skipped, max_score) : '')
set xlabel sprintf('total score (points; bars of %g)', binw)
set ylabel 'students'
set xrange [0:max_score]
set yrange [0:*]
set boxwidth binw * 0.9
set grid noxtics
set arrow 1 from median, graph 0 to median, graph 1 nohead lt 3 front
set key top left
@start_output
plot csv using (bin(column('total'))):(1) smooth frequency with boxes lt 1 notitle, \
     NaN with lines lt 3 title 'median'
@finish_output
