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
# A run's cost is the tools it starts (a millisecond or more each), so the mounts go in two
# lists that `mount --all --fstab` makes in one process each.
#
# Options: -s STATUS (a file: "ready" once the sandbox stands, "exit N" once the program
# ended; the program never sees it), -f FSTAB (a file for the lists of mounts, out of the
# program's sight), -r NEWROOT (an empty folder), -c CWD, -b PROGRAM (repeatable: the
# program, and a program it runs: a lab program under compute-sanitizer), -u UID:GID, -B DIR
# (bound read-only too, repeatable: LD_LIBRARY_PATH), -H PATH (hidden, repeatable), -p PATH
# (where mount, findmnt, pivot_root, setpriv, prlimit are), -z SIZE (of /tmp and /dev/shm),
# -n N (RLIMIT_NPROC of the program: set in here, in a user namespace it counts the
# namespace's processes, not every one of the user's). The program's own PATH is this shell's
# on entry. Exit 125 and a line on stderr where the sandbox cannot be made: the program is
# then never started.
# "a && b || die": die where any step fails
# shellcheck disable=SC2015
set -u
prog_path=${PATH:-/usr/bin:/bin}
status=/dev/null tab='' new='' cwd='' bins='' runas='' binds='' hides='' size=1g nproc=''
nl='
'
old_ifs=$IFS
while getopts s:f:r:c:b:u:B:H:p:z:n: opt; do
    case $opt in
    s) status=$OPTARG ;;
    f) tab=$OPTARG ;;
    r) new=$OPTARG ;;
    c) cwd=$OPTARG ;;
    b) bins=$bins$OPTARG$nl ;;
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
[ $# -gt 0 ] && [ -n "$tab" ] && [ -d "$new" ] && [ -d "$cwd" ] && [ -n "$bins" ] || die "usage: bad arguments"
setpriv=$(command -v setpriv) || die "no setpriv"
limit=''
if [ -n "$nproc" ]; then
    limit=$(command -v prlimit) || die "no prlimit"
fi
# bound read-only by the bind itself as root; in a user namespace, which may not drop the
# flags (nosuid, nodev, noexec, atime) that it was given, by the last pass, which keeps them
ro=,ro
[ -n "$runas" ] || ro=''

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
esc() {       # esc PATH: $e, PATH as fstab writes it
    e=$1
    case $e in *[[:space:]\\]*) e=$(printf '%s' "$e" | sed 's/\\/\\134/g; s/ /\\040/g; s/	/\\011/g') ;; esac
}
mnt() {       # mnt SOURCE PATH TYPE OPTIONS: a line of the list, PATH inside the new root
    esc "$new$2"
    t=$e
    esc "$1"
    printf '%s %s %s %s 0 0\n' "$e" "$t" "$3" "$4" >>"$tab" || die "cannot write $tab"
}
mount_all() { # mount_all WHAT: the list's mounts, in its order
    mount --all --fstab "$tab" || die "cannot mount $1"
    true >"$tab" || die "cannot write $tab"
}

# Paths are split on newlines only, never globbed, from here on (but for /dev/nvidia*).
IFS=$nl
true >"$tab" || die "cannot write $tab"
points=./tmp$nl./dev/shm$nl./proc$nl./sys$nl./run$nl./.old$nl  # the folders of the new root
links=''
mnt memlab /tmp tmpfs "mode=1777,nosuid,nodev,size=$size"
mnt memlab /dev/shm tmpfs "mode=1777,nosuid,nodev,size=$size"
for d in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /dev/nvidia*; do
    if [ -c "$d" ]; then  # device nodes, read-write; their mount points are files
        mnt "$d" "$d" none bind
    elif [ -d "$d" ]; then  # /dev/nvidia-caps
        points=$points.$d$nl
        mnt "$d" "$d" none "rbind$ro"
    fi
done
set -f
for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc /opt /run/nvidia-persistenced; do
    if [ -L "$d" ]; then  # /bin -> usr/bin: the same link here
        links=$links$d$nl
        bound=$bound$d$nl
    elif [ -d "$d" ]; then
        points=$points.$d$nl
        mnt "$d" "$d" none "rbind$ro"
        bound=$bound$d$nl
    fi
