/* counters.h - lab 5 --counters: where the local-memory traffic went, from Nsight Compute
 * (trusted, included by driver.cu only).
 *
 * The driver runs itself again under Nsight Compute (profile.h) with --check --profile-once,
 * which launches every point once, after its mark. Per point the CSV gets (ncu_* columns,
 * empty without counters):
 *   local_ld_sectors, local_ld_hit_pct   32-byte sectors of local loads, and the share of
 *   local_st_sectors, local_st_hit_pct   them the L1 served (the seed's Table II, in sectors)
 *   l2_bytes      bytes the L2 served (read and written sectors x 32)
 *   dram_bytes    bytes DRAM moved (read + written)
 *   achieved_occupancy_pct, smem_config_bytes   the warps resident on average, and the
 *                 shared-memory size the launch was given (the carveout the driver chose)
 *   instructions  warp instructions executed (the seed counts the spills' share of them)
 * No ncu, or no permission to read counters: one line, and the columns stay empty.
 */
#ifndef LAB5_COUNTERS_H
#define LAB5_COUNTERS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/profile.h"

static const char *const metrics[] = {
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
    "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__shared_mem_config_size", "smsp__inst_executed.sum"};
#define METRICS (int)(sizeof metrics / sizeof metrics[0])
#define NCU_COLUMNS "ncu_local_ld_sectors,ncu_local_ld_hit_pct,ncu_local_st_sectors,ncu_local_st_hit_pct," \
                    "ncu_l2_bytes,ncu_dram_bytes,ncu_achieved_occupancy_pct,ncu_smem_config_bytes,ncu_instructions"

struct counters {
    double value[METRICS]; /* NAN where ncu gave none */
    int seen;
};

/* One profiled kernel's metrics, for its point. */
static int keep_counters(void *ctx, int point, const double *v)
{
    struct counters *c = (struct counters *)ctx + point;
    memcpy(c->value, v, sizeof c->value);
    c->seen = 1;
    return 1;
}

/* Run this program again under Nsight Compute with `args` (which must contain
 * --profile-once; profile.h), and keep what it measured in c[0..points). */
static void collect_counters(const char *args, struct counters *c, int points)
{
    profile_self(metrics, METRICS, points, args, keep_counters, c, "the ncu_* columns stay empty");
}

/* The ncu_* columns of a point: empty without counters, and where ncu gave no value. */
static const char *ncu_columns(const struct counters *c, char *text, size_t len)
{
    const double *v = c->value;
    double out[9] = {v[0], 100.0 * v[1] / v[0], v[2], 100.0 * v[3] / v[2], 32.0 * (v[4] + v[5]), v[6] + v[7], v[8],
                     v[9], v[10]};
    size_t used = 0;
    text[0] = '\0';
    for (int k = 0; k < 9 && used < len; k++) {
        int digits = k == 1 || k == 3 ? 2 : k == 6 ? 1 : 0;
        if (c->seen && isfinite(out[k]))
            used += snprintf(text + used, len - used, "%s%.*f", k ? "," : "", digits, out[k]);
        else
            used += snprintf(text + used, len - used, "%s", k ? "," : "");
    }
    return text;
}

#endif
