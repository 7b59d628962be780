#!/bin/sh
# sandbox-init.sh - pid 1 of one sandboxed run of a lab program. grading/sandbox.py runs it
# inside fresh namespaces:
#
#   unshare [--user --map-root-user] --pid --fork --kill-child --mount-proc --mount --net \
#       --ipc --uts -- /bin/sh grading/sandbox-init.sh OPTIONS -- PROGRAM ARGS
#
# In the run's own mount namespace it builds a root on an empty tmpfs: the system folders a
# CUDA program needs bound read-only, a /dev of a few device nodes (and every /dev/nvidia*),
# a fresh /proc and /sys, private /tmp and /dev/shm, the program read-only and its folder
# (the only writable place of the host's) at their own paths, the grader's paths (-H) under
# empty tmpfs where a bound folder holds them. It pivots into that root, forgets the old one,
# and runs the program as its child with no privilege left (as root: setpriv to -u UID:GID;
# in a user namespace: no capability, none to regain, no_new_privs). When the program ends,
# so does this shell, and with pid 1 the kernel kills whatever is left in the namespace.
#
# Options: -s STATUS (a file: "ready" once the sandbox stands, "exit N" once the program
# ended; the program never sees it), -r NEWROOT (an empty folder), -c CWD, -b PROGRAM, -u UID:GID,
# -B DIR (bound read-only too, repeatable: LD_LIBRARY_PATH), -H PATH (hidden, repeatable),
# -p PATH (where mount, findmnt, pivot_root, setpriv, prlimit are), -z SIZE (of /tmp and
# /dev/shm), -n N (RLIMIT_NPROC of the program: set in here, in a user namespace it counts
# the namespace's processes, not every one of the user's).
# The program's own PATH is this shell's on entry. Exit 125 and a line on stderr where the
# sandbox cannot be made: the program is then never started.
# "a && b || die": die where any step fails
# shellcheck disable=SC2015
set -u
prog_path=${PATH:-/usr/bin:/bin}
status=/dev/null new='' cwd='' bin='' runas='' binds='' hides='' size=1g nproc=
nl='
'
old_ifs=$IFS
while getopts s:r:c:b:u:B:H:p:z:n: opt; do
    case $opt in
    s) status=$OPTARG ;;
    r) new=$OPTARG ;;
    c) cwd=$OPTARG ;;
    b) bin=$OPTARG ;;
    u) runas=$OPTARG ;;
    B) binds=$binds$OPTARG$nl ;;
    H) hides=$hides$OPTARG$nl ;;
    p) PATH=$OPTARG ;;
    z) size=$OPTARG ;;
    n) nproc=$OPTARG ;;
    *) echo "memlab-sandbox: bad option" >&2; exit 125 ;;
    esac
done
shift $((OPTIND - 1))
exec 3>>"$status" || exit 125

