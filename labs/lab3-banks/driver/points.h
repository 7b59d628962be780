/* points.h - lab 3's points and what each one reads (trusted, host code only: used by
 * driver.cu). A point is one (variant, parameter) of an experiment; per kernels.h's contract:
 *
 *   access_of        where read number `round` of a thread goes, in the input and in shared memory
 *   expected_result  what a thread must write (expected_table: every thread of every input tile)
 *   model_wavefronts the bank model's wavefronts per request (bank_model.h)
 *   requests_of      warp-wide shared-memory loads per launch
 *   dram_bytes_of    the global memory one launch touches
 */
#ifndef LAB3_POINTS_H
#define LAB3_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

enum experiment_kind { STRIDE, STRUCT, TILE };

struct experiment {
    enum experiment_kind kind;
    const char *name, *param_name;
    const char *variants[3];
    int params[LAB3_STRIDE_MAX], param_count; /* default and --full */
    int quick[8], quick_count;
};

/* One (variant, parameter) of an experiment, and what the contract makes of it. */
struct point {
    const struct experiment *e;
    const struct lab3_variant *v;
    int variant_index;   /* in lab3_variants */
    int param;           /* passed to the launcher */
    int shown;           /* the CSV's param: the stride, k, or the tile's row pitch */
    int word_bytes;      /* bytes per shared-memory read */
    int tile_words;      /* 32-bit words per input tile */
    int rounds_per_pass; /* reads per thread in one pass over the tile */
    int passes;
};

/* What every thread of a block must write, for each input tile (expected_result). */
void expected_table(const struct point *p, const uint32_t *host_in,
                    uint32_t table[LAB3_INPUT_TILES][LAB3_BLOCK]);

/* The bank model's wavefronts per request, averaged over one pass of warp 0 (every warp
 * and every pass see the same pattern). */
double model_wavefronts(const struct point *p);

/* Warp-wide shared-memory loads of one launch of n threads. */
double requests_of(const struct point *p, size_t n);

/* Global memory one launch touches: the input tiles its blocks copy in (block b copies tile
 * b % LAB3_INPUT_TILES), and one output word per thread. */
double dram_bytes_of(const struct point *p, size_t n);

#endif
