/* points.h - lab 5: what a point is (trusted, used by driver.cu).
 *
 * A point is one kernel timed: a variant of kernels.cu at a register cap (the caps; the arms'
 * caps), spilling to local or shared memory, in the caps experiment or an arm, under an L1 /
 * shared-memory carveout. Here: the caps, the point, a cap's label, the kernel's entry in the
 * compiler's report (compiled.h), and setting a kernel's carveout.
 */
#ifndef LAB5_POINTS_H
#define LAB5_POINTS_H

#include "compiled.h"
#include "harness.h"
#include "kernels.h"

static const int caps[LAB5_CAP_COUNT] = LAB5_CAP_VALUES;
static const int arm_caps[] = {32, 24, 0};

enum carveout { CARVE_DEFAULT, CARVE_MAX_SHARED, CARVE_MOST_L1 };
static const char *const carve_names[] = {"default", "max_shared", "most_l1"};

/* A timed point: one kernel of one variant, in the caps or the arms experiment. */
struct point {
    int variant, cap, smem_spill, arm;
    enum carveout carve;
};

/* "24", or "none" for no cap; in one of four buffers in turn (four labels to one printf). */
const char *cap_label(int cap);

/* The point's kernel in the compiler's report for this GPU's architecture; NULL if not there. */
const struct compiled_kernel *compiled_of(const struct lab *lab, const struct point *p);

/* Set a kernel's L1 / shared-memory preference (cudaFuncAttributePreferredSharedMemoryCarveout,
 * a percentage of the SM's shared memory; a hint the CUDA driver rounds up to a size it has).
 * most_l1 asks for the least shared memory that still holds the blocks the registers allow
 * (occ: with the preference untouched), so the L1 grows and the occupancy stays. Returns the
 * percentage asked (-1: the driver's default). */
int set_carveout(const struct lab *lab, const void *kernel, enum carveout carve,
                 const struct occupancy *occ);

#endif
