#!/bin/sh
# profile.sh N PROGRAM [DIR] - `make profile-labN`: lab N's key counters under Nsight Compute.
# Runs PROGRAM (a build of lab N) once per variant, `PROGRAM ARGS --only VARIANT`, through
# tools/ncu-counters.sh, at the one size that tools/lab-tools.table gives the lab, profiling
# only the lab's kernels (the table names them) with the lab's metrics, and writes
#   DIR/profile.txt             per variant and kernel: launch shapes (or points, with what
#                               the program says each is) and figures (tools/profile-summary.awk)
#   DIR/profile/VARIANT.csv     every profiled launch (tools/ncu-counters.sh's tidy CSV)
#   DIR/profile/VARIANT.log     the program's output and ncu's
# DIR defaults to results/labN. profile.txt is also printed.
# Exit 0 when every variant was profiled (or is not implemented yet); 1 when a run failed or
# profiled nothing; 2 on bad usage; 3 without ncu or without a GPU; 4 when GPU performance
# counters are not permitted (ERR_NVGPUCTRPERM); each of 2-4 with one line.
# Knobs: ONLY=A,B (these variants), NCU=path (the ncu binary), NCU_EXTRA (more ncu options).
#   tools/profile.sh 1 build/sm_90/student/lab1/lab1
set -u
who=profile tools=$(dirname "$0")
# shellcheck source=tools/lab-tool.sh
. "$tools/lab-tool.sh"
tool_args "$@"
args=$(table profile_args) kernels=$(table kernels) metrics=$(table ncu_metrics) figures=$(table figures)
need_tool NCU ncu "Nsight Compute (ncu)"
lab_variants
marker=
case "|$kernels|" in *"|profile_marker|"*) marker=profile_marker ;; esac

start_report
failed=0
for v in $variants; do
    csv=$dir/profile/$v.csv log=$dir/profile/$v.log
    # shellcheck disable=SC2086 # ARGS is a list of options
    said=$(NCU=$tool_path NCU_EXTRA="--kernel-name regex:$kernels ${NCU_EXTRA:-}" MARKER=$marker \
        sh "$tools/ncu-counters.sh" "$csv" "$metrics" -- "$prog" $args --only "$v")
    if echo "$said" | grep -q ERR_NVGPUCTRPERM; then
        echo "profile: GPU performance counters are not permitted for this user (ERR_NVGPUCTRPERM): an admin can allow them with 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/ and a reboot (or reloading the nvidia module), or run this as root"
        rm -f "$body"
        exit 4
    fi
    after_run "$log"
    if [ -f "$csv" ]; then
        awk -f "$tools/profile-summary.awk" -v variant="$v" -v figures="$figures" -v names="$log" "$csv" >>"$body"
        case $said in *"run failed"*)
            echo "  the program failed under ncu (${said##*failed }: see $log)" >>"$body"
            failed=1 ;;
        esac
    elif grep -Eq "^${v}[[:space:]]+not[ _]implemented" "$log" 2>/dev/null; then
        printf '%s\n  not implemented yet: nothing to profile\n' "$v" >>"$body"
    else
        printf '%s\n  nothing profiled: %s\n' "$v" "${said#counters: }" >>"$body"
        failed=1
    fi
    echo >>"$body"
done
finish_report "Nsight Compute" "$prog $args --only VARIANT" \
    "kernels profiled: $kernels; every launch in $dir/profile/VARIANT.csv"
exit $failed
