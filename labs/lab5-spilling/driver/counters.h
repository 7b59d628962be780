/* counters.h - lab 5 --counters: where the local-memory traffic went, from Nsight Compute
 * (trusted, used by driver.cu).
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
 *
 * --spills asks for three counts only, in spills.csv (SPILL_COLUMNS): the warp instructions
 * a kernel executed, its local loads and local stores among them (the compiler's spill code:
 * these kernels keep no array in local memory), and their share in percent (the seed's 4.6%).
 */
#ifndef LAB5_COUNTERS_H
#define LAB5_COUNTERS_H

#include <stddef.h>

/* What ncu is asked for: struct counters holds a value of each, in this order. */
static const char *const metrics[] = {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
                                      "lts__t_sectors_op_read.sum",
                                      "lts__t_sectors_op_write.sum",
                                      "dram__bytes_read.sum",
                                      "dram__bytes_write.sum",
                                      "sm__warps_active.avg.pct_of_peak_sustained_active",
                                      "launch__shared_mem_config_size",
                                      "smsp__inst_executed.sum"};
#define METRICS (int)(sizeof metrics / sizeof metrics[0])
#define NCU_COLUMNS                                                                                \
    "ncu_local_ld_sectors,ncu_local_ld_hit_pct,ncu_local_st_sectors,ncu_local_st_hit_pct,"         \
    "ncu_l2_bytes,ncu_dram_bytes,ncu_achieved_occupancy_pct,ncu_smem_config_bytes,ncu_"            \
    "instructions"

struct counters {
    double value[METRICS]; /* NAN where ncu gave none */
    int seen;
};

/* Run this program again under Nsight Compute with `args` (which must contain
 * --profile-once; profile.h), and keep what it measured in c[0..points). */
void collect_counters(const char *args, struct counters *c, int points);

/* The ncu_* columns of a point: empty without counters, and where ncu gave no value. */
const char *ncu_columns(const struct counters *c, char *text, size_t len);

#define SPILL_COLUMNS "instructions,local_ld_instructions,local_st_instructions,spill_share_pct"

struct spill_counts {
    double instructions, local_loads, local_stores; /* warp instructions; NAN where none */
    int seen;
};

/* As collect_counters, for --spills: the three counts of each point. */
void collect_spill_counts(const char *args, struct spill_counts *s, int points);

/* The SPILL_COLUMNS of a point: empty without counters. */
const char *spill_columns(const struct spill_counts *s, char *text, size_t len);

#endif
