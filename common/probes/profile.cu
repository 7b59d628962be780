/* profile.cu - a lab program profiling itself under Nsight Compute (see profile.h). */
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define PROFILE_TOOL "tools/ncu-counters.sh"

/* Its grid size numbers the point (tools/ncu-counters.sh, MARKER=). */
__global__ void memlab_profile_marker(void) {}

void profile_mark(int point)
{
    memlab_profile_marker<<<point + 1, 1>>>();
    CUDA_CHECK(cudaGetLastError());
}

void profile_mark_named(int point, const char *what)
{
    printf("profile point %d: %s\n", point, what);
    profile_mark(point);
}

int profile_self(const char *const *metrics, int count, int points, const char *args,
                 profile_row_fn row, void *ctx, const char *without)
{
    char exe[1024], dir[] = "/tmp/memlab-ncu-XXXXXX", csv[64], list[2048] = "", command[8192],
                    line[8192];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (count > PROFILE_MAX_METRICS || access(PROFILE_TOOL, R_OK) != 0 || len <= 0 ||
        !mkdtemp(dir)) {
        printf(
            "counters: %s not found or no temporary folder: run from the kit's root; no counters\n",
            PROFILE_TOOL);
        return 0;
    }
    exe[len] = '\0';
    for (int m = 0; m < count; m++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m ? "," : "", metrics[m]);
    snprintf(csv, sizeof csv, "%s/counters.csv", dir);
    snprintf(command, sizeof command, "MARKER=memlab_profile_marker sh %s '%s' '%s' -- '%s' %s",
             PROFILE_TOOL, csv, list, exe, args);
    printf("counters: one profiled launch per point under Nsight Compute...\n");
    fflush(stdout);
    int status = system(command), rows = 0;
    FILE *f = fopen(csv, "r");
    /* point,kernel,launch,grid,block, then the metrics in the order asked; no point before
     * the first mark, none beyond the lab's */
    if (f && fgets(line, sizeof line, f))
        while (fgets(line, sizeof line, f)) {
            char *field[5 + PROFILE_MAX_METRICS] = {0}, *rest = line;
            int n = 0;
            while (n < 5 + count && rest) {
                field[n++] = rest;
                rest = strpbrk(rest, ",\r\n");
                if (rest)
                    *rest++ = '\0';
            }
            int point = n == 5 + count && *field[0] ? atoi(field[0]) : -1;
            if (point < 0 || point >= points)
                continue;
            double values[PROFILE_MAX_METRICS];
            for (int m = 0; m < count; m++)
                values[m] = *field[5 + m] ? atof(field[5 + m]) : NAN;
            rows += row(ctx, point, values);
        }
    if (f)
        fclose(f);
    if (rows)
        printf("counters: %d profiled kernel(s) joined to their points\n", rows);
    else if (status == 0)
        printf("counters: none collected; %s\n", without);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0)
        memlab_warn("could not remove %s", dir);
    return rows;
}
