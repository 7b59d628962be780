# class-correct.gp - grade-all's class figure: for each correctness test, the share of the
# students graded on a GPU who passed it (grading/figures.py writes the CSV).
load 'plots/style.gp'
set title sprintf("Lab %s: correctness tests passed on %s (%s students)", meta('lab'), gpu_name, meta('students'))
set ylabel 'passed (% of the students graded)'
set yrange [0:115]
set ytics 0, 20, 100
set boxwidth 0.6
set grid noxtics
unset key
@start_output
plot csv using 'index':'pass_rate':xtic(strcol('test')) with boxes lt 1 notitle, \
     csv using 'index':'pass_rate':(sprintf('%d/%d', column('passed'), column('graded'))) with labels offset 0,1 notitle
@finish_output
