/* lockdown.c - the seccomp filter of a graded run (see lockdown.h). */
#define _GNU_SOURCE
#include "lockdown.h"

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#if defined(__x86_64__) && __has_include(<linux/seccomp.h>)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RETURN(value) BPF_STMT(BPF_RET | BPF_K, (value))
#define DENY RETURN(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW RETURN(SECCOMP_RET_ALLOW)
#define IF_CALL(nr, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, (skip))
/* Deny a call outright. */
#define NO(nr) IF_CALL(nr, 1), DENY
/* Deny a call whose argument `arg` (its low 32 bits) has one of `bits` set. */
#define NO_WITH(nr, arg, bits)                                                                     \
    IF_CALL(nr, 4), LOAD(args[arg]), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (bits), 0, 1), DENY, ALLOW

int lab_lockdown(void)
{
    struct sock_filter program[] = {
        LOAD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        DENY,
        LOAD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1), /* x32 calls: none here */
        DENY,
        NO_WITH(__NR_mmap, 2, PROT_EXEC),
        NO_WITH(__NR_mprotect, 2, PROT_EXEC),
        NO_WITH(__NR_pkey_mprotect, 2, PROT_EXEC),
        /* clone: a thread (CLONE_THREAD) is allowed, a process is not */
        IF_CALL(__NR_clone, 4),
        LOAD(args[0]),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        ALLOW,
        DENY,
        IF_CALL(__NR_clone3, 1),
        RETURN(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        IF_CALL(__NR_prctl, 4),
        LOAD(args[0]),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_DUMPABLE, 0, 1),
        DENY,
        ALLOW,
        NO(__NR_execve),
        NO(__NR_execveat),
        NO(__NR_fork),
        NO(__NR_vfork),
        NO(__NR_ptrace),
        NO(__NR_process_vm_readv),
        NO(__NR_process_vm_writev),
        NO(__NR_personality),
        NO(__NR_io_uring_setup),
        ALLOW,
    };
    struct sock_fprog filter = {(unsigned short)(sizeof program / sizeof program[0]), program};
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
        syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter)) {
        memlab_warn("no lockdown: the seccomp filter was refused (%s)", strerror(errno));
        return 0;
    }
    return 1;
}
#else
int lab_lockdown(void)
{
    memlab_warn("no lockdown: the seccomp filter is written for x86-64 Linux only");
    return 0;
}
#endif
