/* grid3d.cu - 3D grids and the CPU reference of a stencil on them (see grid3d.h). */
#include "grid3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"
#include "gpu.h"
#include "proof.h"
#include "rng.h"
#include "vary.h"

size_t grid_points(struct grid g)
{
    return (size_t)g.nx * g.ny * g.nz;
}

size_t interior_points(struct grid g, int r)
{
    if (g.nx <= 2 * r || g.ny <= 2 * r || g.nz <= 2 * r)
        return 0;
    return (size_t)(g.nx - 2 * r) * (g.ny - 2 * r) * (g.nz - 2 * r);
}

int is_interior(struct grid g, int r, int x, int y, int z)
{
    return x >= r && x < g.nx - r && y >= r && y < g.ny - r && z >= r && z < g.nz - r;
}

float input_at(const float *in, ptrdiff_t i, uint64_t key)
{
    return vary_float(in[i], (uint64_t)i, key);
}

double star_point(const void *stencil, const float *in, struct grid g, ptrdiff_t i, uint64_t key)
{
    const struct star_stencil *s = (const struct star_stencil *)stencil;
    const double *c = s->c;
    ptrdiff_t sx = 1, sy = g.nx, sz = (ptrdiff_t)g.nx * g.ny;
    double sum = c[0] * input_at(in, i, key);
    for (int d = 1; d <= s->r; d++)
        sum += c[d] * input_at(in, i - d * sx, key) + c[d] * input_at(in, i + d * sx, key) +
               c[d] * input_at(in, i - d * sy, key) + c[d] * input_at(in, i + d * sy, key) +
               c[d] * input_at(in, i - d * sz, key) + c[d] * input_at(in, i + d * sz, key);
    return sum;
}

static void rows_alloc(struct rows *s, int count, const char *what)
{
    s->count = count;
    s->y = (int *)malloc(count * sizeof(int));
    s->z = (int *)malloc(count * sizeof(int));
    if (!s->y || !s->z)
        memlab_die(EXIT_USAGE, "out of host memory for %s", what);
}

void rows_all(struct rows *s, struct grid g)
{
    char what[96];
    snprintf(what, sizeof what, "the rows of a %dx%dx%d grid", g.nx, g.ny, g.nz);
    rows_alloc(s, g.ny * g.nz, what);
    for (int k = 0; k < s->count; k++) {
        s->y[k] = k % g.ny;
        s->z[k] = k / g.ny;
    }
}

/* Distinct values of the candidates that lie in [0, n), ascending. */
static int pick(int *out, const int *candidates, int count, int n)
{
    int kept = 0;
    for (int v = 0; v < n; v++)
        for (int k = 0; k < count; k++)
            if (candidates[k] == v) {
                out[kept++] = v;
                break;
            }
    return kept;
}

void rows_sampled(struct rows *s, struct grid g, int r, int block_y, int chunk_z)
{
    int ys[] = {0,
                r - 1,
                r,
                r + 1,
                r + block_y - 1,
                r + block_y,
                g.ny / 2,
                g.ny - r - block_y,
                g.ny - r - 2,
                g.ny - r - 1,
                g.ny - r,
                g.ny - 1};
    int zs[] = {0,
                r - 1,
                r,
                r + 1,
                r + chunk_z - 1,
                r + chunk_z,
                g.nz / 2,
                g.nz - r - chunk_z,
                g.nz - r - 2,
                g.nz - r - 1,
                g.nz - r,
                g.nz - 1};
    int n = (int)(sizeof ys / sizeof ys[0]), y_pick[32], z_pick[32];
    int ny = pick(y_pick, ys, n, g.ny);
    int nz = pick(z_pick, zs, n, g.nz);
    rows_alloc(s, ny * nz, "sampled rows");
    for (int a = 0; a < nz; a++)
        for (int b = 0; b < ny; b++) {
            s->y[a * ny + b] = y_pick[b];
            s->z[a * ny + b] = z_pick[a];
        }
}

