/* verify.h - comparing a kernel's output with a CPU reference.
 *
 * A value passes when it equals the reference exactly (this covers matching infinities)
 * or when both are finite and |got - ref| <= atol + rtol*|ref|. NaN never passes, whatever
 * the reference; an infinity passes only against the same infinity.
 * Mismatch reports list the first few (index, expected, got) and the total count.
 * Each comparison folds the expected values' digest into the proof of work (proof.h).
 */
#ifndef MEMLAB_VERIFY_H
#define MEMLAB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tolerance {
    double atol, rtol;
};

/* How many mismatches a report prints before it only counts. */
enum { VERIFY_REPORT_CAP = 5 };

int values_close(double got, double ref, struct tolerance tol);

/* Tolerance for a float32 sum of `terms` values, each about `term_magnitude` in size:
 * rounding grows with the length of the sum, so both bounds scale with it. */
struct tolerance tolerance_for_sum(size_t terms, double term_magnitude);

/* Compare n floats with a double reference; print up to VERIFY_REPORT_CAP mismatches
 * (prefixed with `what`) on stderr. Returns the number of mismatches. */
size_t verify_floats(const char *what, const float *got, const double *ref, size_t n,
                     struct tolerance tol);

/* Bit-exact comparison of n 32-bit words (copies, integer results, untouched poison). */
size_t verify_words(const char *what, const uint32_t *got, const uint32_t *expected, size_t n);

#ifdef __cplusplus
}
#endif

#endif
