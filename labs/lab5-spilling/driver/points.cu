/* points.cu - lab 5's points (see points.h). */
#include "points.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cap_label(int cap)
{
    static char text[4][8];
    static int next;
    char *t = text[next++ % 4];
    snprintf(t, 8, cap ? "%d" : "none", cap);
    return t;
}

const struct compiled_kernel *compiled_of(const struct lab *lab, const struct point *p)
{
    char name[128], arch[16];
    snprintf(name, sizeof name, "%s_%s%s", lab5_variants[p->variant].name,
             p->smem_spill ? "smem" : "cap", cap_label(p->cap));
    snprintf(arch, sizeof arch, "sm_%d%d", lab->gpu.cc_major, lab->gpu.cc_minor);
    for (int k = 0; k < compiled_kernel_count; k++)
        if (!strcmp(compiled_kernels[k].name, name) && !strcmp(compiled_kernels[k].arch, arch))
            return &compiled_kernels[k];
    return NULL;
}

int set_carveout(const struct lab *lab, const void *kernel, enum carveout carve,
                 const struct occupancy *occ)
{
    int pct = carve == CARVE_MAX_SHARED ? (int)cudaSharedmemCarveoutMaxShared
                                        : (int)cudaSharedmemCarveoutDefault;
    if (carve == CARVE_MOST_L1) {
        double needed = occ->blocks_per_sm *
                        (double)(occ->static_smem_bytes + lab->gpu.smem_reserved_per_block);
        pct = (int)ceil(100.0 * needed / lab->gpu.smem_per_sm);
        pct = pct > 100 ? 100 : pct;
    }
    cudaError_t err =
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, pct);
    if (err != cudaSuccess) {
        cudaGetLastError(); /* not sticky: cleared, so that no later launch check reports it */
        if (carve != CARVE_DEFAULT)
            memlab_die(EXIT_GPU, "setting the shared-memory carveout to %d%% failed: %s", pct,
                       cudaGetErrorName(err));
    }
    return pct;
}
