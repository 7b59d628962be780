/* lockdown.h - what a graded run's process may still do once the GPU is open.
 *
 * A submission's kernels.cu runs in the driver's process. Its object may name only what the
 * grader's allowlist has, but code can reach other functions through memory. lab_lockdown()
 * (lab_start, for a run with --proof: the grader's) takes away the system calls that such
 * code would need to change the program or leave it: no new executable memory (mmap,
 * mprotect, pkey_mprotect with PROT_EXEC: no patched code, no library loaded from here on),
 * no exec, no process (clone without CLONE_THREAD, fork, vfork; clone3 reads ENOSYS so that
 * threads fall back to clone), no ptrace or process_vm_*, no io_uring, no personality, and
 * the process not dumpable (its /proc/self/mem closed to the unprivileged user it runs as).
 * A seccomp filter on every thread (TSYNC), x86-64 only; elsewhere, or where the kernel
 * refuses, it says why and returns 0 (the grader then reads no lockdown in the proof).
 */
#ifndef MEMLAB_LOCKDOWN_H
#define MEMLAB_LOCKDOWN_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the filter is in place; 0 with a line on stderr saying why not. */
int lab_lockdown(void);

#ifdef __cplusplus
}
#endif

#endif
