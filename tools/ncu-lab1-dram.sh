#!/bin/sh
# ncu-lab1-dram.sh [BINARY] - measure what lab 1's copies really move to and from DRAM and
# L2 with Nsight Compute, for every stride and offset of the default sweep. Prints ncu's CSV
# (one row per kernel launch and metric). The handout's DRAM model comes from this.
bin=${1:-build/sm_90/solution/lab1/lab1}
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
# Skip the awkward-size verification (4 sizes x every parameter), then profile the sweep's
# launches: per point one verified launch, 3 warm-ups, 1 timed repetition.
ncu --clock-control none --csv --metrics "$metrics" --kernel-name regex:copy_strided \
    --launch-skip 136 --launch-count 170 "$bin" --only copy_strided --reps 1 --csv /tmp/ncu-lab1 &&
ncu --clock-control none --csv --metrics "$metrics" --kernel-name regex:copy_offset \
    --launch-skip 132 --launch-count 165 "$bin" --only copy_offset --reps 1 --csv /tmp/ncu-lab1