/* The rows on every core: a reference of millions of points, recomputed for every checked
 * repetition, would leave the GPU waiting. Each row is written by one thread alone. */
void reference_values(struct reference *ref, const float *in, uint64_t key)
{
    struct grid g = ref->g;
    ref->key = key;
    ptrdiff_t sy = g.nx, sz = (ptrdiff_t)g.nx * g.ny;
#pragma omp parallel for
    for (int k = 0; k < ref->rows.count; k++) {
        int y = ref->rows.y[k], z = ref->rows.z[k];
        double *out = ref->values + (size_t)k * g.nx;
        for (int x = 0; x < g.nx; x++)
            out[x] = is_interior(g, ref->r, x, y, z)
                         ? ref->point(ref->stencil, in, g, z * sz + y * sy + x, key)
                         : NAN;
    }
}

void reference_build(struct reference *ref, const float *in, struct grid g, int r, int all_rows,
                     int block_y, int chunk_z, stencil_point_fn point, const void *stencil,
                     struct tolerance tol)
{
    ref->g = g;
    ref->r = r;
    ref->point = point;
    ref->stencil = stencil;
    ref->tol = tol;
    if (all_rows)
        rows_all(&ref->rows, g);
    else
        rows_sampled(&ref->rows, g, r, block_y, chunk_z);
    ref->values = (double *)malloc((size_t)ref->rows.count * g.nx * sizeof(double));
    if (!ref->values)
        memlab_die(EXIT_USAGE, "out of host memory for the reference of a %dx%dx%d grid", g.nx,
                   g.ny, g.nz);
    reference_values(ref, in, 0);
}

void reference_free(struct reference *ref)
{
    free(ref->rows.y);
    free(ref->rows.z);
    free(ref->values);
}

/* Point x of checked row k: within tolerance (interior) or still poisoned (boundary). */
static int point_ok(const struct reference *ref, const float *got, int k, int x)
{
    float v = got[(size_t)k * ref->g.nx + x];
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (is_interior(ref->g, ref->r, x, ref->rows.y[k], ref->rows.z[k]))
        return values_close(v, ref->values[(size_t)k * ref->g.nx + x], ref->tol);
    return bits == GRID_POISON_WORD;
}

/* The count on every core; only when some points are wrong (the rare case), a second pass in
 * order reports the first of them, as one pass alone would. */
size_t compare_rows(const char *label, const struct reference *ref, const float *got)
{
    struct grid g = ref->g;
    size_t bad = 0, checked = (size_t)ref->rows.count * g.nx, shown = 0;
    uint64_t digest = 0;
#pragma omp parallel for reduction(+ : bad, digest)
    for (int k = 0; k < ref->rows.count; k++)
        for (int x = 0; x < g.nx; x++) {
            bad += !point_ok(ref, got, k, x);
            uint64_t bits;
            memcpy(&bits, &ref->values[(size_t)k * g.nx + x], sizeof bits);
            digest += proof_term((size_t)k * g.nx + x, bits);
        }
    proof_fold(checked, digest);
    for (int k = 0; k < ref->rows.count && shown < bad && shown < VERIFY_REPORT_CAP; k++) {
        int y = ref->rows.y[k], z = ref->rows.z[k];
        for (int x = 0; x < g.nx && shown < VERIFY_REPORT_CAP; x++) {
            if (point_ok(ref, got, k, x))
                continue;
            shown++;
            float v = got[(size_t)k * g.nx + x];
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            if (is_interior(g, ref->r, x, y, z))
                memlab_warn("%s: point (%d, %d, %d): expected %.9g, got %.9g", label, x, y, z,
                            ref->values[(size_t)k * g.nx + x], (double)v);
            else
                memlab_warn("%s: boundary point (%d, %d, %d) was written (0x%08x); boundary points "
                            "must stay untouched",
                            label, x, y, z, (unsigned)bits);
        }
    }
    if (bad)
        memlab_warn("%s: %zu of %zu checked points wrong", label, bad, checked);
    return bad;
}

