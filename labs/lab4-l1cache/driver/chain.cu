/* chain.cu - lab 4's chase points (see chain.h). */
#include "chain.h"

#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "probes/chase.h"

void chain_open(struct chain *c, size_t bytes, uint64_t seed)
{
    c->max_words = bytes / 4 / STRIDE_WORDS * STRIDE_WORDS;
    c->links = (unsigned *)gpu_alloc(c->max_words * 4, "the chase buffer");
    c->ends = (unsigned *)gpu_alloc(2 * LAB4_CHASE_LANES * 4 + 64, "the chase results");
    c->sink = c->ends + 2 * LAB4_CHASE_LANES;
    c->image = (uint32_t *)malloc(c->max_words * 4);
    c->order = (unsigned *)malloc(c->max_words / STRIDE_WORDS * sizeof(unsigned));
    if (!c->image || !c->order)
        memlab_die(EXIT_USAGE, "out of host memory for a %zu MiB chain", c->max_words >> 18);
    c->rng = rng_seeded(seed ^ 0x1ca4e5u);
    rng_fill_below(&c->rng, c->image, c->max_words, c->max_words);
    CUDA_CHECK(cudaMemcpy(c->links, c->image, c->max_words * 4, cudaMemcpyHostToDevice));
}

void chain_build(struct chain *c, size_t slots)
{
    c->slots = slots;
    chase_order(c->order, slots, slots, &c->rng);
    chase_links(c->image, c->order, slots, STRIDE_WORDS);
    CUDA_CHECK(cudaMemcpy(c->links, c->image, slots * STRIDE_WORDS * 4, cudaMemcpyHostToDevice));
}

static size_t step_of(const struct chase_job *j, uint64_t key)
{
    return key ? (j->base_step + key % j->c->slots) % j->c->slots : j->base_step;
}

int launch_chase(void *ctx, cudaStream_t stream)
{
    struct chase_job *j = (struct chase_job *)ctx;
    struct lab4_args args = {
        NULL, NULL, 0, 0, j->c->links, j->c->order[j->step] * STRIDE_WORDS, j->hops, j->c->ends};
    return j->v->launch(&args, stream);
}

/* Mismatches in the lanes' ends, and in the poisoned words after them, for a chase that
 * started where pattern `key` puts it. */
