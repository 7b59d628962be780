#!/bin/sh
# local-slurm.sh - a single-node Slurm cluster in a folder of its own, for testing and for
# measuring grading/grade-all --slurm on one machine. Needs root and Debian's slurm-wlm and
# munge (apt-get install slurm-wlm munge); touches nothing outside DIR (its own munge key,
# socket, state and logs; free ports), so it runs beside a real cluster's daemons.
#
#   tools/maint/local-slurm.sh start DIR   start munged, slurmctld and slurmd; wait for the node
#   tools/maint/local-slurm.sh stop DIR    stop the daemons it started (their PIDs, DIR/pids)
#
# Clients find the cluster with SLURM_CONF=DIR/slurm.conf. The node has every CPU of the
# machine (proctrack/linuxproc, task/none, no cgroups, no accounting) in partition "debug".
# `start` exits 1 with one line saying why when it cannot start one.
set -eu
action=${1:-} dir=${2:-}
case $action in start | stop) ;; *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;; esac
[ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

stop() {
    [ -f "$dir/pids" ] || return 0
    # slurmd first, the controller, then munged (which both use until they exit)
    for pid in $(tac "$dir/pids"); do kill "$pid" 2>/dev/null || true; done
    for pid in $(tac "$dir/pids"); do
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -f "$dir/pids"
}
if [ "$action" = stop ]; then stop; exit 0; fi

die() { echo "local-slurm: $*" >&2; stop; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "local-slurm: needs root (munged, slurmctld and slurmd run as root here)" >&2; exit 1; }
for c in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v $c >/dev/null 2>&1 || { echo "local-slurm: $c not found (apt-get install slurm-wlm munge)" >&2; exit 1; }
done
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
dir=$(cd "$dir" && pwd)
chmod 700 "$dir" "$dir/munge"
dd if=/dev/urandom of="$dir/munge/key" bs=1024 count=1 2>/dev/null
chmod 600 "$dir/munge/key"
# Two free TCP ports for the controller and the node daemon.
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
# shellcheck disable=SC2086 # the two port numbers, one argument each
set -- $ports
host=$(hostname -s)
cat >"$dir/slurm.conf" <<EOF
ClusterName=memlab-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
: >"$dir/pids"
munged --foreground --force --socket="$dir/munge/socket" --key-file="$dir/munge/key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/seed" >"$dir/munged.out" 2>&1 &
echo $! >>"$dir/pids"
i=0
until [ -S "$dir/munge/socket" ]; do
    i=$((i + 1)); [ $i -le 50 ] || die "munged did not start: $(tail -n 3 "$dir/munged.out" "$dir/munge/munged.log" 2>/dev/null)"
    sleep 0.1
done
slurmctld -D -i -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 &
echo $! >>"$dir/pids"
slurmd -D -f "$dir/slurm.conf" >"$dir/slurmd.out" 2>&1 &
echo $! >>"$dir/pids"
i=0
until sinfo -h -N -o %t 2>/dev/null | grep -q '^idle'; do
    i=$((i + 1))
    [ $i -le 150 ] || die "the node did not come up in 30 s: $(tail -n 3 "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null)"
    sleep 0.2
done
echo "local-slurm: a node of $(nproc) CPUs is up; SLURM_CONF=$dir/slurm.conf"
