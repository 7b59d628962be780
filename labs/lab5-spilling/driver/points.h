/* points.h - lab 5: what a point is (trusted, included by driver.cu only).
 *
 * A point is one kernel timed: a variant of kernels.cu at a register cap (the caps; the arms'
 * caps), spilling to local or shared memory, in the caps experiment or an arm, under an L1 /
 * shared-memory carveout. Here: the caps, the point, a cap's label, the kernel's entry in the
 * compiler's report (compiled.h), and setting a kernel's carveout.
 */
#ifndef LAB5_POINTS_H
#define LAB5_POINTS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static const char *cap_label(int cap)
{
    static char text[4][8];
    static int next;
    char *t = text[next++ % 4];
    snprintf(t, 8, cap ? "%d" : "none", cap);
    return t;
}

static const struct compiled_kernel *compiled_of(const struct lab *lab, const struct point *p)
{
    char name[128], arch[16];
    snprintf(name, sizeof name, "%s_%s%s", lab5_variants[p->variant].name, p->smem_spill ? "smem" : "cap",
             cap_label(p->cap));
    snprintf(arch, sizeof arch, "sm_%d%d", lab->gpu.cc_major, lab->gpu.cc_minor);
    for (int k = 0; k < compiled_kernel_count; k++)
        if (!strcmp(compiled_kernels[k].name, name) && !strcmp(compiled_kernels[k].arch, arch))
            return &compiled_kernels[k];
    return NULL;
}

/* Set a kernel's L1 / shared-memory preference (cudaFuncAttributePreferredSharedMemoryCarveout,
 * a percentage of the SM's shared memory; a hint the CUDA driver rounds up to a size it has).
 * most_l1 asks for the least shared memory that still holds the blocks the registers allow
 * (occ: with the preference untouched), so the L1 grows and the occupancy stays. Returns the
 * percentage asked (-1: the driver's default). */
static int set_carveout(const struct lab *lab, const void *kernel, enum carveout carve, const struct occupancy *occ)
{
    int pct = carve == CARVE_MAX_SHARED ? (int)cudaSharedmemCarveoutMaxShared : (int)cudaSharedmemCarveoutDefault;
    if (carve == CARVE_MOST_L1) {
        double needed = occ->blocks_per_sm * (double)(occ->static_smem_bytes + lab->gpu.smem_reserved_per_block);
        pct = (int)ceil(100.0 * needed / lab->gpu.smem_per_sm);
        pct = pct > 100 ? 100 : pct;
    }
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, pct);
    if (err != cudaSuccess) {
        cudaGetLastError(); /* not sticky: cleared, so that no later launch check reports it */
        if (carve != CARVE_DEFAULT)
            memlab_die(EXIT_GPU, "setting the shared-memory carveout to %d%% failed: %s", pct, cudaGetErrorName(err));
    }
    return pct;
}

#endif
