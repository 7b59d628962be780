# plot-arms.gp - lab 5, the seed's question on this GPU: fwd_o8_queue at caps 32 and 24 (where
# it spills) and uncapped, each bar a speedup over the seed's baseline, the same cap (cap 32
# for none) spilling to local memory with the smallest L1 (most shared memory). Bars: that
# baseline (1.00), the driver's default carveout, the largest L1 that keeps the blocks, and
# spilling to shared memory (CUDA 13). The seed's Fermi figures are in the title.
load 'plots/style.gp'
arms = 'local/max_shared local/default local/most_l1 shared/default'
titles = "'local, smallest L1 (most shared)' 'local, default carveout' 'local, largest L1' 'spilled to shared memory'"
colours = '#bdbdbd #9ecae1 #2171b5 #e09f3e'
arm(s) = s eq word(arms, 1) ? 1 : s eq word(arms, 2) ? 2 : s eq word(arms, 3) ? 3 : s eq word(arms, 4) ? 4 : 0
group(c) = c == 32 ? 0 : c == 24 ? 1 : 2
is(a) = arm(strcol('arm')) == a && strcol('status') eq 'ok'
seed = '(the seed, Fermi, cap 32: uncapped 1.22x, 48 KB of L1 instead of 16 KB 1.45x)'
set title sprintf("Lab 5: more registers or more L1? fwd_o8_queue on %s\n%s", gpu_name, seed)
set xlabel 'register cap'
set ylabel 'speedup over the same cap with the smallest L1 (none: over cap 32)'
set xtics ('32 (the seed''s)' 0, '24' 1, 'none' 2)
set xrange [-0.6:2.6]
set yrange [0:*]
set grid noxtics
set boxwidth 0.19
set key below horizontal font ',9'
set bmargin 6
set arrow from -0.6, 1 to 2.6, 1 nohead lt 3 front
@start_output
plot for [a = 1:4] csv using (group(column('param')) + (a - 2.5) * 0.2):(is(a) ? column('speedup') : NaN) \
         with boxes lt 1 lc rgb word(colours, a) title word(titles, a), \
     for [a = 1:4] csv using (group(column('param')) + (a - 2.5) * 0.2):(is(a) ? column('speedup') : NaN): \
         (sprintf("%.2fx\n%.0f Gpt/s", column('speedup'), column('gpoints_s'))) with labels offset 0, 1.2 font ',8' notitle
@finish_output
