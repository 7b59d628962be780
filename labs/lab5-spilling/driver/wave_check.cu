/* wave_check.cu - lab 5's time step on the CPU and its checks (see wave_check.h). */
#include "wave_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double coef[R + 1] = {LAB5_C0, LAB5_C1, LAB5_C2, LAB5_C3, LAB5_C4};

void wave_data_init(struct wave_data *d, size_t points, size_t all_rows, size_t sampled,
                    uint64_t seed)
{
    d->capacity = (points + 63) / 64 * 64;
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

size_t grid_points(struct grid g)
{
    return (size_t)g.nx * g.ny * g.nz;
}

size_t interior_points(struct grid g)
{
    if (g.nx <= 2 * R || g.ny <= 2 * R || g.nz <= 2 * R)
        return 0;
    return (size_t)(g.nx - 2 * R) * (g.ny - 2 * R) * (g.nz - 2 * R);
}

static int is_interior(struct grid g, int x, int y, int z)
{
    return x >= R && x < g.nx - R && y >= R && y < g.ny - R && z >= R && z < g.nz - R;
}

static int all_rows(const struct reference *ref)
{
    return ref->rows == ref->g.ny * ref->g.nz;
}

/* Distinct candidates inside [0, n), ascending, into out (at most 12). */
static int pick(int *out, const int *candidates, int n)
{
    int kept = 0;
    for (int v = 0; v < n; v++)
        for (int k = 0; k < 12; k++)
            if (candidates[k] == v) {
                out[kept++] = v;
                break;
            }
    return kept;
}

static void choose_rows(struct reference *ref)
{
    struct grid g = ref->g;
    int all = grid_points(g) <= ALL_ROWS_MAX;
    int ys[] = {0,
                R - 1,
                R,
                R + 1,
                R + LAB5_BLOCK_Y - 1,
                R + LAB5_BLOCK_Y,
                g.ny / 2,
                g.ny - R - LAB5_BLOCK_Y,
                g.ny - R - 2,
                g.ny - R - 1,
                g.ny - R,
                g.ny - 1};
    int zs[] = {0,
                R - 1,
                R,
                R + 1,
                R + LAB5_Z_CHUNK - 1,
                R + LAB5_Z_CHUNK,
                g.nz / 2,
                g.nz - R - LAB5_Z_CHUNK,
                g.nz - R - 2,
                g.nz - R - 1,
                g.nz - R,
                g.nz - 1};
    int yk[12], zk[12], ny = all ? g.ny : pick(yk, ys, g.ny), nz = all ? g.nz : pick(zk, zs, g.nz);
    ref->rows = ny * nz;
    ref->y = (int *)malloc((ref->rows + 1) * sizeof(int));
    ref->z = (int *)malloc((ref->rows + 1) * sizeof(int));
    if (!ref->y || !ref->z)
        memlab_die(EXIT_USAGE, "out of host memory for %d rows", ref->rows);
    for (int a = 0; a < nz; a++)
        for (int b = 0; b < ny; b++) {
            ref->y[a * ny + b] = all ? b : yk[b];
            ref->z[a * ny + b] = all ? a : zk[a];
        }
}

/* Word j of the inputs as sign pattern `key` has it. */
static double input_at(const struct wave_data *d, size_t j, uint64_t key)
{
    return vary_float(d->host_in[j], j, key);
}

void reference_values(struct reference *ref, const struct wave_data *d, uint64_t key)
{
    struct grid g = ref->g;
    size_t sy = g.nx, sz = (size_t)g.nx * g.ny;
    ref->key = key;
    for (int k = 0; k < ref->rows; k++) {
        double *out = ref->values + (size_t)k * g.nx;
        for (int x = 0; x < g.nx; x++) {
            if (!is_interior(g, x, ref->y[k], ref->z[k])) {
                out[x] = NAN;
                continue;
            }
            size_t i = ref->z[k] * sz + ref->y[k] * sy + x;
            double centre = input_at(d, i, key), lap = coef[0] * centre;
            for (int r = 1; r <= R; r++)
                lap += coef[r] * (input_at(d, i - r, key) + input_at(d, i + r, key) +
                                  input_at(d, i - r * sy, key) + input_at(d, i + r * sy, key) +
                                  input_at(d, i - r * sz, key) + input_at(d, i + r * sz, key));
            out[x] = 2 * centre - input_at(d, d->capacity + i, key) +
                     input_at(d, 2 * d->capacity + i, key) * lap;
        }
    }
}

void reference_build(struct reference *ref, const struct wave_data *d, struct grid g)
{
    ref->g = g;
    choose_rows(ref);
    ref->values = (double *)malloc(((size_t)ref->rows * g.nx + 1) * sizeof(double));
    if (!ref->values)
        memlab_die(EXIT_USAGE, "out of host memory for the reference of a %dx%dx%d grid", g.nx,
                   g.ny, g.nz);
    double sum_c = fabs(coef[0]);
    for (int r = 1; r <= R; r++)
        sum_c += 6 * fabs(coef[r]);
    /* |cur|, |prev| < 1 and |vsq| < 0.2: no partial sum grows beyond this */
    ref->tol = tolerance_for_sum(6 * R + 4, 3.0 + 0.2 * sum_c);
    reference_values(ref, d, 0);
}

void reference_free(struct reference *ref)
{
    free(ref->y);
    free(ref->z);
    free(ref->values);
}

/* Copy the checked rows of a device grid to d->got (row k at k*nx). */
static void fetch_rows(struct wave_data *d, const float *dev, const struct reference *ref)
{
    struct grid g = ref->g;
    if (all_rows(ref)) {
        CUDA_CHECK(cudaMemcpy(d->got, dev, grid_points(g) * sizeof(float), cudaMemcpyDeviceToHost));
        return;
    }
    for (int k = 0; k < ref->rows; k++)
        CUDA_CHECK(cudaMemcpy(d->got + (size_t)k * g.nx,
                              dev + ((size_t)ref->z[k] * g.ny + ref->y[k]) * g.nx,
                              g.nx * sizeof(float), cudaMemcpyDeviceToHost));
}

static size_t compare_next(const char *label, const struct reference *ref, struct wave_data *d)
{
    struct grid g = ref->g;
    size_t bad = 0, checked = 0;
    fetch_rows(d, d->next, ref);
    for (int k = 0; k < ref->rows; k++)
        for (int x = 0; x < g.nx; x++, checked++) {
            int y = ref->y[k], z = ref->z[k], interior = is_interior(g, x, y, z);
            float v = d->got[(size_t)k * g.nx + x];
            double want = ref->values[(size_t)k * g.nx + x];
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            if ((interior ? values_close(v, want, ref->tol) : bits == POISON_WORD) ||
                bad++ >= VERIFY_REPORT_CAP)
                continue;
            if (interior)
                memlab_warn("%s: point (%d, %d, %d): expected %.9g, got %.9g", label, x, y, z, want,
                            (double)v);
            else
                memlab_warn(
                    "%s: boundary point (%d, %d, %d) was written (0x%08x); it must stay untouched",
                    label, x, y, z, (unsigned)bits);
        }
    if (all_rows(ref)) {
        uint32_t guard[GUARD_WORDS];
        CUDA_CHECK(
            cudaMemcpy(guard, d->next + grid_points(g), sizeof guard, cudaMemcpyDeviceToHost));
        for (int w = 0; w < GUARD_WORDS; w++)
            if (guard[w] != POISON_WORD && bad++ < VERIFY_REPORT_CAP)
                memlab_warn("%s: word %d after the grid's last point was written", label, w);
    }
    if (bad)
        memlab_warn("%s: %zu of %zu checked points wrong", label, bad, checked);
    return bad;
}

/* Checked rows of cur, prev and vsq that differ, in any bit, from the reference's pattern. */
static size_t inputs_changed(const char *label, const struct reference *ref, struct wave_data *d)
{
    static const char *const names[] = {"cur", "prev", "vsq"};
    struct grid g = ref->g;
    size_t changed = 0;
    for (int a = 0; a < 3; a++) {
        size_t base = a * d->capacity, rows = 0;
        fetch_rows(d, d->in + base, ref);
        for (int k = 0; k < ref->rows; k++) {
            size_t first = base + ((size_t)ref->z[k] * g.ny + ref->y[k]) * g.nx;
            for (int x = 0; x < g.nx; x++) {
                float want = vary_float(d->host_in[first + x], first + x, ref->key);
                if (memcmp(&d->got[(size_t)k * g.nx + x], &want, sizeof want)) {
                    rows++;
                    break;
                }
            }
        }
        if (rows)
            memlab_warn("%s modified its input %s (%zu rows changed)", label, names[a], rows);
        changed += rows;
    }
    return changed;
}

size_t check_wave(const char *label, const struct reference *ref, struct wave_data *d)
{
    return compare_next(label, ref, d) + inputs_changed(label, ref, d);
}
