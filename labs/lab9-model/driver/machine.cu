/* machine.cu - lab 9's probe of the issue rate (see machine.h). */
#include "machine.h"

#define ISSUE_CHAINS 8 /* independent FFMA chains a thread: enough to issue every clock */
#define ISSUE_UNROLL 32
#define ISSUE_THREADS 256

/* Every thread runs ISSUE_CHAINS independent chains of FFMAs, ISSUE_UNROLL deep a trip: one
 * FFMA a clock on each of an SM's four schedulers is the most an SM issues (the loop's own
 * few instructions a trip are not counted, so the rate is a shade low). */
static __global__ void issue_kernel(float *sink, int trips, float x)
{
    float a[ISSUE_CHAINS];
    for (int c = 0; c < ISSUE_CHAINS; c++)
        a[c] = x + (float)(threadIdx.x + c);
    for (int i = 0; i < trips; i++)
#pragma unroll
        for (int u = 0; u < ISSUE_UNROLL; u++)
#pragma unroll
            for (int c = 0; c < ISSUE_CHAINS; c++)
                a[c] = fmaf(a[c], 0.999f, 0.001f);
    float sum = 0.0f;
    for (int c = 0; c < ISSUE_CHAINS; c++)
        sum += a[c];
    if (sum == 1.5e-38f)
        sink[0] = sum;
}

struct issue_job {
    unsigned blocks;
    int trips;
    float *sink;
};

static int launch_issue(void *ctx, cudaStream_t stream)
{
    struct issue_job *j = (struct issue_job *)ctx;
    issue_kernel<<<j->blocks, ISSUE_THREADS, 0, stream>>>(j->sink, j->trips, 1.0f);
    return LAB_OK;
}

double measure_issue(struct lab *lab, float *sink, double clock_mhz)
{
    const struct gpu_info *g = &lab->gpu;
    struct issue_job j = {(unsigned)(g->sms * (g->max_threads_per_sm / ISSUE_THREADS)),
                          lab->opts.quick ? 256 : 1024, sink};
    double per_thread = (double)j.trips * ISSUE_UNROLL * ISSUE_CHAINS;
    double warp_inst = per_thread * j.blocks * (ISSUE_THREADS / 32);
    struct report rep;
    report_open(&rep, lab->csv_dir, "issue", &lab->info, "trips",
                "warp_instructions,sm_clock_mhz,inst_per_clk_per_sm");
    struct row r = {"ffma_chains",
                    j.trips,
                    (size_t)j.blocks * ISSUE_THREADS,
                    0,
                    2 * per_thread * j.blocks * ISSUE_THREADS,
                    {0, 0, 0, 0},
                    ROW_OK};
    struct timing_config cfg = lab_timing(lab, 0);
    struct timed_job t = {"issue probe", launch_issue, &j, NULL, NULL, {0, r.flops, 0, 0, 0, 0, 0}};
    r.status = lab_time(lab, &t, &cfg, &r.ms);
    double rate = r.status == ROW_OK ? warp_inst / (r.ms.median * 1e-3) : 0;
    report_row(&rep, &r, "%.0f,%.0f,%.2f", warp_inst, clock_mhz, rate / (clock_mhz * 1e6) / g->sms);
    report_close(&rep);
    return rate;
}
