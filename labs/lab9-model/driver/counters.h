/* counters.h - lab 9's --counters: a few points of the sweep under Nsight Compute (profile.h),
 * each level's counted bytes, the shared-memory wavefronts and the warp instructions beside the
 * model's (results/lab9/counters.csv). Trusted; included by driver.cu only, after the sweep:
 * it uses the driver's struct state, shape_config and predict.
 *
 *   profile_points  --profile-once: the child run that ncu profiles launches each point once
 *   run_counters    runs that child under ncu, then writes the counters beside the model
 */
#ifndef LAB9_COUNTERS_H
#define LAB9_COUNTERS_H

#include <math.h>
#include <string.h>

#include "harness.h"
#include "kernels.h"
#include "model.h"
#include "probes/profile.h"

#define PROFILE_EDGE 512
#define PROFILE_POINTS (LAB9_CODES * LAB9_QUICK_SHAPES)

static const char *const metrics[] = {
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__inst_executed.sum", "gpu__time_duration.sum"};
#define METRICS (int)(sizeof metrics / sizeof metrics[0])

struct counted {
    double value[METRICS];
    int seen;
};

/* --profile-once: the quick shapes of every code at PROFILE_EDGE, once each after its mark. */
static void profile_points(struct lab *lab, struct state *st)
{
    for (int k = 0; k < LAB9_CODES; k++)
        for (int s = 0; s < LAB9_QUICK_SHAPES; s++) {
            if (!cli_selects(&lab->opts, lab9_variants[k].name))
                continue;
            struct lab9_config c = shape_config(k, s, PROFILE_EDGE);
            profile_mark(k * LAB9_QUICK_SHAPES + s);
            launch_code(k, &c, st->out, st->in, c.n, c.n, c.n, 0);
            gpu_check_launch(lab9_variants[k].name);
        }
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* A profiled point's launch, kept when ncu gave every metric. */
static int keep_counted(void *ctx, int point, const double *v)
{
    struct counted *c = (struct counted *)ctx + point;
    for (int m = 0; m < METRICS; m++)
        if (isnan(v[m]))
            return 0;
    memcpy(c->value, v, sizeof c->value);
    c->seen = 1;
    return 1;
}

/* --counters: the points above under Nsight Compute (profile.h); the counted bytes per level
 * beside the model's (the shared-memory counters count 128-byte wavefronts: beside the
 * seed's 4-byte floats and the lab's wavefronts), the warp instructions beside the count of
 * model.h, and the instructions each SM issued a clock while the kernel ran under ncu. */
static void run_counters(struct lab *lab, struct state *st)
{
    static struct counted counted[PROFILE_POINTS];
    char args[256];
    snprintf(args, sizeof args, "--check --profile-once --n %d --seed %llu%s%s", PROFILE_EDGE,
             (unsigned long long)lab->opts.seed, lab->opts.only ? " --only " : "", lab->opts.only ? lab->opts.only : "");
    if (!profile_self(metrics, METRICS, PROFILE_POINTS, args, keep_counted, counted, "no counters.csv is written"))
        return;
    struct report rep;
    report_open(&rep, lab->csv_dir, "counters", &lab->info, "shape",
                "edge,shape,v_gm,v_l2,v_smx,smx_wavefront_bytes,v_inst,dram_bytes,l2_bytes,smem_wavefront_bytes,inst,"
                "ncu_ms,ipc_per_sm");
    double clock_mhz = gpu_measure_sm_clock_mhz(2.0);
    printf("\ncounted by ncu against the model (%d^3; counted / model):\n", PROFILE_EDGE);
    for (int k = 0; k < LAB9_CODES; k++)
        for (int s = 0; s < LAB9_QUICK_SHAPES; s++) {
            const struct counted *p = &counted[k * LAB9_QUICK_SHAPES + s];
            if (!cli_selects(&lab->opts, lab9_variants[k].name) || !p->seen)
                continue;
            const double *m = p->value;
            struct lab9_config c = shape_config(k, s, PROFILE_EDGE);
            struct lab9_volumes vol = model_count(k, &c, &st->machine);
            struct lab9_launch launch;
            predict(lab, st, k, &c, &vol, &launch);
            double dram = m[0] + m[1], l2 = LAB9_SECTOR_BYTES * (m[2] + m[3]), smem = 128 * (m[4] + m[5]);
            double wavefront_bytes = 128 * launch.wavefronts, ms = m[7] * 1e-6;
            double ipc = ms > 0 ? m[6] / (ms * 1e-3 * clock_mhz * 1e6) / lab->gpu.sms : 0;
            struct row row = {lab9_variants[k].name, s, (size_t)c.n * c.n * c.n, vol.gm, 0, {0, 0, 0, 0}, ROW_OK};
            report_row(&rep, &row, "%d,%dx%dx%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.5f,%.2f", c.n, c.bx, c.by,
                       c.bz, vol.gm, vol.l2, vol.smx, wavefront_bytes, launch.inst, dram, l2, smem, m[6], ms, ipc);
            printf("  %-17s %3dx%dx%-3d gm %.3f  l2 %.3f  smx %.3f (floats) %.3f (wavefronts)  inst %.3f  "
                   "(ncu: %.3f ms, %.2f instructions a clock an SM)\n",
                   lab9_variants[k].name, c.bx, c.by, c.bz, dram / vol.gm, l2 / vol.l2, smem / vol.smx,
                   smem / wavefront_bytes, m[6] / launch.inst, ms, ipc);
        }
    report_close(&rep);
}

#endif
