/* points.cu - lab 3's points (see points.h). */
#include "points.h"

#include "bank_model.h"

/* Where read number `round` (within a pass) of thread (warp, lane) goes, per kernels.h:
 * the first 32-bit word in the input tile, and the word (of word_bytes) in shared memory. */
struct access {
    size_t input_word, shared_word;
};

static struct access access_of(const struct point *p, int warp, int lane, int round)
{
    struct access a;
    if (p->e->kind == STRIDE) {
        size_t word = (size_t)lane * p->param + warp + round;
        a.input_word = word * (p->word_bytes / 4);
        a.shared_word = word;
    } else if (p->e->kind == STRUCT) {
        size_t k = p->param, f = round / 32, i = lane + 32 * (round % 32);
        a.input_word = i * k + f;
        if (!strcmp(p->v->name, "struct_soa"))
            a.shared_word = f * LAB3_STRUCTS + i;
        else if (!strcmp(p->v->name, "struct_padded"))
            a.shared_word = i * (k | 1) + f;
        else
            a.shared_word = a.input_word;
    } else {
        int rows = !strcmp(p->v->name, "tile_rows");
        size_t row = 32 * warp + (rows ? round : lane), col = rows ? lane : round;
        a.input_word = row * LAB3_TILE_COLS + col;
        a.shared_word = row * p->shown + col;
    }
    return a;
}

/* What thread `thread` of a block working on input tile `tile` must write. The passes
 * repeat one pass's reads, and lab3_mix is affine (acc -> 31 acc + word): after a pass
 * of L words acc becomes acc * 31^L + h, where h is the pass's checksum from 0. */
static uint32_t expected_result(const struct point *p, const uint32_t *host_in, int tile,
                                int thread)
{
    const uint32_t *words = host_in + (size_t)tile * p->tile_words;
    int parts = p->word_bytes / 4;
    uint32_t h = 0, scale = 1;
    for (int r = 0; r < p->rounds_per_pass; r++) {
        struct access a = access_of(p, thread / 32, thread % 32, r);
        for (int c = 0; c < parts; c++) {
            h = lab3_mix(h, words[a.input_word + c]);
            scale *= 31u;
        }
    }
    uint32_t acc = 0;
    for (int pass = 0; pass < p->passes; pass++)
        acc = acc * scale + h;
    return acc;
}

void expected_table(const struct point *p, const uint32_t *host_in,
                    uint32_t table[LAB3_INPUT_TILES][LAB3_BLOCK])
{
    for (int t = 0; t < LAB3_INPUT_TILES; t++)
        for (int thread = 0; thread < LAB3_BLOCK; thread++)
            table[t][thread] = expected_result(p, host_in, t, thread);
}

double model_wavefronts(const struct point *p)
{
    double sum = 0;
    size_t words[32];
    for (int r = 0; r < p->rounds_per_pass; r++) {
        for (int lane = 0; lane < 32; lane++)
            words[lane] = access_of(p, 0, lane, r).shared_word;
        sum += bank_wavefronts(words, 32, p->word_bytes);
    }
    return sum / p->rounds_per_pass;
}

double requests_of(const struct point *p, size_t n)
{
    size_t blocks = (n + LAB3_BLOCK - 1) / LAB3_BLOCK;
    return (double)blocks * LAB3_WARPS * p->rounds_per_pass * p->passes;
}

double dram_bytes_of(const struct point *p, size_t n)
{
    size_t blocks = (n + LAB3_BLOCK - 1) / LAB3_BLOCK;
    size_t tiles = blocks < LAB3_INPUT_TILES ? blocks : LAB3_INPUT_TILES;
    return 4.0 * ((double)tiles * p->tile_words + n);
}
