/* vary.h - the inputs of a timed point change between its repetitions.
 *
 * A student kernel is untrusted code: a launcher could notice that a call repeats the last
 * one and skip the work, or replay a result it remembered. So before every timed repetition
 * the driver flips the sign of about half of the input's elements, chosen by a fresh random
 * key that no kernel can predict: element i of pattern `key` is negated when
 * vary_flips(i, key). Key 0 is the input as written. Negation is exact (floats: the sign
 * bit; ints: two's complement, for values kept away from INT_MIN), so the driver knows the
 * reference of any pattern: it applies vary_float / vary_int to the input as written.
 * Keys come from rng_unpredictable() (rng.h), not from --seed.
 * This header is plain C (host code uses it too) and CUDA (device code).
 */
#ifndef MEMLAB_VARY_H
#define MEMLAB_VARY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define VARY_FN __host__ __device__ static inline
#else
#define VARY_FN static inline
#endif

/* Is element i negated in pattern key? Key 0: never. Two multiplies mix (i, key), so that a
 * driver can check hundreds of millions of elements on the CPU; about half of any range
 * flips, in no pattern a kernel could use without reading every element. */
VARY_FN int vary_flips(uint64_t i, uint64_t key)
{
    if (!key)
        return 0;
    uint64_t z = (i + key) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 29)) * (key | 1);
    return (int)(z >> 63);
}

/* Element i of the input as written, as pattern key has it. (vary_float is for values that
 * are numbers; vary_word flips the sign bit of any 32-bit pattern, NaNs included.) */
VARY_FN float vary_float(float v, uint64_t i, uint64_t key)
{
    return vary_flips(i, key) ? -v : v;
}
VARY_FN int vary_int(int v, uint64_t i, uint64_t key)
{
    return vary_flips(i, key) ? -v : v;
}
VARY_FN uint32_t vary_word(uint32_t float_bits, uint64_t i, uint64_t key)
{
    return vary_flips(i, key) ? float_bits ^ 0x80000000u : float_bits;
}

#ifdef __CUDACC__
#include <cuda_runtime.h>
/* Bring n device elements from pattern `from` to pattern `to` (queued on stream 0). */
void gpu_vary_floats(float *x, size_t n, uint64_t from, uint64_t to);
void gpu_vary_ints(int *x, size_t n, uint64_t from, uint64_t to);
#endif

#endif
