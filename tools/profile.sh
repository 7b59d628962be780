#!/bin/sh
# profile.sh N PROGRAM [DIR] - `make profile-labN`: lab N's key counters under Nsight Compute.
# Runs PROGRAM (a build of lab N) once per variant, `PROGRAM ARGS --only VARIANT`, through
# tools/ncu-counters.sh, at the one size that tools/lab-tools.table gives the lab, profiling
# only the lab's kernels (the table names them) with the lab's metrics, and writes
#   DIR/profile.txt             per variant and kernel: launch shapes (or points) and figures
#   DIR/profile/VARIANT.csv     every profiled launch (tools/ncu-counters.sh's tidy CSV)
#   DIR/profile/VARIANT.log     the program's output and ncu's
# DIR defaults to results/labN. profile.txt is also printed.
# Exit 0 when every variant was profiled (or is not implemented yet); 1 when a run failed or
# profiled nothing; 2 on bad usage; 3 without ncu or without a GPU; 4 when GPU performance
# counters are not permitted (ERR_NVGPUCTRPERM); each of 2-4 with one line.
# Knobs: ONLY=A,B (these variants), NCU=path (the ncu binary), NCU_EXTRA (more ncu options).
#   tools/profile.sh 1 build/sm_90/student/lab1/lab1
set -u
tools=$(dirname "$0")
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 LAB PROGRAM [DIR]" >&2
    exit 2
fi
lab=$1 prog=$2 dir=${3:-results/lab$1}
table() { awk -f "$tools/lab-table.awk" -v lab="$lab" -v want="$1" "$tools/lab-tools.table"; }
if ! args=$(table profile_args) || ! kernels=$(table kernels) || ! metrics=$(table ncu_metrics) ||
    ! figures=$(table figures); then
    echo "profile: lab $lab has no row in tools/lab-tools.table" >&2
    exit 2
fi

# ncu: NCU, else on the PATH, else beside nvcc (the CUDA toolkit's bin/)
ncu=${NCU:-$(command -v ncu || echo "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/ncu")}
if ! command -v "$ncu" >/dev/null 2>&1; then
    where="ncu on the PATH or beside nvcc"
    [ -n "${NCU:-}" ] && where=$NCU
    echo "profile: Nsight Compute not found ($where): it comes with the CUDA toolkit (NCU=/path/to/ncu names it); nothing profiled"
    exit 3
fi
if [ -n "${ONLY:-}" ]; then
    variants=$(echo "$ONLY" | tr ',' ' ')
elif ! variants=$("$prog" --list 2>/dev/null | awk '{ print $1 }') || [ -z "$variants" ]; then
    echo "profile: $prog --list named no variants: build the lab first (make lab$lab-build)" >&2
    exit 2
fi
marker=
case "|$kernels|" in *"|profile_marker|"*) marker=profile_marker ;; esac

mkdir -p "$dir/profile"
rm -f "$dir/profile.txt"
body=$dir/profile/summary.tmp
: >"$body"
failed=0 gpu=
for v in $variants; do
    csv=$dir/profile/$v.csv log=$dir/profile/$v.log
    # shellcheck disable=SC2086 # ARGS is a list of options
    said=$(NCU=$ncu NCU_EXTRA="--kernel-name regex:$kernels ${NCU_EXTRA:-}" MARKER=$marker \
        sh "$tools/ncu-counters.sh" "$csv" "$metrics" -- "$prog" $args --only "$v")
    if echo "$said" | grep -q ERR_NVGPUCTRPERM; then
        echo "profile: GPU performance counters are not permitted for this user (ERR_NVGPUCTRPERM): an admin can allow them with 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/ and a reboot (or reloading the nvidia module), or run this as root"
        rm -f "$body"
        exit 4
    fi
    [ -n "$gpu" ] || gpu=$(sed -n "s/^lab$lab on \(.*\)/\1/p" "$log" 2>/dev/null | head -n 1)
    if [ -f "$csv" ]; then
        awk -f "$tools/profile-summary.awk" -v variant="$v" -v figures="$figures" "$csv" >>"$body"
        case $said in *"run failed"*)
            echo "  the program failed under ncu (${said##*failed }: see $log)" >>"$body"
            failed=1 ;;
        esac
    elif grep -q 'no CUDA GPU found' "$log" 2>/dev/null; then
        echo "profile: $(grep -m 1 'no CUDA GPU found' "$log")"
        rm -f "$body"
        exit 3
    elif grep -Eq "^$v[[:space:]]+not[ _]implemented" "$log" 2>/dev/null; then
        printf '%s\n  not implemented yet: nothing to profile\n' "$v" >>"$body"
    else
        printf '%s\n  nothing profiled: %s\n' "$v" "${said#counters: }" >>"$body"
        failed=1
    fi
    echo >>"$body"
done
version=$("$ncu" --version 2>/dev/null | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -n 1)
{
    echo "lab $lab profile: Nsight Compute ${version:-(version unknown)} on ${gpu:-an unnamed GPU}"
    echo "each variant run as: $prog $args --only VARIANT"
    echo "kernels profiled: $kernels; every launch in $dir/profile/VARIANT.csv"
    echo
    cat "$body"
} >"$dir/profile.txt"
rm -f "$body"
cat "$dir/profile.txt"
exit $failed
