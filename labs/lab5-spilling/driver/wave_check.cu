/* wave_check.cu - lab 5's time step on the CPU and its checks (see wave_check.h). */
#include "wave_check.h"

#include <math.h>
#include <stdlib.h>

void wave_data_init(struct wave_data *d, size_t points, size_t all_rows, size_t sampled,
                    uint64_t seed)
{
    d->capacity = (points + 63) / 64 * 64;
    struct wave_stencil stencil = {{R, {LAB5_C0, LAB5_C1, LAB5_C2, LAB5_C3, LAB5_C4}}, d->capacity};
    d->stencil = stencil;
    d->in =
        (float *)gpu_alloc((4 * d->capacity + GUARD_WORDS) * sizeof(float), "lab 5's four grids");
    d->next = d->in + 3 * d->capacity;
    d->host_in = (float *)malloc(3 * d->capacity * sizeof(float));
    d->got = (float *)malloc((all_rows > sampled ? all_rows : sampled) * sizeof(float));
    if (!d->host_in || !d->got)
        memlab_die(EXIT_USAGE, "out of host memory for %.1f MiB of inputs: use a smaller --n",
                   3.0 * d->capacity * 4 / 1048576.0);
    struct rng rng = rng_seeded(seed);
    rng_fill_floats(&rng, d->host_in, 2 * d->capacity, -1.0f, 1.0f);
    rng_fill_floats(&rng, d->host_in + 2 * d->capacity, d->capacity, 0.01f, 0.2f);
    CUDA_CHECK(
        cudaMemcpy(d->in, d->host_in, 3 * d->capacity * sizeof(float), cudaMemcpyHostToDevice));
}

void wave_data_free(struct wave_data *d)
{
    gpu_free(d->in);
    free(d->host_in);
    free(d->got);
}

/* next = 2*cur - prev + vsq * lap at interior point i of the inputs (cur | prev | vsq). */
static double wave_point(const void *stencil, const float *in, struct grid g, ptrdiff_t i,
                         uint64_t key)
{
    const struct wave_stencil *w = (const struct wave_stencil *)stencil;
    ptrdiff_t c = (ptrdiff_t)w->capacity;
    double lap = star_point(&w->laplacian, in, g, i, key);
    return 2 * (double)input_at(in, i, key) - input_at(in, c + i, key) +
           input_at(in, 2 * c + i, key) * lap;
}

void wave_reference(struct reference *ref, const struct wave_data *d, struct grid g)
{
    const double *c = d->stencil.laplacian.c;
    double sum_c = fabs(c[0]);
    for (int r = 1; r <= R; r++)
        sum_c += 6 * fabs(c[r]);
    /* |cur|, |prev| < 1 and |vsq| < 0.2: no partial sum grows beyond this */
    reference_build(ref, d->host_in, g, R, grid_points(g) <= ALL_ROWS_MAX, LAB5_BLOCK_Y,
                    LAB5_Z_CHUNK, wave_point, &d->stencil,
                    tolerance_for_sum(6 * R + 4, 3.0 + 0.2 * sum_c));
}

/* With every row checked, the words after the grid's last point: still poisoned. */
static size_t guard_written(const char *label, const struct reference *ref,
                            const struct wave_data *d)
{
    struct grid g = ref->g;
    if (ref->rows.count != g.ny * g.nz)
        return 0;
    uint32_t guard[GUARD_WORDS];
    CUDA_CHECK(cudaMemcpy(guard, d->next + grid_points(g), sizeof guard, cudaMemcpyDeviceToHost));
    size_t written = 0;
    for (int w = 0; w < GUARD_WORDS; w++)
        if (guard[w] != GRID_POISON_WORD && written++ < VERIFY_REPORT_CAP)
            memlab_warn("%s: word %d after the grid's last point was written", label, w);
    if (written)
        memlab_warn("%s: %zu of the %d words after the grid written", label, written, GUARD_WORDS);
    return written;
}

size_t check_wave(const char *label, const struct reference *ref, struct wave_data *d)
{
    static const char *const names[] = {"cur", "prev", "vsq"};
    fetch_rows(d->got, d->next, ref->g, &ref->rows);
    size_t bad = compare_rows(label, ref, d->got) + guard_written(label, ref, d);
    for (int a = 0; a < 3; a++) {
        ptrdiff_t base = (ptrdiff_t)a * d->capacity;
        fetch_rows(d->got, d->in + base, ref->g, &ref->rows);
        bad += input_changed(label, names[a], ref, d->got, d->host_in, base);
    }
    return bad;
}
