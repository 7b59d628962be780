#!/usr/bin/env bash
# tests/unit/jobs_test.sh - tests/jobs.sh on stand-in sections (no GPU, no build; about 2 s),
# one line each "unit NAME: OK" or "unit NAME: FAIL (why)"; tests/run.sh reads them.
#   - run_sections prints the sections in the order they were declared, with their counts
#     summed, when a later one ends first; a failing section's FAIL lines and log are kept;
#     a section past SECTION_TIMEOUT is stopped, with what it started, and counted as failed
#   - the GPU lock: two exclusive holds never overlap, an exclusive one never overlaps a
#     shared one, and two shared ones do; a timed run waiting for the lock is not overtaken
set -u
unset SECTIONS PROGRESS_EVERY # the caller's (make test SECTIONS=...) are not these tests' own
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
result() { # NAME OK? WHY
    if [ "$2" -eq 0 ]; then echo "unit $1: OK"; else echo "unit $1: FAIL ($3)"; bad=1; fi
}

# ---- the sections ------------------------------------------------------------------------------
. tests/jobs.sh

slow() { sleep 0.6; pass "slow test"; [ -d "$tmp" ] && touch "$tmp/own-tmp"; }
fast() {
    echo "why it failed" >"$tmp/log" # this section's $tmp
    fail "fast test" "$tmp/log" "exit 1"
    pass "fast ok"
    skip "fast skipped" "no reason"
}
hang() {
    sleep 30 &
    echo $! >"$1"
    sleep 30
    pass "hang never gets here"
}
section "slow" slow
section "fast" fast
section "hang" hang "$tmp/hang.pid"
section "last" pass "last test"
passed=0 failed=0 skipped=0
unset SECTION_TIMES
JOBS=4 FIRST_SECTIONS="fast" SECTION_TIMEOUT=1 run_sections >"$tmp/out" 2>&1
cat >"$tmp/expected" <<'EOF'
slow test: OK
fast test: FAIL (exit 1)
    | why it failed
fast ok: OK
fast skipped: SKIP (no reason)
section hang: runs to its end: FAIL (stopped after 1 s (SECTION_TIMEOUT))
last test: OK
EOF
diff "$tmp/expected" "$tmp/out" >"$tmp/diff"
result "jobs: sections print in their declared order, a later one ending first; FAIL lines and logs kept" $? \
    "$(tr '\n' ' ' <"$tmp/diff")"
[ "$passed $failed $skipped" = "3 2 1" ]
result "jobs: the sections' counts are summed" $? "$passed passed, $failed failed, $skipped skipped, expected 3 2 1"
# A progress line while nothing is printed: the first section takes 2.5 s, PROGRESS_EVERY=1.
sec_names=() sec_cmds=()
section "long" bash -c 'sleep 2.5; echo "long test: OK"'
section "short" pass "short test"
JOBS=2 PROGRESS_EVERY=1 run_sections >"$tmp/progress" 2>&1
grep -q '^\.\.\. [0-9]*s: 1 of 2 sections done, 0 printed; running: long ([0-9]s)$' "$tmp/progress" &&
    [ "$(tail -n 2 "$tmp/progress")" = "$(printf 'long test: OK\nshort test: OK')" ]
result "jobs: a progress line, each PROGRESS_EVERY seconds that nothing is printed, names the sections running" $? \
    "$(tr '\n' '|' <"$tmp/progress")"
