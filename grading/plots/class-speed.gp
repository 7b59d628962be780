# class-speed.gp - grade-all's class figure: for each speed test, each student's time against
# the reference solution's in the same session (the ratio the credit bands read), with the
# test's full-credit and no-credit ratios (grading/figures.py writes the CSV).
load 'plots/style.gp'
set title sprintf("Lab %s: speed against the reference solution on %s (%s students)", meta('lab'), gpu_name, \
    meta('students'))
set ylabel "time / the reference's time (log scale; under 1: faster)"
set logscale y 2
set format y '%g'
eval sprintf('set xtics (%s)', meta('xtics'))
set xrange [-0.5:real(meta('tests')) - 0.5]
set grid noxtics
set key outside bottom center horizontal
@start_output
plot csv using 'x':'ratio' with points lt 1 title 'a student', \
     csv using (column('index') - 0.4):'full_credit':(0.8):(0) with vectors nohead lt 4 title 'full credit at or under', \
     csv using (column('index') - 0.4):'no_credit':(0.8):(0) with vectors nohead lt 2 title 'no credit at or over', \
     1 with lines lt 3 title 'the reference'
@finish_output
