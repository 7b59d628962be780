/* bandwidth.cu - the three bandwidth probes and the L2 sweep's points (see bandwidth.h). */
#include "bandwidth.h"

#include <math.h>

/* Pass p reads the `mask + 1` float4 of buf, starting p warps' worth (512 bytes) further on,
 * so that no pass repeats the addresses of the one before (the compiler cannot reuse a load)
 * and every warp's 512 bytes stay aligned. per_block: every block reads the whole buffer
 * (its SM's L1 keeps it); otherwise the grid shares one read of it per pass. The sum is
 * stored only if it equals a value it never takes, which the compiler cannot know. */
template <bool CACHE_IN_L1>
static __global__ void reread_kernel(const float4 *buf, unsigned mask, int passes, int per_block,
                                     float *sink)
{
    unsigned first = per_block ? threadIdx.x : blockIdx.x * blockDim.x + threadIdx.x;
    unsigned step = per_block ? blockDim.x : gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int p = 0; p < passes; p++)
        for (unsigned i = first; i <= mask; i += step) {
            const float4 *at = buf + ((i + 32u * p) & mask);
            float4 v = CACHE_IN_L1 ? __ldca(at) : __ldcg(at);
            acc += v.x + v.y + v.z + v.w;
        }
    if (acc == 1.5e-38f)
        sink[0] = acc;
}

/* The sweep's re-read of n float4 (a multiple of 32: warps stay aligned), any n, ld.cg. Each
 * thread reads the same addresses every pass, so a line is always read by the same SM(s): a
 * pass shifted as above would hand some lines to the next block, on another SM. The float
 * sum is a chain the compiler may not reorder, so no load can be saved. per_block: block b
 * reads all n from b x 64 KiB on, wrapping round (the every_sm mode): the blocks move through
 * the buffer together, so a line is reread by one SM a whole buffer later and by the others
 * moments apart. (Starts n / blocks apart blurred the edge: docs/measurements.md.) */
static __global__ void sweep_kernel(const float4 *buf, unsigned n, int passes, int per_block,
                                    float *sink)
{
    unsigned first = per_block ? threadIdx.x : blockIdx.x * blockDim.x + threadIdx.x;
    unsigned step = per_block ? blockDim.x : gridDim.x * blockDim.x;
    unsigned start = per_block ? (unsigned)((4096ull * blockIdx.x) % n) & ~31u : 0;
    float acc = 0.0f;
    for (int p = 0; p < passes; p++)
        for (unsigned i = first; i < n; i += step) {
            unsigned j = start + i;
            float4 v = __ldcg(buf + (j < n ? j : j - n));
            acc += v.x + v.y + v.z + v.w;
        }
    if (acc == 1.5e-38f)
        sink[0] = acc;
}

/* A probe's launch: reread_kernel (count a power of two) or sweep_kernel (sweep set). */
struct probe_job {
    int in_l1, passes, per_block, sweep;
    unsigned blocks, threads, count; /* count: the float4 read a pass (per block if per_block) */
    const float4 *buf;
    float *sink;
};

static int launch_probe(void *ctx, cudaStream_t stream)
{
    struct probe_job *p = (struct probe_job *)ctx;
    unsigned mask = p->count - 1;
    if (p->sweep)
        sweep_kernel<<<p->blocks, p->threads, 0, stream>>>(p->buf, p->count, p->passes,
                                                           p->per_block, p->sink);
    else if (p->in_l1)
        reread_kernel<true>
            <<<p->blocks, p->threads, 0, stream>>>(p->buf, mask, p->passes, p->per_block, p->sink);
    else
        reread_kernel<false>
            <<<p->blocks, p->threads, 0, stream>>>(p->buf, mask, p->passes, p->per_block, p->sink);
    return LAB_OK;
}

/* Blocks of 256 threads, as many as the SMs hold together. */
static unsigned full_grid(const struct gpu_info *g)
{
    return (unsigned)(g->sms * (g->max_threads_per_sm / 256));
}