JOBS=2 run_sections >"$tmp/progress" 2>&1
! grep -q '^\.\.\. ' "$tmp/progress"
result "jobs: no progress line before 30 s without one" $? "$(tr '\n' '|' <"$tmp/progress")"
running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; } # (a zombie has ended)
for _ in $(seq 20); do running "$(cat "$tmp/hang.pid")" || break; sleep 0.05; done
! running "$(cat "$tmp/hang.pid")"
result "jobs: a section past SECTION_TIMEOUT is stopped with what it started" $? "its sleep is still running"
sections=$(ls -d "$tmp"/sections/*.tmp 2>/dev/null | wc -l)
[ "$sections" -eq 4 ] && [ -e "$tmp/sections/0.tmp/own-tmp" ]
result "jobs: each section has a tmp of its own" $? "$sections section folders"

# ---- the GPU lock ------------------------------------------------------------------------------
# overlap FIRST SECOND: FIRST holds the lock (gpu_shared or gpu_exclusive) for 0.5 s, and
# notes whether the holder SECOND got in meanwhile; SECOND starts once FIRST holds it.
export MEMLAB_GPU_LOCK=$tmp/gpu.lock
: >"$MEMLAB_GPU_LOCK"
overlap() {
    local d=$tmp/lock-$1-$2
    mkdir -p "$d"
    $1 bash -c "touch '$d/held'; for i in 1 2 3 4 5 6 7 8 9 10; do [ -e '$d/in2' ] && touch '$d/overlap' && break; sleep 0.05; done" &
    while [ ! -e "$d/held" ]; do sleep 0.01; done
    $2 touch "$d/in2"
    wait
    [ -e "$d/overlap" ]
}
! overlap gpu_exclusive gpu_exclusive
result "gpu lock: two exclusive holds never overlap" $? "the second got the lock while the first held it"
! overlap gpu_exclusive gpu_shared && ! overlap gpu_shared gpu_exclusive
result "gpu lock: an exclusive hold never overlaps a shared one" $? "they held the lock together"
overlap gpu_shared gpu_shared
result "gpu lock: two shared holds overlap" $? "the second waited for the first"
# A check asked for while a timed run waits (behind a check) comes after the timed run.
d=$tmp/lock-queue
mkdir -p "$d"
gpu_shared bash -c "touch '$d/held'; sleep 0.6" &
while [ ! -e "$d/held" ]; do sleep 0.01; done
gpu_exclusive bash -c "sleep 0.1; touch '$d/timed'" &
queued=1
for _ in $(seq 50); do flock -n -x "$MEMLAB_GPU_LOCK.queue" true || { queued=0; break; }; sleep 0.01; done
gpu_shared bash -c "[ -e '$d/timed' ]"
after=$?
wait
[ $queued -eq 0 ] && [ $after -eq 0 ]
result "gpu lock: a check asked for while a timed run waits comes after it" $? \
    "$([ $queued -eq 0 ] && echo "it went ahead of the timed run" || echo "the timed run did not queue")"
# Timed runs go in a batch: a check asked for while one runs waits for a timed run asked for
# after it.
d=$tmp/lock-batch
mkdir -p "$d"
gpu_exclusive bash -c "touch '$d/held'; sleep 0.6" &
while [ ! -e "$d/held" ]; do sleep 0.01; done
gpu_shared bash -c "echo check >>'$d/order'" &
sleep 0.2
gpu_exclusive bash -c "echo timed >>'$d/order'" &
wait
[ "$(tr '\n' ' ' <"$d/order")" = "timed check " ]
result "gpu lock: a timed run asked for during another goes before the checks that wait" $? \
    "order: $(tr '\n' ' ' <"$d/order")"
# A check that holds the GPU past MEMLAB_GPU_PATIENCE (a hang until its time limit) does not
# hold up the other checks: the timed run waiting for it steps back, and runs once it ends.
d=$tmp/lock-patience
mkdir -p "$d"
export MEMLAB_GPU_PATIENCE=0.2
gpu_shared bash -c "touch '$d/long'; sleep 1.5; touch '$d/long-done'" &
while [ ! -e "$d/long" ]; do sleep 0.01; done
gpu_exclusive bash -c "[ -e '$d/long-done' ] && touch '$d/timed-after'" &
sleep 0.6
gpu_shared bash -c "[ ! -e '$d/long-done' ] && touch '$d/check-meanwhile'"
wait
unset MEMLAB_GPU_PATIENCE
[ -e "$d/check-meanwhile" ] && [ -e "$d/timed-after" ] && [ -z "$(ls "$MEMLAB_GPU_LOCK.holders")" ]
result "gpu lock: a check past MEMLAB_GPU_PATIENCE holds up no other check; the timed run comes after it" $? \
    "$([ -e "$d/check-meanwhile" ] || echo "the other check waited for the long one; ")$([ -e "$d/timed-after" ] || echo "the timed run overlapped it; ")$(ls "$MEMLAB_GPU_LOCK.holders" | head -3)"
before=$(date +%s)
MEMLAB_GPU_LOCK_LOG=$tmp/hold.log gpu_exclusive sleep 0.2 && MEMLAB_GPU_LOCK_LOG=$tmp/hold.log gpu_shared bash -c "
    true"
awk -v t="$before" 'NR == 1 && $1 == "exclusive" && $2 >= 0 && $3 >= 0.2 && $4 >= t && $4 < t + 30 && $5 " " $6 == "sleep 0.2" { ok++ }
     NR == 2 && $1 == "shared" && $4 >= t && $0 ~ / bash -c +true$/ { ok++ } END { exit !(ok == 2 && NR == 2) }' "$tmp/hold.log"
result "gpu lock: MEMLAB_GPU_LOCK_LOG gets a line per hold: mode, seconds waited and held, when, command" $? "$(cat "$tmp/hold.log")"
unset MEMLAB_GPU_LOCK
gpu_exclusive true
result "gpu lock: without MEMLAB_GPU_LOCK the command just runs" $? "exit $?"
exit $bad
