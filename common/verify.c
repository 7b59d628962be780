/* verify.c - tolerance checks and capped mismatch reports (see verify.h). */
#include "verify.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "proof.h"

int values_close(double got, double ref, struct tolerance tol)
{
    if (isnan(got) || isnan(ref))
        return 0;
    if (got == ref)
        return 1;
    if (isinf(got) || isinf(ref))
        return 0;
    return fabs(got - ref) <= tol.atol + tol.rtol * fabs(ref);
}

struct tolerance tolerance_for_sum(size_t terms, double term_magnitude)
{
    double growth = sqrt((double)(terms > 0 ? terms : 1));
    struct tolerance t = {4.0 * FLT_EPSILON * growth * term_magnitude, 4.0 * FLT_EPSILON * growth};
    return t;
}

static void report_total(const char *what, size_t bad, size_t n)
{
    if (bad > VERIFY_REPORT_CAP)
        memlab_warn("%s: ... %zu of %zu values wrong in all", what, bad, n);
    else if (bad)
        memlab_warn("%s: %zu of %zu values wrong", what, bad, n);
}

/* Both comparisons count on every core: a check compares millions of values after each
 * timed repetition, and the GPU waits for it. Only where some are wrong (the rare case) does a
 * second pass, in order, report the first of them. */
size_t verify_floats(const char *what, const float *got, const double *ref, size_t n,
                     struct tolerance tol)
{
    size_t bad = 0;
    uint64_t digest = 0;
#pragma omp parallel for reduction(+ : bad, digest)
    for (size_t i = 0; i < n; i++) {
        bad += !values_close(got[i], ref[i], tol);
        uint64_t bits;
        memcpy(&bits, &ref[i], sizeof bits);
        digest += proof_term(i, bits);
    }
    proof_fold(n, digest);
    for (size_t i = 0, shown = 0; i < n && shown < bad && shown < VERIFY_REPORT_CAP; i++)
        if (!values_close(got[i], ref[i], tol)) {
            memlab_warn("%s: index %zu: expected %.9g, got %.9g", what, i, ref[i], (double)got[i]);
            shown++;
        }
    report_total(what, bad, n);
    return bad;
}

size_t verify_words(const char *what, const uint32_t *got, const uint32_t *expected, size_t n)
{
    size_t bad = 0;
    uint64_t digest = 0;
#pragma omp parallel for reduction(+ : bad, digest)
    for (size_t i = 0; i < n; i++) {
        bad += got[i] != expected[i];
        digest += proof_term(i, expected[i]);
    }
    proof_fold(n, digest);
    for (size_t i = 0, shown = 0; i < n && shown < bad && shown < VERIFY_REPORT_CAP; i++)
        if (got[i] != expected[i]) {
            memlab_warn("%s: index %zu: expected 0x%08x, got 0x%08x", what, i,
                        (unsigned)expected[i], (unsigned)got[i]);
            shown++;
        }
    report_total(what, bad, n);
    return bad;
}
