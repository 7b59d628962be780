/* arrays.h - lab 4's copy and stencil points: their arrays, reference and checks (trusted,
 * used by driver.cu).
 *
 * Each array sits in a window: FRONT guard words, the array, BACK guard words. `in`'s guards
 * hold random data a kernel must leave alone (and read only by a stencil that runs past an
 * end, which then sums the wrong values); `out`'s are poisoned and must stay so. The reference
 * of a stencil is a difference of prefix sums in double, whatever the radius.
 */
#ifndef LAB4_ARRAYS_H
#define LAB4_ARRAYS_H

#include "harness.h"
#include "kernels.h"

#define FRONT 64  /* guard words before each array (keeps it 256-byte aligned) */
#define BACK 1024 /* guard words after it */
#define POISON 0xFFFFFFFFu

struct arrays {
    uint32_t *in_window, *out_window;      /* device: `window` words each */
    float *in, *out;                       /* FRONT words into their windows */
    size_t n, capacity, window;            /* timed size, largest size, words per window */
    uint32_t *host_in, *expected_in, *got; /* host images of a window */
    double *prefix, *ref;
};

struct array_job {
    const struct lab4_variant *v;
    struct arrays *a;
    size_t n;
    int radius; /* 0: the copy */
};

/* Device and host memory for arrays of up to `capacity` floats; the input random in [-1, 1). */
void arrays_open(struct arrays *a, size_t n, size_t capacity, uint64_t seed);

void arrays_close(struct arrays *a);

int launch_array(void *ctx, cudaStream_t stream);

/* The awkward sizes (at every radius, for the stencil), until the first point that is not
 * right or not implemented. */
enum row_status verify_array_awkward(struct lab *lab, struct arrays *a,
                                     const struct lab4_variant *v, const char *build, int stencil);

/* Verify at the job's size, then (unless --check) time it: the row's status and times. */
enum row_status time_array(struct lab *lab, struct array_job *j, const char *label,
                           struct summary *ms);

#endif