die() {
    echo "memlab-sandbox: $*" >&2
    echo "fail $*" >&3
    exit 125
}
[ $# -gt 0 ] && [ -d "$new" ] && [ -d "$cwd" ] && [ -f "$bin" ] || die "usage: bad arguments"
setpriv=$(command -v setpriv) || die "no setpriv"
limit=''
if [ -n "$nproc" ]; then
    limit=$(command -v prlimit) || die "no prlimit"
fi

bound=''      # host folders shown here (bound, or links to bound ones), /sys and /proc
ours=''       # tmpfs of ours over parts of them (paths inside the new root)
longest() {   # longest PATH LIST: $best, the length of LIST's longest entry that holds PATH
    best=0
    for e in $2; do
        case $1 in "$e" | "$e"/*) [ ${#e} -gt "$best" ] && best=${#e} ;; esac
    done
    return 0
}
shown() {     # shown PATH: the host's PATH is in sight here (a bound folder, none of ours over it)
    longest "$1" "$bound"
    b=$best
    longest "$1" "$ours"
    [ "$b" -gt "$best" ]
}
tmpfs() {     # tmpfs PATH OPTIONS: a tmpfs of ours at PATH of the new root
    mount -t tmpfs -o "$2" memlab "$new$1" || die "cannot mount a tmpfs on $1"
    ours=$ours$1$nl
}
bind() {      # bind --bind|--rbind HOSTPATH: shown read-only at its own path (where a user
    # namespace refuses ro with the bind, the bind alone: the last pass makes it read-only)
    mount "$1" -o ro "$2" "$new$2" 2>/dev/null || mount "$1" "$2" "$new$2" || die "cannot bind $2"
}

# Paths are split on newlines only, never globbed, from here on (but for /dev/nvidia*).
IFS=$nl
points=./tmp$nl./dev/shm$nl./proc$nl./sys$nl./run$nl./.old$nl  # the folders of the new root
links='' system='' nodes='' files='' dirs=''
for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc /opt /run/nvidia-persistenced; do
    if [ -L "$d" ]; then  # /bin -> usr/bin: the same link here
        links=$links$d$nl
        bound=$bound$d$nl
    elif [ -d "$d" ]; then
        system=$system$d$nl
        points=$points.$d$nl
    fi
done
run_link=''
if [ -L /var/run ] && [ -d /run/nvidia-persistenced ]; then  # where libcuda looks for its socket
    run_link=/var/run
    points=$points./var$nl
fi
for d in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /dev/nvidia*; do
    if [ -c "$d" ]; then
        nodes=$nodes$d$nl
        files=$files.$d$nl  # ./dev/null: its mount point, in the new root
    elif [ -d "$d" ]; then  # /dev/nvidia-caps
        dirs=$dirs$d$nl
        points=$points.$d$nl
    fi
done
set -f
mount -t tmpfs -o mode=755,nosuid,nodev,size=1m memlab "$new" || die "cannot mount a tmpfs on $new"
# shellcheck disable=SC2086  # one path a line
cd "$new" && mkdir -p $points && touch $files && { [ -z "$links" ] || cp -P $links "$new/"; } &&
    { [ -z "$run_link" ] || cp -P $run_link var/; } || die "cannot make the new root's folders"
cp -P /dev/fd /dev/stdin /dev/stdout /dev/stderr dev/ 2>/dev/null || {
    ln -sfn /proc/self/fd dev/fd && ln -sf /proc/self/fd/0 dev/stdin && ln -sf /proc/self/fd/1 dev/stdout &&
        ln -sf /proc/self/fd/2 dev/stderr
} || die "cannot make /dev's links"
tmpfs /tmp "mode=1777,nosuid,nodev,size=$size"
tmpfs /dev/shm "mode=1777,nosuid,nodev,size=$size"
for d in $nodes; do mount --bind "$d" "$new$d" || die "cannot bind $d"; done  # (read-write)
for d in $dirs; do mount --rbind "$d" "$new$d" || die "cannot bind $d"; done
for d in $system; do
    bind --rbind "$d"
    bound=$bound$d$nl
done
for d in $binds; do  # LD_LIBRARY_PATH's folders that no bound folder shows
    if ! shown "$d" && [ -d "$d" ]; then
        mkdir -p "$new$d" || die "cannot make $d"
        bind --rbind "$d"
        bound=$bound$d$nl
    fi
done
# sysfs of this network namespace (its own /sys/class/net), else the host's
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$new/sys" 2>/dev/null || bind --rbind /sys
mount -t proc -o nosuid,nodev,noexec proc "$new/proc" || die "cannot mount /proc"
bound=$bound/sys$nl/proc$nl

# what the grader keeps away from the program: where a bound folder shows it, an empty tmpfs
for h in $hides; do
    if [ "$h" != / ] && shown "$h" && [ -d "$new$h" ]; then
        tmpfs "$h" mode=755,nosuid,nodev,size=1m
    fi
done
# the run's folder, and the program where no bound folder shows it, at their own paths; a
# parent that a bound folder shows gets a tmpfs of ours first (what the host has beside them)
placed=$cwd
shown "$bin" || placed=$placed$nl$bin
for p in $placed; do
    parent=${p%/*}
    if shown "${parent:-/}"; then
        tmpfs "$parent" mode=755,nosuid,nodev,size=1m
    fi
done
mkdir -p "$new$cwd" "$new${bin%/*}" && { shown "$bin" || touch "$new$bin"; } &&
    mount --bind "$cwd" "$new$cwd" || die "cannot bind the run's folder"
shown "$bin" || bind --bind "$bin"

# Every mount read-only but /tmp, /dev/shm, /proc, the device nodes and the run's folder
# (with their other flags: a user namespace may not drop nosuid, nodev, noexec or atime flags).
list=$(findmnt -n -l -R -o VFS-OPTIONS,TARGET -M "$new") || die "findmnt failed"
printf '%s\n' "$list" | {
    while IFS=' ' read -r opts target; do
        case $opts in ro | ro,*) continue ;; esac
        case $target in "$new/tmp" | "$new/dev/shm" | "$new/proc" | "$new$cwd") continue ;; esac
        case $nl$nodes in *"$nl${target#"$new"}$nl"*) continue ;; esac
        mount -o "remount,bind,ro${opts#rw}" "$target" || exit 1
    done
} || die "cannot make the tree read-only"

pivot_root . .old || die "pivot_root failed"
cd / && umount -l /.old || die "cannot leave the old root"
IFS=$old_ifs
set +f
cd "$cwd" || die "cannot enter the run's folder"
if [ -z "$runas" ]; then  # in a user namespace of its own: no nested one (their count here is per namespace)
    echo 0 >/proc/sys/user/max_user_namespaces || die "cannot forbid nested user namespaces"
fi

echo ready >&3
if [ -n "$runas" ]; then
    set -- --reuid="${runas%:*}" --regid="${runas#*:}" --clear-groups -- "$@"
else  # uid 0 of a user namespace: no capability now, none at exec (noroot), none to regain
    set -- --securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked -- "$@"
fi
set -- "$setpriv" --no-new-privs --bounding-set=-all --inh-caps=-all "$@"
[ -z "$nproc" ] || set -- "$limit" --nproc="$nproc:$nproc" -- "$@"
PATH=$prog_path "$@" 3>&- &
wait $!
rc=$?
echo "exit $rc" >&3
exit $rc
