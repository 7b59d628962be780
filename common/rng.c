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

uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    double unit = (double)(rng_next(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
}

void rng_fill_floats(struct rng *r, float *out, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (float)rng_uniform(r, lo, hi);
}

void rng_fill_ints(struct rng *r, int *out, size_t n, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (int)((int64_t)lo + (int64_t)(rng_next(r) % span));
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
