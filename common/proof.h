/* proof.h - the run's proof of work: what the grader takes as evidence, not the exit status.
 *
 * With --proof FILE the harness writes one line per verified point, one per timed point and
 * a last line when the run ends as the driver means it to:
 *   verified DIGEST LABEL    lab_verdict passed LABEL; DIGEST folds the expected values that
 *                            its checks compared the output with (verify_*, check_words)
 *                            since the launch was checked (gpu_check_launch), so that it does
 *                            not depend on which variants ran before
 *   timed LABEL              lab_time accepted LABEL's repetitions (ROW_OK)
 *   locked                   the process was locked down (lockdown.h) before any variant ran
 *   end EXIT WRONG IMPLAUSIBLE   lab_finish reached, with its exit code and counts
 * A submission cannot write the file (its object may call no I/O: grading/object_check.py)
 * and a run that stops early has no `end` line. The expected values depend only on the seed
 * and the sizes, so the reference solution's run with the same arguments writes the same
 * digests: the grader compares them (grading/grader.py, proven_variants).
 */
#ifndef MEMLAB_PROOF_H
#define MEMLAB_PROOF_H

#include <stddef.h>
#include <stdint.h>

/* One value's share of a digest: a mix of its position and its bits (splitmix64's
 * finaliser), summed over the values, so that every core can add its part in any order. */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline uint64_t
    proof_term(uint64_t index, uint64_t bits)
{
    uint64_t z = bits + 0x9e3779b97f4a7c15ull * (index + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#ifdef __cplusplus
extern "C" {
#endif

/* Open FILE for the records (exit 2 when it cannot be written); without it nothing is kept. */
void proof_open(const char *path);

/* Fold a check's sum of proof_term over the values it compared into the pending digest. */
void proof_fold(uint64_t count, uint64_t sum);

/* A verdict: record LABEL with the pending digest when it passed; the digest starts over. */
void proof_verified(const char *label, int passed);

/* A timed point accepted; the timed checks' folds (inputs no seed predicts) are dropped. */
void proof_timed(const char *label, int accepted);

/* Forget the pending digest (gpu_check_launch: a verdict covers its own launch). */
void proof_forget(void);

/* The lockdown is in place (lockdown.h). */
void proof_locked(void);

void proof_end(int exit_code, int wrong, int implausible);

#ifdef __cplusplus
}
#endif

#endif
