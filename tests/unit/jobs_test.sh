#!/usr/bin/env bash
# tests/unit/jobs_test.sh - tests/jobs.sh on stand-in sections (no GPU, no build; about 2 s),
# one line each "unit NAME: OK" or "unit NAME: FAIL (why)"; tests/run.sh reads them.
#   - run_sections prints the sections in the order they were declared, with their counts
#     summed, when a later one ends first; a failing section's FAIL lines and log are kept;
#     a section past SECTION_TIMEOUT is stopped, with what it started, and counted as failed
# (The GPU lock that jobs.sh's gpu_shared and gpu_exclusive take: tests/unit/test_gpu_lock.py.)
# shellcheck disable=SC2031 # each section counts in a subshell; its counts return in a file
set -u
unset SECTIONS PROGRESS_EVERY # the caller's (make test SECTIONS=...) are not these tests' own
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
result() { # NAME OK? WHY
    if [ "$2" -eq 0 ]; then echo "unit $1: OK"; else echo "unit $1: FAIL ($3)"; bad=1; fi
}

# ---- the sections ------------------------------------------------------------------------------
. tests/jobs.sh

# The stand-in sections (shellcheck does not see that run_sections calls them).
# shellcheck disable=SC2317 # called through section
slow() { sleep 0.6; pass "slow test"; [ -d "$tmp" ] && touch "$tmp/own-tmp"; }
# shellcheck disable=SC2317 # called through section
fast() {
    echo "why it failed" >"$tmp/log" # this section's $tmp
    fail "fast test" "$tmp/log" "exit 1"
    pass "fast ok"
    skip "fast skipped" "no reason"
}
# shellcheck disable=SC2317 # called through section
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
exit $bad
