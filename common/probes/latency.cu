/* latency.cu - the DRAM latency chase (see latency.h). */
#include "latency.h"

#include <stdlib.h>

#include "chase.h"

/* The chase: one link per 128-byte line, so that no two links share a line or a sector. */
#define CHASE_STRIDE_BYTES 128
#define CHASE_STRIDE_WORDS (CHASE_STRIDE_BYTES / 4)

/* One thread: start at *cursor, follow `hops` links, leave the end in *cursor (so the next
 * launch goes on along the cycle instead of revisiting lines that may still be cached). */
static __global__ void chase_kernel(const unsigned *links, long long hops, unsigned *cursor)
{
    unsigned j = *cursor;
    for (long long h = 0; h < hops; h++)
        j = links[j];
    *cursor = j;
}

struct chase_job {
    const unsigned *links;
    long long hops;
    unsigned *cursor;
};

static int launch_chase(void *ctx, cudaStream_t stream)
{
    struct chase_job *c = (struct chase_job *)ctx;
    chase_kernel<<<1, 1, 0, stream>>>(c->links, c->hops, c->cursor);
    return LAB_OK;
}

/* Is the chase where the host says it is after `hops` hops? */
static enum row_status verify_chase(struct lab *lab, const char *label, const struct chase_job *c,
                                    const unsigned *order, size_t slots, long long hops)
{
    unsigned got = 0, expected = chase_position(order, slots, 0, hops, CHASE_STRIDE_WORDS);
    CUDA_CHECK(cudaMemcpy(&got, c->cursor, sizeof got, cudaMemcpyDeviceToHost));
    if (got != expected)
        memlab_warn("%s: after %lld hops: expected word %u, got %u", label, hops, expected, got);
    return lab_verdict(lab, label, got != expected);
}

double lab_dram_latency_ns(struct lab *lab)
{
    size_t bytes = 4 * lab->gpu.l2_bytes / CHASE_PAGE_BYTES * CHASE_PAGE_BYTES;
    if (bytes < 32 * CHASE_PAGE_BYTES)
        bytes = 32 * CHASE_PAGE_BYTES;
    size_t slots = bytes / CHASE_STRIDE_BYTES;
    if (bytes / 4 > 0xFFFFFFFFu)
        memlab_die(EXIT_USAGE, "the chase buffer (%zu bytes) is too large for 32-bit links", bytes);
    long long hops = lab->opts.check ? 1000 : lab->opts.quick ? 1 << 13 : 1 << 15;
    uint32_t *image = (uint32_t *)calloc(bytes / 4, sizeof(uint32_t));
    unsigned *order = (unsigned *)malloc(slots * sizeof(unsigned));
    if (!image || !order)
        memlab_die(EXIT_USAGE, "out of host memory for the %.0f MiB chase buffer",
                   bytes / 1048576.0);
    unsigned *links = (unsigned *)gpu_alloc(bytes, "the pointer-chase buffer");
    struct chase_job c = {links, hops, (unsigned *)gpu_alloc(sizeof(unsigned), "the chase cursor")};
    struct rng r = rng_seeded(lab->opts.seed ^ 0x5eedc4a5e);
    struct report rep;
    if (!lab->opts.check)
        report_open(&rep, lab->csv_dir, "latency", &lab->info, "hops",
                    "buffer_bytes,stride_bytes,group_bytes,ns_per_hop,cycles_per_hop");

    const char *names[] = {"chase_whole_buffer", "chase_page_by_page"};
    const size_t groups[] = {slots, CHASE_PAGE_BYTES / CHASE_STRIDE_BYTES};
    double ns = 0;
    for (int k = 0; k < 2; k++) {
        chase_order(order, slots, groups[k], &r);
        chase_links(image, order, slots, CHASE_STRIDE_WORDS);
        CUDA_CHECK(cudaMemcpy(links, image, bytes, cudaMemcpyHostToDevice));
        gpu_flush_l2(&lab->gpu); /* the upload left the buffer's last lines in the L2 */
        unsigned start = chase_position(order, slots, 0, 0, CHASE_STRIDE_WORDS);
        CUDA_CHECK(cudaMemcpy(c.cursor, &start, sizeof start, cudaMemcpyHostToDevice));
        launch_chase(&c, 0);
        gpu_check_launch(names[k]);
        struct row row = {names[k],
                          hops,
                          slots,
                          4.0 * hops,
                          0,
                          {0, 0, 0, 0},
                          verify_chase(lab, names[k], &c, order, slots, hops)};
        if (lab->opts.check) {
            if (row.status == ROW_OK)
                printf("%-26s verified: %lld hops over %.0f MiB\n", names[k], hops,
                       bytes / 1048576.0);
            continue;
        }
        if (row.status != ROW_OK) {
            report_row(&rep, &row, ",,,,");
            continue;
        }
        struct timing_config cfg = lab_timing(lab, 0);
        /* Trusted code: no varied inputs, no checks while timed. Each hop misses every
         * cache (the cycle, common/probes/chase.h): at least one 32-byte sector from DRAM. */
        struct timed_job timed = {names[k], launch_chase, &c, NULL, NULL, {32.0 * hops, 0, 0, 0}};
        enum row_status clocked = lab_time(lab, &timed, &cfg, &row.ms);
        row.status =
            verify_chase(lab, names[k], &c, order, slots, (1LL + cfg.warmup + cfg.reps) * hops);
        if (row.status == ROW_OK)
            row.status = clocked;
        ns = row.ms.median * 1e6 / hops;
        report_row(&rep, &row, "%zu,%d,%zu,%.1f,%.0f", bytes, CHASE_STRIDE_BYTES,
                   groups[k] * CHASE_STRIDE_BYTES, ns, ns * lab->gpu.sm_clock_khz / 1e6);
    }
    if (!lab->opts.check) {
        report_close(&rep);
        printf("DRAM latency for the model: %.0f ns (page by page; cycles at the %.0f MHz boost "
               "clock)\n",
               ns, lab->gpu.sm_clock_khz / 1e3);
    }
    gpu_free(links);
    gpu_free(c.cursor);
    free(image);
    free(order);
    return ns;
}
