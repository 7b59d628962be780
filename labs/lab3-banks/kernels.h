/* kernels.h - lab 3 (shared-memory banks): the contract between kernels.cu and the driver.
 * Trusted: the grader uses its own copy of this file, never a submitted one.
 *
 * Every variant runs blocks of LAB3_BLOCK threads. Block b copies input tile
 * b % LAB3_INPUT_TILES into shared memory, then each thread reads shared words in a fixed
 * order and folds every 32-bit word it reads into acc = lab3_mix(acc, word), starting from
 * acc = 0. Thread g = b * LAB3_BLOCK + t writes out[g] = acc for g < n; nothing else in
 * `out` may change, and `in` must not change. lane = t % 32, warp = t / 32.
 *
 * stride_4byte, stride_8byte, stride_16byte (param = stride s, 1..LAB3_STRIDE_MAX):
 *   `in` is an array of w-byte words (w = 4, 8, 16); a tile is LAB3_STRIDE_TILE_WORDS of
 *   them. In round j = 0 .. LAB3_STRIDE_ROUNDS-1 the thread reads word lane*s + warp + j
 *   of its tile and mixes its 32-bit parts in address order.
 * struct_aos, struct_soa, struct_padded (param = k, 1..LAB3_K_MAX fields per struct):
 *   a tile is LAB3_STRUCTS structs of k 32-bit fields, stored one struct after another
 *   (field f of struct i is word i*k + f of the tile). Shared layouts:
 *     struct_aos     as in the input: word i*k + f
 *     struct_soa     one array per field: word f*LAB3_STRUCTS + i
 *     struct_padded  one struct after another, k rounded up to odd: word i*(k|1) + f
 *   Order: for p < LAB3_PASSES, for f < k, for q < 32: field f of struct lane + 32*q.
 *   All three give the same result; only the layout (and the time) differ.
 * tile_rows, tile_columns, tile_columns_padded (param ignored):
 *   a tile is LAB3_TILE_ROWS x 32 words, row-major; warp w owns rows 32w .. 32w+31.
 *   Order: for p < LAB3_PASSES, for c < 32:
 *     tile_rows                    element (32w + c, lane): the warp reads a row
 *     tile_columns(_padded)        element (32w + lane, c): the warp reads a column
 *   tile_columns keeps rows 32 words apart in shared memory, tile_columns_padded 33.
 * hist_global_atomics, hist_shared_privatised (param = bins, 1..LAB3_HIST_BINS_MAX):
 *   `in` holds n samples, ints in (-bins, bins); sample s counts in bin lab3_bin(s, bins).
 *   When the launch's work is done, out[b] for b < bins is the number of samples in bin b,
 *   whatever `out` held before; nothing past out[bins - 1] changes, and `in` does not.
 *   These launchers choose their own grid (the rest use ceil(n / LAB3_BLOCK) blocks).
 */
#ifndef LAB3_KERNELS_H
#define LAB3_KERNELS_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "lab.h"

#define LAB3_BLOCK 256
#define LAB3_WARPS (LAB3_BLOCK / 32)
#define LAB3_INPUT_TILES 16
#define LAB3_PASSES 32

#define LAB3_STRIDE_MAX 33
#define LAB3_STRIDE_ROUNDS 1024
/* Enough words for lane*s + warp + j at the largest stride, rounded up to 32 words. */
#define LAB3_STRIDE_TILE_WORDS                                                                     \
    ((31 * LAB3_STRIDE_MAX + LAB3_WARPS - 1 + LAB3_STRIDE_ROUNDS + 31) / 32 * 32)

#define LAB3_STRUCTS 1024
#define LAB3_K_MAX 8

#define LAB3_TILE_ROWS LAB3_BLOCK
#define LAB3_TILE_COLS 32

#define LAB3_HIST_BINS_MAX 4096

/* The checksum every thread keeps: it depends on each word and on the order of reading. */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline uint32_t
    lab3_mix(uint32_t acc, uint32_t word)
{
    return acc * 31u + word;
}

/* The bin of a histogram sample: s itself, or s + bins for a negative s (the driver negates
 * samples between timed repetitions, which moves a sample from bin b to bin bins - b). */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline int
    lab3_bin(int sample, int bins)
{
    return sample < 0 ? sample + bins : sample;
}

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the variant's kernel on `stream` (the bank variants: ceil(n / LAB3_BLOCK) blocks of
 * LAB3_BLOCK threads); return LAB_OK or LAB_NOT_IMPLEMENTED. */
typedef int (*lab3_launch_fn)(uint32_t *out, const uint32_t *in, size_t n, int param,
                              cudaStream_t stream);

struct lab3_variant {
    const char *name;
    const char *idea;
    lab3_launch_fn launch;
};

extern const struct lab3_variant lab3_variants[];
extern const int lab3_variant_count;

#ifdef __cplusplus
}
#endif

#endif
