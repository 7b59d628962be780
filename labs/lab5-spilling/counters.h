/* counters.h - lab 5 --counters: where the local-memory traffic went, from Nsight Compute
 * (trusted, included by driver.cu only).
 *
 * Lab 3's way: the driver runs itself again under tools/ncu-counters.sh with --check
 * --profile-once, which launches every point once, each after a marker kernel whose grid
 * size is the point's number + 1; the counters of the kernel after marker m belong to point
 * m - 1. Per point the CSV gets (ncu_* columns, empty without counters):
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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

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

/* Read tools/ncu-counters.sh's CSV (kernel,launch,grid,block,<metrics>) into c[0..points).
 * Returns the kernels joined to a point. */
static int read_counters(const char *path, struct counters *c, int points)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[8192];
    int col[METRICS], current = -1, rows = 0, n = 0;
    for (int m = 0; m < METRICS; m++)
        col[m] = -1;
    if (fgets(line, sizeof line, f))
        for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), n++)
            for (int m = 0; m < METRICS; m++)
                if (!strcmp(tok, metrics[m]))
                    col[m] = n;
    while (fgets(line, sizeof line, f)) {
        char *field[32] = {0}, *rest = line;
        for (n = 0; n < 32 && rest; n++) {
            field[n] = rest;
            rest = strpbrk(rest, ",\r\n");
            if (rest)
                *rest++ = '\0';
        }
        if (n < 3)
            continue;
        if (strstr(field[0], "lab5_profile_marker")) {
            current = atoi(field[2]) - 1;
            continue;
        }
        if (current < 0 || current >= points)
            continue;
        for (int m = 0; m < METRICS; m++)
            c[current].value[m] = col[m] >= 0 && col[m] < n && *field[col[m]] ? atof(field[col[m]]) : NAN;
        c[current].seen = 1;
        rows++;
    }
    fclose(f);
    return rows;
}

/* Run this program again under tools/ncu-counters.sh with `args` (which must contain
 * --profile-once), and read what it measured into c[0..points). */
static void collect_counters(const char *args, struct counters *c, int points)
{
    const char *tool = "tools/ncu-counters.sh";
    char exe[1024], dir[] = "/tmp/lab5-ncu-XXXXXX", csv[1100], list[2048] = "", command[8192];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (access(tool, R_OK) != 0 || len <= 0 || !mkdtemp(dir)) {
        printf("counters: %s not found or no temporary folder: run from the kit's root; no counters\n", tool);
        return;
    }
    exe[len] = '\0';
    for (int m = 0; m < METRICS; m++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m ? "," : "", metrics[m]);
    snprintf(csv, sizeof csv, "%s/counters.csv", dir);
    snprintf(command, sizeof command, "sh %s '%s' '%s' -- '%s' %s", tool, csv, list, exe, args);
    printf("counters: one profiled launch per point under Nsight Compute...\n");
    fflush(stdout);
    int status = system(command);
    int rows = read_counters(csv, c, points);
    if (rows > 0)
        printf("counters: %d profiled kernel(s) joined to their points\n", rows);
    else if (status == 0)
        printf("counters: none collected; the ncu_* columns stay empty\n");
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0)
        memlab_warn("could not remove %s", dir);
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
