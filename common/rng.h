/* rng.h - seeded, reproducible random inputs (splitmix64). Never zeros or constants:
 * every lab fills its inputs from here so that --seed reproduces a run. The k-th number
 * drawn depends only on the state and k (rng_ahead), so the fills run on every core
 * (OpenMP) and give what as many rng_next calls one after another would. */
#ifndef MEMLAB_RNG_H
#define MEMLAB_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rng {
    uint64_t state;
};

struct rng rng_seeded(uint64_t seed);
uint64_t rng_next(struct rng *r);
/* What the (k+1)-th rng_next from here would return, without drawing; rng_skip draws k. */
uint64_t rng_ahead(const struct rng *r, uint64_t k);
void rng_skip(struct rng *r, uint64_t k);
/* Uniform in [lo, hi). */
double rng_uniform(struct rng *r, double lo, double hi);
void rng_fill_floats(struct rng *r, float *out, size_t n, float lo, float hi);
/* Uniform integers in [lo, hi]. */
void rng_fill_ints(struct rng *r, int *out, size_t n, int lo, int hi);
/* Uniform words in [0, bound), bound at most 2^32: each number's top 32 bits times bound. */
void rng_fill_below(struct rng *r, uint32_t *out, size_t n, uint64_t bound);

/* A non-zero number that no seed predicts (the first call reads /dev/urandom): the keys of
 * the timed repetitions' inputs (vary.h) and the repetitions checked. */
uint64_t rng_unpredictable(void);

#ifdef __cplusplus
}
#endif

#endif