done
run_link=''
if [ -L /var/run ] && [ -d /run/nvidia-persistenced ]; then  # where libcuda looks for its socket
    run_link=/var/run
    points=$points./var$nl
fi
for d in $binds; do  # LD_LIBRARY_PATH's folders that no bound folder shows (made when mounted: /tmp's may hold one)
    if ! shown "$d" && [ -d "$d" ]; then
        mnt "$d" "$d" none "rbind$ro,X-mount.mkdir"
        bound=$bound$d$nl
    fi
done
mnt proc /proc proc nosuid,nodev,noexec
bound=$bound/sys$nl/proc$nl
# what the grader keeps away from the program: where a bound folder shows it, an empty tmpfs
for h in $hides; do
    if [ "$h" != / ] && shown "$h" && [ -d "$h" ]; then
        mnt memlab "$h" tmpfs mode=755,nosuid,nodev,size=1m
        ours=$ours$h$nl
    fi
done
# the run's folder, and the program where no bound folder shows it, at their own paths; a
# parent that a bound folder shows gets a tmpfs of ours first (what the host has beside them)
placed=$cwd
for prog in $bins; do
    shown "$prog" || placed=$placed$nl$prog
done
for p in $placed; do
    parent=${p%/*}
    if shown "${parent:-/}"; then
        mnt memlab "$parent" tmpfs mode=755,nosuid,nodev,size=1m
        ours=$ours$parent$nl
    fi
done

mount -t tmpfs -o mode=755,nosuid,nodev,size=1m memlab "$new" || die "cannot mount a tmpfs on $new"
# shellcheck disable=SC2086  # one path a line
cd "$new" && mkdir -p $points && { [ -z "$links" ] || cp -P $links "$new/"; } &&
    { [ -z "$run_link" ] || cp -P $run_link var/; } || die "cannot make the new root's folders"
for d in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty; do
    [ ! -c "$d" ] || true >".$d" || die "cannot make /dev's nodes"
done
set +f
for d in /dev/nvidia*; do
    [ ! -c "$d" ] || true >".$d" || die "cannot make /dev's nodes"
done
set -f
cp -P /dev/fd /dev/stdin /dev/stdout /dev/stderr dev/ 2>/dev/null || {
    ln -sfn /proc/self/fd dev/fd && ln -sf /proc/self/fd/0 dev/stdin && ln -sf /proc/self/fd/1 dev/stdout &&
        ln -sf /proc/self/fd/2 dev/stderr
} || die "cannot make /dev's links"
mount_all "the system folders"
# sysfs of this network namespace (its own /sys/class/net), else the host's
if ! mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$new/sys" 2>/dev/null; then
    mnt /sys /sys none "rbind$ro"
fi
mkdir -p "$new$cwd" || die "cannot make the run's folder in the sandbox"
mnt "$cwd" "$cwd" none bind
for prog in $bins; do
    if ! shown "$prog"; then  # (a system program is in sight already)
        mkdir -p "$new${prog%/*}" && true >"$new$prog" || die "cannot make the program's mount point"
        mnt "$prog" "$prog" none "bind$ro"
    fi
done
mount_all "the run's folder and program"

# Every mount read-only but /tmp, /dev/shm, /proc, the device nodes and the run's folder
# (with their other flags: a user namespace may not drop nosuid, nodev, noexec or atime flags).
list=$(findmnt -n -l -R -o VFS-OPTIONS,TARGET -M "$new") || die "findmnt failed"
printf '%s\n' "$list" | {
    while IFS=' ' read -r opts target; do
        case $opts in ro | ro,*) continue ;; esac
        case $target in "$new/tmp" | "$new/dev/shm" | "$new/proc" | "$new$cwd") continue ;; esac
        [ ! -c "$target" ] || continue  # a device node
        [ -e "$target" ] || continue    # covered by a later mount: out of every path's reach
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