/* Time a probe into r (trusted: no varied inputs, no checks); its status. */
static enum row_status time_probe(struct lab *lab, struct probe_job *p, const char *what,
                                  struct row *r)
{
    struct timing_config cfg = lab_timing(lab, 0);
    struct timed_job t = {what, launch_probe, p, NULL, NULL, {0, 0, 0, 0, 0, 0, 0}};
    return r->status = lab_time(lab, &t, &cfg, &r->ms);
}

struct level_bandwidth lab_bandwidth_probes(struct lab *lab, const void *buf, size_t buf_bytes,
                                            void *sink, double clock_mhz)
{
    const struct gpu_info *g = &lab->gpu;
    size_t l2 = 1, dram = 1; /* powers of two: at most a quarter of the L2; at most the buffer */
    while (2 * l2 <= g->l2_bytes / 4)
        l2 *= 2;
    while (2 * dram <= buf_bytes)
        dram *= 2;
    const struct {
        const char *name, *level;
        size_t bytes;
        int passes, per_block;
    } probes[] = {{"l1_reread", "l1", 32768, 256, 1},
                  {"l2_reread", "l2", l2, 256, 0},
                  {"dram_read", "dram", dram, 4, 0}};
    struct level_bandwidth out = {{0, 0, 0}, {0, 0, 0}};
    struct report rep;
    report_open(&rep, lab->csv_dir, "bandwidth", &lab->info, "KiB",
                "level,buffer_bytes,passes,sm_clock_mhz,bytes_per_clk_per_sm");
    unsigned blocks = full_grid(g);
    for (int k = 0; k < LEVELS; k++) {
        struct probe_job p = {k == 0,
                              probes[k].passes,
                              probes[k].per_block,
                              0,
                              blocks,
                              256,
                              (unsigned)(probes[k].bytes / 16),
                              (const float4 *)buf,
                              (float *)sink};
        double bytes =
            (double)probes[k].bytes * probes[k].passes * (probes[k].per_block ? blocks : 1);
        struct row r = {probes[k].name,
                        (long long)(probes[k].bytes >> 10),
                        probes[k].bytes / 4,
                        bytes,
                        0,
                        {0, 0, 0, 0},
                        ROW_OK};
        time_probe(lab, &p, probes[k].name, &r);
        double per_clk = bytes / (r.ms.median * 1e-3) / (clock_mhz * 1e6) / g->sms;
        report_row(&rep, &r, "%s,%zu,%d,%.0f,%.1f", probes[k].level, probes[k].bytes,
                   probes[k].passes, clock_mhz, per_clk);
        if (r.status == ROW_OK) {
            out.gbps[k] = bytes / (r.ms.median * 1e6);
            out.bytes_per_clk_per_sm[k] = per_clk;
        }
    }
    report_close(&rep);
    return out;
}

enum row_status lab_sweep_point(struct lab *lab, const void *buf, void *sink, size_t footprint,
                                int every_sm, struct sweep_point *p)
{
    const struct gpu_info *g = &lab->gpu;
    const char *name = every_sm ? "reread_every_sm" : "reread_shared";
    footprint =
        footprint < SWEEP_GRANULE ? SWEEP_GRANULE : footprint / SWEEP_GRANULE * SWEEP_GRANULE;
    p->blocks = every_sm ? (unsigned)g->sms : full_grid(g);
    p->threads = every_sm ? 1024 : 256;
    double per_pass = (double)footprint * (every_sm ? p->blocks : 1);
    p->passes = (int)ceil(SWEEP_BYTES / per_pass);
    struct probe_job job = {0,
                            p->passes,
                            every_sm,
                            1,
                            p->blocks,
                            p->threads,
                            (unsigned)(footprint / 16),
                            (const float4 *)buf,
                            (float *)sink};
    p->row = (struct row){name, (long long)footprint, footprint / 4, per_pass * p->passes,
                          0,    {0, 0, 0, 0},         ROW_OK};
    char what[96];
    snprintf(what, sizeof what, "%s (%zu bytes)", name, footprint);
    return time_probe(lab, &job, what, &p->row);
}
