/* rng.c - splitmix64 generator (see rng.h). */
#define _POSIX_C_SOURCE 200809L
#include "rng.h"

#include <stdio.h>
#include <time.h>

struct rng rng_seeded(uint64_t seed)
{
    struct rng r = {seed ^ 0x6a09e667f3bcc909ull};
    return r;
}

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ull
/* Below this many numbers a fill stays on one core: starting threads costs more. */
#define PARALLEL_FILL 65536

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rng_next(struct rng *r)
{
    return mix(r->state += GOLDEN_GAMMA);
}

uint64_t rng_ahead(const struct rng *r, uint64_t k)
{
    return mix(r->state + (k + 1) * GOLDEN_GAMMA);
}

void rng_skip(struct rng *r, uint64_t k)
{
    r->state += k * GOLDEN_GAMMA;
}

/* z as a number uniform in [lo, hi): its top 53 bits as a fraction. */
static double uniform_of(uint64_t z, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(z >> 11) * 0x1.0p-53);
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    return uniform_of(rng_next(r), lo, hi);
}

void rng_fill_floats(struct rng *r, float *out, size_t n, float lo, float hi)
{
#pragma omp parallel for if (n >= PARALLEL_FILL)
    for (size_t i = 0; i < n; i++)
        out[i] = (float)uniform_of(rng_ahead(r, i), lo, hi);
    rng_skip(r, n);
}

void rng_fill_ints(struct rng *r, int *out, size_t n, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
#pragma omp parallel for if (n >= PARALLEL_FILL)
    for (size_t i = 0; i < n; i++)
        out[i] = (int)((int64_t)lo + (int64_t)(rng_ahead(r, i) % span));
    rng_skip(r, n);
}

void rng_fill_below(struct rng *r, uint32_t *out, size_t n, uint64_t bound)
{
#pragma omp parallel for if (n >= PARALLEL_FILL)
    for (size_t i = 0; i < n; i++) /* a multiply, no division */
        out[i] = (uint32_t)(((rng_ahead(r, i) >> 32) * bound) >> 32);
    rng_skip(r, n);
}

uint64_t rng_unpredictable(void)
{
    static struct rng r;
    if (!r.state) {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&r.state, sizeof r.state, 1, f) != 1) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            r.state = (uint64_t)t.tv_sec * 1000000007ull ^ (uint64_t)t.tv_nsec;
        }
        if (f)
            fclose(f);
    }
    uint64_t z;
    while (!(z = rng_next(&r)))
        ;
    return z;
}
