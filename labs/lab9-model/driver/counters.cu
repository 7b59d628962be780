/* counters.cu - lab 9's --counters (see counters.h). */
#include "counters.h"

#include <math.h>
#include <string.h>

#include "probes/profile.h"

static const char *const metrics[] = {"dram__bytes_read.sum",
                                      "dram__bytes_write.sum",
                                      "lts__t_sectors_srcunit_tex_op_read.sum",
                                      "lts__t_sectors_srcunit_tex_op_write.sum",
                                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                      "smsp__inst_executed.sum",
                                      "gpu__time_duration.sum"};
#define METRICS (int)(sizeof metrics / sizeof metrics[0])

struct counted {
    double value[METRICS];
    int seen;
};

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

void run_counters(struct lab *lab, struct state *st)
{
    static struct counted counted[PROFILE_POINTS];
    char args[256];
    snprintf(args, sizeof args, "--check --profile-once --n %d --seed %llu%s%s", PROFILE_EDGE,
             (unsigned long long)lab->opts.seed, lab->opts.only ? " --only " : "",
             lab->opts.only ? lab->opts.only : "");
    if (!profile_self(metrics, METRICS, PROFILE_POINTS, args, keep_counted, counted,
                      "no counters.csv is written"))
        return;
    struct report rep;
    report_open(&rep, lab->csv_dir, "counters", &lab->info, "shape",
                "edge,shape,v_gm,v_l2,v_smx,smx_wavefront_bytes,v_inst,dram_bytes,l2_bytes,smem_"
                "wavefront_bytes,inst,"
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
            double dram = m[0] + m[1], l2 = LAB9_SECTOR_BYTES * (m[2] + m[3]),
                   smem = 128 * (m[4] + m[5]);
            double wavefront_bytes = 128 * launch.wavefronts, ms = m[7] * 1e-6;
            double ipc = ms > 0 ? m[6] / (ms * 1e-3 * clock_mhz * 1e6) / lab->gpu.sms : 0;
            struct row row = {lab9_variants[k].name, s,     (size_t)c.n * c.n * c.n, vol.gm, 0,
                              {0, 0, 0, 0},          ROW_OK};
            report_row(&rep, &row,
                       "%d,%dx%dx%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.5f,%.2f", c.n,
                       c.bx, c.by, c.bz, vol.gm, vol.l2, vol.smx, wavefront_bytes, launch.inst,
                       dram, l2, smem, m[6], ms, ipc);
            printf("  %-17s %3dx%dx%-3d gm %.3f  l2 %.3f  smx %.3f (floats) %.3f (wavefronts)  "
                   "inst %.3f  "
                   "(ncu: %.3f ms, %.2f instructions a clock an SM)\n",
                   lab9_variants[k].name, c.bx, c.by, c.bz, dram / vol.gm, l2 / vol.l2,
                   smem / vol.smx, smem / wavefront_bytes, m[6] / launch.inst, ms, ipc);
        }
    report_close(&rep);
}