size_t input_changed(const char *label, const char *name, const struct reference *ref,
                     const float *got, const float *host_in, ptrdiff_t base)
{
    struct grid g = ref->g;
    size_t changed = 0;
#pragma omp parallel for reduction(+ : changed)
    for (int k = 0; k < ref->rows.count; k++) {
        ptrdiff_t first = base + ((ptrdiff_t)ref->rows.z[k] * g.ny + ref->rows.y[k]) * g.nx;
        int same = 1;
        for (int x = 0; x < g.nx && same; x++) {
            float want = input_at(host_in, first + x, ref->key);
            same = !memcmp(&got[(size_t)k * g.nx + x], &want, sizeof want);
        }
        changed += !same;
    }
    if (changed)
        memlab_warn("%s modified its input%s%s (%zu rows changed)", label, name ? " " : "",
                    name ? name : "", changed);
    return changed;
}

/* The rows into host (pinned: grid_buffers_open), queued one after another and waited for
 * once: a sampled check copies up to 144 rows twice per point, and one synchronous copy per
 * row cost more than the kernel it checked. */
void fetch_rows(float *host, const float *dev, struct grid g, const struct rows *s)
{
    if (s->count == g.ny * g.nz) {
        CUDA_CHECK(cudaMemcpy(host, dev, grid_points(g) * sizeof(float), cudaMemcpyDeviceToHost));
        return;
    }
    for (int k = 0; k < s->count; k++)
        CUDA_CHECK(cudaMemcpyAsync(host + (size_t)k * g.nx,
                                   dev + ((size_t)s->z[k] * g.ny + s->y[k]) * g.nx,
                                   g.nx * sizeof(float), cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
}

size_t compare_grid(const char *label, const struct reference *ref, const float *out,
                    const float *in, float *got, const float *host_in)
{
    fetch_rows(got, out, ref->g, &ref->rows);
    size_t bad = compare_rows(label, ref, got);
    fetch_rows(got, in, ref->g, &ref->rows);
    return bad + input_changed(label, NULL, ref, got, host_in, 0);
}

void grid_vary_input(void *ctx, uint64_t from, uint64_t to)
{
    struct grid_timed *t = (struct grid_timed *)ctx;
    gpu_vary_floats(t->in, grid_points(t->timed->g), from, to);
}

size_t grid_check_repetition(void *ctx, uint64_t key, const char *label)
{
    struct grid_timed *t = (struct grid_timed *)ctx;
    reference_values(t->timed, t->host_in, key);
    return compare_grid(label, t->timed, t->out, t->in, t->got, t->host_in);
}

void grid_buffers_open(float **in, float **out, float **host_in, float **got, size_t capacity,
                       size_t got_capacity, uint64_t seed, const char *what)
{
    size_t bytes = capacity * sizeof(float);
    *in = (float *)gpu_alloc(2 * bytes, what);
    *out = *in + capacity;
    *host_in = (float *)malloc(bytes);
    if (cudaMallocHost((void **)got, got_capacity * sizeof(float)) != cudaSuccess) {
        (void)cudaGetLastError(); /* not left for a later check to report */
        *got = NULL;
    }
    if (!*host_in || !*got)
        memlab_die(EXIT_USAGE, "out of host memory for %.1f MiB of input", bytes / 1048576.0);
    struct rng rng = rng_seeded(seed);
    rng_fill_floats(&rng, *host_in, capacity, -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy(*in, *host_in, bytes, cudaMemcpyHostToDevice));
}

void grid_buffers_close(float *in, float *host_in, float *got)
{
    gpu_free(in);
    free(host_in);
    CUDA_CHECK(cudaFreeHost(got));
}
