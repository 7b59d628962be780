# tests/jobs.sh - tests/run.sh's sections, side by side; sourced by run.sh, and the
# helpers pass/fail/skip that count what a section's tests give (passed/failed/skipped).
#
#   section NAME COMMAND...   declare a section: COMMAND (a shell function, or `. FILE`) runs
#                             in a background subshell of its own, with its own $tmp, its
#                             output in a file and its counts written to a file at its end
#   run_sections              run every declared section, at most $JOBS at once (default: one
#                             per core; JOBS=1 runs them one after another), those named in
#                             $FIRST_SECTIONS first; print each one's output in the order they
#                             were declared, as soon as it and all before it are done, and add
#                             its counts to passed/failed/skipped
#
# While sections run, a line "... TIME: D of N sections done, P printed; running: NAME (TIME), ..."
# whenever nothing was printed for $PROGRESS_EVERY seconds (default 30): a long section, printed
# in its place, would otherwise hide for minutes that the others have ended (TIME: since the
# shell began, $SECONDS, then each section's own).
# SECTIONS=REGEX (bash's =~) declares only the sections whose names match, for the edit loop:
# SECTIONS='make help|make dist' make test LABS=1.
# A section still running after $SECTION_TIMEOUT seconds (default 3600) is stopped (its
# process group) and counted as a failure. Each section runs in a process group of its own,
# so that an interrupted run.sh stops them all. SECTION_TIMES=FILE: each section's seconds
# and name are added to FILE (to choose FIRST_SECTIONS on a machine).
#
# The GPU lock (grading/gpu_lock.py: the one implementation, the grader's too, and how it
# works): a timed run must have the GPU to itself, while checks, sanitizer runs and builds may
# share it. run.sh exports MEMLAB_GPU_LOCK (a file); the grader takes the same lock around its
# runs.
#   gpu_shared COMMAND...     COMMAND holding the lock shared (correctness: --check, sanitizer)
#   gpu_exclusive COMMAND...  COMMAND holding it alone (anything timed: a run without --check, ncu)
# COMMAND is a program (gpu_lock.py runs it), not a shell function. Without MEMLAB_GPU_LOCK it
# just runs. Never nest them, nor wrap a grader run (it takes the lock itself): a second hold
# of the lock waits for the first. MEMLAB_GPU_PATIENCE and MEMLAB_GPU_LOCK_LOG: see gpu_lock.py.
# shellcheck shell=bash disable=SC2030,SC2031 # each section counts in a subshell; its counts return in a file
# (python3 -S: the lock needs nothing beyond the standard library, and starts sooner.)
gpu_lock_py=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/grading/gpu_lock.py
gpu_shared() { python3 -S "$gpu_lock_py" shared "$@"; }
gpu_exclusive() { python3 -S "$gpu_lock_py" exclusive "$@"; }

# The tests' verdicts, one line each, counted in the section that prints them:
# pass NAME, fail NAME [LOG [WHY]] (the log's last lines, indented), skip NAME WHY.
pass() { echo "$1: OK"; passed=$((passed + 1)); }
fail() {
    echo "$1: FAIL${3:+ ($3)}"
    [ -n "${2:-}" ] && [ -s "$2" ] && tail -n 15 "$2" | sed 's/^/    | /'
    failed=$((failed + 1))
}
skip() { echo "$1: SKIP ($2)"; skipped=$((skipped + 1)); }

sec_names=() sec_cmds=()
section() {
    [ -z "${SECTIONS:-}" ] || [[ $1 =~ $SECTIONS ]] || return 0 # SECTIONS=REGEX: only those
    sec_names+=("$1")
    shift
    sec_cmds+=("$(printf '%q ' "$@")")
}

