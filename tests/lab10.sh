# tests/lab10.sh - lab 10's own checks, sourced by tests/run.sh (helpers and variables there).
# Without a GPU: the CPU texture model (texture_model.h) against the seed's m[5.5][1.5] in both
# readings, every address mode, a tex1D table measured on an old GPU, border fetches measured
# on the H100 (the product weight ab rounded to 8 bits) and ties; the image check
# (image_check.h) the same on any number of threads; the fixtures build. With a
# GPU: every texture mode verified element by element against that model (every fetch dumped
# to fetches.csv) and the staircase of 8-bit weights; the solution verified at awkward and default sizes; the student
# file's TODO variants reported as not_implemented; the phenomena: chase_constant's slowdown
# from k = 1 to k = 32 within 15% of the serialisation model (32x), the read-only path far
# flatter, and the texture's bilinear error far above the float version's; planted bugs
# (tests/fixtures/lab10/*.sed) caught and named.
# shellcheck shell=bash disable=SC2154 # tmp, OUT, have_gpu, ...: set by tests/run.sh, which sources this
sol10=$OUT/solution/lab10/lab10
stu10=$OUT/student/lab10/lab10
name="lab10 texture model: the seed's m[5.5][1.5], wrap/clamp/border, 8-bit weights against a measured tex1D table and H100 fetches, ties"
made "$name" "$HOST_OUT/tests/lab10_texture_model" && check "$name" "$HOST_OUT/tests/lab10_texture_model"
# The image check (image_check.h) on synthetic outputs: the same on 1 to 8 threads as in one pass.
made "unit lab10 image check" "$OUT/tests/lab10_image_check" &&
    unit_run "unit lab10 image check" "$OUT/tests/lab10_image_check"

timed_test "gpu: lab10 texture modes (wrap, clamp, border; point, linear; normalised or not) and the staircase match the CPU model" bash -c "
    '$sol10' --modes --dump-fetches --csv '$tmp/modes10' &&
    awk -f tests/judges/columns.awk -f tests/judges/lab10-modes.awk '$tmp/modes10/modes.csv' &&
    awk -f tests/judges/lab10-fetches.awk '$tmp/modes10/modes.csv' '$tmp/modes10/fetches.csv' &&
    awk -f tests/judges/columns.awk -f tests/judges/lab10-staircase.awk '$tmp/modes10/staircase.csv'"
gpu_test "gpu: lab10 solution verified: modes, every variant at awkward sizes and the default size" "$sol10" --check
gpu_test "gpu: lab10 solution verified on 301x301 images, seed 99" "$sol10" --check --n 301 --seed 99 --only \
    chase_readonly,zoom_texture,zoom_global,rotate_texture,rotate_global
timed_test "gpu: lab10 student file runs, TODO variants report not_implemented" bash -c "
    '$stu10' --quick --n 256 --steps 256 --csv '$tmp/student10' &&
    grep -q '^10,chase_constant,32,.*,ok,' '$tmp/student10/constant.csv' &&
    grep -q '^10,chase_readonly,.*,not_implemented,' '$tmp/student10/constant.csv' &&
    grep -q '^10,zoom_texture,137,.*,ok,' '$tmp/student10/zoom.csv' &&
    grep -q '^10,zoom_global,.*,not_implemented,' '$tmp/student10/zoom.csv' &&
    grep -q '^10,rotate_texture,.*,not_implemented,' '$tmp/student10/rotate.csv' &&
    grep -q '^10,rotate_global,.*,not_implemented,' '$tmp/student10/rotate.csv'"
timed_test "gpu: lab10 chase_constant at k 32 within 15% of the model (32x k 1); the read-only path under half that slowdown" bash -c "
    '$sol10' --quick --only chase_constant,chase_global,chase_readonly --csv '$tmp/chase10' >/dev/null &&
    awk -f tests/judges/columns.awk -f tests/judges/lab10-chase.awk '$tmp/chase10/constant.csv'"
timed_test "gpu: lab10 zoom 137%: the texture's error against exact weights at least 100x the float version's" bash -c "
    '$sol10' --quick --only zoom_texture,zoom_global --csv '$tmp/zoom10' >/dev/null &&
    awk -f tests/judges/columns.awk -f tests/judges/lab10-zoom.awk '$tmp/zoom10/zoom.csv'"

fixture_checks 10 --n 67
