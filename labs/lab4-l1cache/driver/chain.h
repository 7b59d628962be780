/* chain.h - lab 4's chase points: the chain, the reference and the timing of a footprint
 * (trusted, used by driver.cu).
 *
 * The chain (common/probes/chase.h) has one link per 32-byte sector, in one random cycle through
 * the footprint; every other word of the buffer holds a random index inside the buffer, so a
 * chase that reads a wrong word goes astray but stays in bounds. A timed chase starts at a
 * link of its own each repetition, and its 32 lanes' ends are checked against the host's walk.
 */
#ifndef LAB4_CHAIN_H
#define LAB4_CHAIN_H

#include "harness.h"
#include "kernels.h"

#define STRIDE_WORDS 8          /* one link per 32-byte sector */
#define LOAD_FLOOR_CYCLES 10    /* no load returns faster (an H100's L1 hit: about 35) */
#define FIRST_PASS_MAX 16384    /* links: a chain this short gets its first pass timed apart */
#define WALK_CHECKED_MAX 131072 /* links: a check walks once round a chain up to this long */
#define CHAIN_POISON 0xFFFFFFFFu

struct chain {
    unsigned *links, *ends, *sink; /* device: the buffer, 2 x LANES result words, a scratch word */
    size_t max_words, slots;
    uint32_t *image; /* host image of the buffer */
    unsigned *order; /* the cycle's order of links (chase_order) */
    struct rng rng;
};

struct chase_job {
    const struct lab4_variant *v;
    struct chain *c;
    long long hops;
    size_t base_step, step; /* where it starts in the cycle: as written, and now */
};

void chain_open(struct chain *c, size_t bytes, uint64_t seed);

/* A new cycle through the first `slots` links of the buffer. */
void chain_build(struct chain *c, size_t slots);

int launch_chase(void *ctx, cudaStream_t stream);

/* Awkward chains (and one of `extra` links, from --n; only that one with extra_only), each
 * with 0, 1, 2, 31 and links + 5 hops from a random link; on a chain longer than
 * WALK_CHECKED_MAX links, that many + 5 hops. One lane walking once round millions of links is
 * seconds of DRAM latency (6.5 million: 3 s on an H100), and it finds nothing that walking
 * round the 100003-link chain does not. */
enum row_status verify_chase_awkward(struct lab *lab, struct chain *c, const struct lab4_variant *v,
                                     const char *build, size_t extra, int extra_only);

/* What a timed footprint gives. */
struct chase_point {
    struct row row; /* ms: the long chase */
    long long hops_short;
    double ms_short, ns_per_hop;
};

/* One footprint, on the chain as built: warm the L2 with it (every SM reads it), verify the
 * long chase, then time a short and a long one. The short one is the launch plus, where the
 * chain is short enough to fit an L1, its first (cold) pass; ns_per_hop is what the `extra`
 * hops of the long one cost beyond it. */
enum row_status chase_point(struct lab *lab, struct chain *c, const struct lab4_variant *v,
                            const char *build, long long extra, double floor_ns,
                            struct chase_point *p);

/* A chase row's own CSV columns after `head`: the footprint, the stride and the timings (empty
 * figures unless the point is OK). */
const char *chase_extras(char *text, size_t size, const char *head, const struct chase_point *p,
                         double clock_mhz);

#endif