static size_t compare_chase(struct chase_job *j, uint64_t key, const char *label)
{
    unsigned expected =
        chase_position(j->c->order, j->c->slots, step_of(j, key), j->hops, STRIDE_WORDS);
    uint32_t got[2 * LAB4_CHASE_LANES];
    CUDA_CHECK(cudaMemcpy(got, j->c->ends, sizeof got, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int w = 0; w < 2 * LAB4_CHASE_LANES; w++) {
        uint32_t want = w < LAB4_CHASE_LANES ? expected : CHAIN_POISON;
        if (got[w] != want && bad++ < 3)
            memlab_warn("%s: ends[%d]: expected %u, got %u (%lld hops through %zu links; "
                        "ends[%d..] must stay "
                        "untouched)",
                        label, w, want, got[w], j->hops, j->c->slots, LAB4_CHASE_LANES);
    }
    return bad;
}

/* Before a repetition: the start that pattern `to` picks, the results poisoned. */
static void vary_chase(void *ctx, uint64_t from, uint64_t to)
{
    struct chase_job *j = (struct chase_job *)ctx;
    (void)from;
    j->step = step_of(j, to);
    gpu_poison(j->c->ends, 2 * LAB4_CHASE_LANES * 4);
}

static size_t check_chase(void *ctx, uint64_t key, const char *label)
{
    return compare_chase((struct chase_job *)ctx, key, label);
}

static enum row_status verify_chase(struct lab *lab, struct chase_job *j, const char *label)
{
    vary_chase(j, 0, 0);
    if (launch_chase(j, 0) == LAB_NOT_IMPLEMENTED)
        return ROW_NOT_IMPLEMENTED;
    gpu_check_launch(label);
    return lab_verdict(lab, label, compare_chase(j, 0, label));
}

enum row_status verify_chase_awkward(struct lab *lab, struct chain *c, const struct lab4_variant *v,
                                     const char *build, size_t extra, int extra_only)
{
    static const size_t chains[] = {1, 2, 3, 61, 4099, 100003, 0};
    char label[160];
    size_t count = sizeof chains / sizeof chains[0];
    for (size_t s = extra_only ? count - 1 : 0; s < count; s++) {
        size_t slots = s + 1 < count                         ? chains[s]
                       : extra < c->max_words / STRIDE_WORDS ? extra
                                                             : c->max_words / STRIDE_WORDS;
        if (!slots)
            continue;
        chain_build(c, slots);
        long long round = slots < WALK_CHECKED_MAX ? (long long)slots : WALK_CHECKED_MAX;
        long long hops[] = {0, 1, 2, 31, round + 5};
        for (int h = 0; h < 5; h++) {
            struct chase_job j = {v, c, hops[h], rng_next(&c->rng) % slots, 0};
            snprintf(label, sizeof label, "%s (%s, %zu links, %lld hops)", v->name, build, slots,
                     hops[h]);
            enum row_status st = verify_chase(lab, &j, label);
            if (st != ROW_OK)
                return st;
        }
    }
    return ROW_OK;
}

enum row_status chase_point(struct lab *lab, struct chain *c, const struct lab4_variant *v,
                            const char *build, long long extra, double floor_ns,
                            struct chase_point *p)
{
    char label[160];
    size_t bytes = c->slots * STRIDE_WORDS * 4;
    memset(p, 0, sizeof *p);
    warm_kernel<<<4 * lab->gpu.sms, 256>>>(c->links, c->slots * STRIDE_WORDS, c->sink);
    gpu_check_launch("the warm-up read");
    long long hops[2] = {c->slots <= FIRST_PASS_MAX ? (long long)c->slots : 4096, 0};
    hops[1] = hops[0] + extra;
    for (int k = 0; k < 2; k++) /* never back where it began: a chase that does nothing must fail */
        hops[k] += c->slots > 1 && hops[k] % (long long)c->slots == 0;
    struct chase_job j = {v, c, hops[1], rng_next(&c->rng) % c->slots, 0};
    snprintf(label, sizeof label, "%s (%s, %zu bytes)", v->name, build, bytes);
    p->row =
        (struct row){v->name, (long long)bytes, c->slots, 4.0 * hops[1], 0, {0, 0, 0, 0}, ROW_OK};
    p->row.status = verify_chase(lab, &j, label);
    if (p->row.status != ROW_OK || lab->opts.check)
        return p->row.status;
    struct summary ms[2];
    memset(ms, 0, sizeof ms);
    for (int k = 0; k < 2 && p->row.status == ROW_OK; k++) {
        struct timing_config cfg = lab_timing(lab, 0);
        cfg.warmup = 1;
        if (!lab->opts.reps) /* a chase's time varies little from launch to launch */
            cfg.reps = lab->opts.quick ? 3 : lab->opts.full ? 9 : 5;
        j.hops = hops[k];
        struct timed_job t = {label,      launch_chase, &j,
                              vary_chase, check_chase,  {0, 0, 0, 0, (double)hops[k], floor_ns}};
        p->row.status = lab_time(lab, &t, &cfg, &ms[k]);
    }
    p->row.ms = ms[1];
    p->hops_short = hops[0];
    p->ms_short = ms[0].median;
    p->ns_per_hop = (ms[1].median - ms[0].median) * 1e6 / (double)(hops[1] - hops[0]);
    return p->row.status;
}

const char *chase_extras(char *text, size_t size, const char *head, const struct chase_point *p,
                         double clock_mhz)
{
    if (p->row.status == ROW_OK)
        snprintf(text, size, "%s,%lld,%d,%lld,%.6f,%.2f,%.1f", head, p->row.param, STRIDE_WORDS * 4,
                 p->hops_short, p->ms_short, p->ns_per_hop, p->ns_per_hop * clock_mhz / 1e3);
    else
        snprintf(text, size, "%s,%lld,%d,,,,", head, p->row.param, STRIDE_WORDS * 4);
    return text;
}