# section_start I DIR: section I in the background, its files DIR/I.{out,counts} and DIR/I.tmp/.
section_start() {
    local i=$1 dir=$2
    mkdir -p "$dir/$i.tmp"
    set -m # a process group of its own: section_stop reaches everything it started
    (
        tmp=$dir/$i.tmp passed=0 failed=0 skipped=0
        eval "${sec_cmds[$i]}"
        echo "$passed $failed $skipped" >"$dir/$i.counts.new" && mv "$dir/$i.counts.new" "$dir/$i.counts"
    ) </dev/null >"$dir/$i.out" 2>&1 &
    sec_pid[i]=$! sec_start[i]=$now
    set +m
}
section_stop() { kill -TERM -- "-$1" 2>/dev/null; }
clock() { local t=${EPOCHREALTIME:-$SECONDS.000000}; now=${t//[!0-9]/}; } # now: microseconds
duration() { if [ "$1" -ge 60 ]; then printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); else printf '%ds' "$1"; fi; }

# progress_line NEXT: the sections done and running (run_sections' arrays), NEXT of them printed.
progress_line() {
    local i done=0 running=
    for i in "${!sec_names[@]}"; do
        if [ -n "${sec_end[$i]:-}" ]; then
            done=$((done + 1))
        elif [ -n "${sec_pid[$i]:-}" ]; then
            running="$running, ${sec_names[$i]} ($(duration $(((now - sec_start[i]) / 1000000))))"
        fi
    done
    echo "... $(duration "$SECONDS"): $done of ${#sec_names[@]} sections done, $1 printed; running: ${running#, }"
}

# section_report I DIR: the section's output and counts, added to this shell's.
section_report() {
    local i=$1 dir=$2 p f s
    cat "$dir/$i.out"
    if [ -f "$dir/$i.counts" ] && read -r p f s <"$dir/$i.counts"; then
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
    else
        fail "section ${sec_names[$i]}: runs to its end" "" "${sec_why[$i]:-it stopped without its counts}"
    fi
    [ -z "${SECTION_TIMES:-}" ] ||
        printf '%d\t%s\n' $(((sec_end[i] - sec_start[i]) / 1000000)) "${sec_names[$i]}" >>"$SECTION_TIMES"
}

# The order to start them in: FIRST_SECTIONS's names (a |-separated list) first, then the
# others as declared; as declared with one job at a time.
section_order() {
    local i name
    if [ "$1" -gt 1 ]; then
        while IFS= read -r -d '|' name; do
            for i in "${!sec_names[@]}"; do [ "${sec_names[$i]}" = "$name" ] && echo "$i"; done
        done <<<"${FIRST_SECTIONS:-}|"
    fi
    seq 0 $((${#sec_names[@]} - 1))
}

run_sections() {
    local jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)} limit=${SECTION_TIMEOUT:-3600}
    local dir=$tmp/sections next=0 i running now said every=$((${PROGRESS_EVERY:-30} * 1000000))
    local -a queue=() started=()
    sec_pid=() sec_start=() sec_end=() sec_why=()
    mkdir -p "$dir"
    clock
    said=$now
    for i in $(section_order "$jobs"); do
        [ -z "${started[$i]:-}" ] && queue+=("$i") && started[i]=1
    done
    trap 'for p in "${sec_pid[@]}"; do [ -n "$p" ] && section_stop "$p"; done; wait; exit 130' INT TERM
    while [ $next -lt ${#sec_names[@]} ]; do
        running=0
        clock
        for i in "${!sec_pid[@]}"; do
            [ -n "${sec_pid[$i]}" ] || continue
            if ! kill -0 "${sec_pid[$i]}" 2>/dev/null; then
                wait "${sec_pid[$i]}" 2>/dev/null
                sec_pid[i]='' sec_end[i]=$now
            elif [ $((now - sec_start[i])) -gt $((limit * 1000000)) ]; then
                section_stop "${sec_pid[$i]}"
                sec_why[i]="stopped after $limit s (SECTION_TIMEOUT)"
                wait "${sec_pid[$i]}" 2>/dev/null
                rm -f "$dir/$i.counts"
                sec_pid[i]='' sec_end[i]=$now
            else
                running=$((running + 1))
            fi
        done
        while [ ${#queue[@]} -gt 0 ] && [ $running -lt "$jobs" ]; do
            section_start "${queue[0]}" "$dir"
            queue=("${queue[@]:1}")
            running=$((running + 1))
        done
        while [ $next -lt ${#sec_names[@]} ] && [ -n "${sec_start[$next]:-}" ] && [ -z "${sec_pid[$next]}" ]; do
            section_report "$next" "$dir"
            next=$((next + 1)) said=$now
        done
        if [ $((now - said)) -ge $every ] && [ $next -lt ${#sec_names[@]} ]; then
            progress_line "$next"
            said=$now
        fi
        [ $next -lt ${#sec_names[@]} ] && sleep 0.1
    done
    trap - INT TERM
}
