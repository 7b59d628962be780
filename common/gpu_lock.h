/* gpu_lock.h - taking turns on a GPU that several programs share (make test's sections, a
 * class of the kit's own fixtures graded side by side).
 *
 * Where MEMLAB_GPU_LOCK_FDS holds open file descriptors "QUEUE LOCK [LOG]" (tests/jobs.sh:
 * gpu_turns; the grader with --trusted), the program holds the lock on LOCK itself:
 *   shared  while it uses the GPU (from gpu_open on): others may use it too, none may time
 *   alone   while it times something (time_job, the copy ceiling)
 *   none    during host-only work (CPU references, comparisons), so that another program may
 *           time meanwhile; the GPU is synchronised first, so none of its work is left running.
 * Everyone takes QUEUE before LOCK and lets it go once LOCK is held: a program waiting to time
 * stops new holders from going ahead of it, which flock alone allows. No program waits for
 * the queue while it holds the lock, so none waits forever.
 * The program takes the files as its own (reopened) and removes the variable: a program it
 * starts (ncu's run of it, --counters) runs within its turn. Without the variable, every call
 * does nothing. LOG, where given, gets a line per hold, "MODE WAITED_S HELD_S PROGRAM: WHAT"
 * (MODE exclusive or shared; WHAT what the hold began for), as tests/jobs.sh logs its holds.
 */
#ifndef MEMLAB_GPU_LOCK_H
#define MEMLAB_GPU_LOCK_H

#ifdef __cplusplus
extern "C" {
#endif

enum gpu_hold { GPU_HOLD_NONE, GPU_HOLD_SHARED, GPU_HOLD_ALONE };

/* Read MEMLAB_GPU_LOCK_FDS (a bad value: one line, exit 2) and hold the lock shared.
 * `sync` waits for the GPU to finish this program's work (called before a hold ends). */
void gpu_lock_open(void (*sync)(void));

/* Hold the lock as `how` (what: the hold's name in the log); returns how it was held, so that
 * a caller puts it back as it found it: before = gpu_lock_hold(...); ...; gpu_lock_hold(before, 0). */
enum gpu_hold gpu_lock_hold(enum gpu_hold how, const char *what);

/* host_only_begin/end: host-only work between them; the lock is let go meanwhile (the hold
 * after it is named after the function, in the log). */
#define host_only_begin() enum gpu_hold gpu_hold_before_ = gpu_lock_hold(GPU_HOLD_NONE, 0)
#define host_only_end() gpu_lock_hold(gpu_hold_before_, __func__)

#ifdef __cplusplus
}
#endif

#endif
