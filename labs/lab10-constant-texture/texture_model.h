/* texture_model.h - lab 10's CPU model of a 2D float texture fetch (tex2D), after the CUDA
 * Programming Guide's appendix "Texture Fetching". Plain C, so that it is checked without a GPU
 * (tests/fixtures/lab10/texture_model_test.c) and the driver checks the GPU against it.
 *
 * Coordinates. Texel (i, j) covers [i, i+1) x [j, j+1) in texel units; normalised coordinates
 * are multiplied by the size first (u * w). Wrap (normalised only) keeps the fraction of u.
 *   point   T[floor(x), floor(y)]
 *   linear  xb = x - 0.5, i = floor(xb), a = frac(xb) (likewise j, b), and
 *           (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1],
 *           where a and b are held in 9-bit fixed point with 8 fractional bits: the model
 *           rounds xb to the nearest 1/256 (measured on old GPUs: the forum's tex1D table in
 *           tests/fixtures/lab10/texture_model_test.c). A position exactly halfway between two
 *           1/256 steps is a tie the documentation does not settle: the model returns both
 *           candidates, and the driver counts which one the GPU took.
 * Texels outside the texture: clamp takes the nearest edge texel (per texel index, so that a
 * linear fetch past the edge returns the edge texel), border returns 0, wrap takes the index
 * modulo the size.
 */
#ifndef LAB10_TEXTURE_MODEL_H
#define LAB10_TEXTURE_MODEL_H

#include <math.h>

enum tm_address { TM_WRAP, TM_CLAMP, TM_BORDER };
enum tm_filter { TM_POINT, TM_LINEAR };

struct tm_texture {
    const float *texels; /* w x h, row-major */
    int w, h;
    enum tm_address address;
    enum tm_filter filter;
    int normalized;
};

/* One fetch: up to 4 candidate values (2 per axis at a tie), and the size of the texels
 * that made them (the largest magnitude, which sets the arithmetic's ulp). */
struct tm_fetch {
    double value[4];
    int count;
    int ties;     /* axes whose weight was a tie (0, 1 or 2) */
    double scale; /* largest |texel| weighed, 0 for a point fetch of a border */
};

/* The coordinate in texel units along an axis of n texels (exact in double). */
static inline double tm_texel_units(float u, int n, int normalized, enum tm_address a)
{
    double x = u;
    if (normalized && a == TM_WRAP)
        x -= floor(x);
    return normalized ? x * n : x;
}

/* Texel index i of an axis of n texels under the address mode; -1: the border. */
static inline long long tm_wrap_index(long long i, int n, enum tm_address a)
{
    if (a == TM_WRAP)
        return ((i % n) + n) % n;
    if (a == TM_CLAMP)
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    return i < 0 || i >= n ? -1 : i;
}

static inline double tm_texel(const struct tm_texture *t, long long i, long long j, double *scale)
{
    i = tm_wrap_index(i, t->w, t->address);
    j = tm_wrap_index(j, t->h, t->address);
    double v = i < 0 || j < 0 ? 0.0 : t->texels[j * t->w + i];
    if (fabs(v) > *scale)
        *scale = fabs(v);
    return v;
}

/* xb in 1/256 steps, rounded to the nearest: q[0] (and q[1] at a tie); returns 1 or 2. */
static inline int tm_fixed_point(double xb, long long q[2])
{
    double s = xb * 256.0, f = floor(s);
    q[0] = (long long)f + (s - f > 0.5);
    if (s - f != 0.5)
        return 1;
    q[0] = (long long)f;
    q[1] = (long long)f + 1;
    return 2;
}

static inline long long tm_floor_div256(long long q)
{
    return q >= 0 ? q / 256 : -((-q + 255) / 256);
}

/* The fetch tex2D(t, u, v) as the model sees it. */
static inline struct tm_fetch tm_fetch(const struct tm_texture *t, float u, float v)
{
    struct tm_fetch f = {{0, 0, 0, 0}, 1, 0, 0.0};
    double x = tm_texel_units(u, t->w, t->normalized, t->address);
    double y = tm_texel_units(v, t->h, t->normalized, t->address);
    if (t->filter == TM_POINT) {
        f.value[0] = tm_texel(t, (long long)floor(x), (long long)floor(y), &f.scale);
        return f;
    }
    long long qx[2], qy[2];
    int nx = tm_fixed_point(x - 0.5, qx), ny = tm_fixed_point(y - 0.5, qy);
    f.ties = (nx == 2) + (ny == 2);
    f.count = 0;
    for (int b = 0; b < ny; b++)
        for (int a = 0; a < nx; a++) {
            long long i = tm_floor_div256(qx[a]), j = tm_floor_div256(qy[b]);
            double wa = (qx[a] - 256 * i) / 256.0, wb = (qy[b] - 256 * j) / 256.0;
            f.value[f.count++] = (1 - wa) * (1 - wb) * tm_texel(t, i, j, &f.scale) +
                                 wa * (1 - wb) * tm_texel(t, i + 1, j, &f.scale) +
                                 (1 - wa) * wb * tm_texel(t, i, j + 1, &f.scale) + wa * wb * tm_texel(t, i + 1, j + 1, &f.scale);
        }
    return f;
}

/* Bilinear interpolation with exact weights (what a float implementation computes, to a few
 * ulps): the reference the texture's 8-bit weights are measured against. `spread` gets the
 * largest minus the smallest texel of the 4 x 4 neighbourhood (0 where NULL). */
static inline double tm_exact_bilinear(const struct tm_texture *t, double x, double y, double *scale, double *spread)
{
    double xb = x - 0.5, yb = y - 0.5, fi = floor(xb), fj = floor(yb), a = xb - fi, b = yb - fj;
    long long i = (long long)fi, j = (long long)fj;
    double s = 0;
    double value = (1 - a) * (1 - b) * tm_texel(t, i, j, &s) + a * (1 - b) * tm_texel(t, i + 1, j, &s) +
                   (1 - a) * b * tm_texel(t, i, j + 1, &s) + a * b * tm_texel(t, i + 1, j + 1, &s);
    if (scale)
        *scale = s;
    if (spread) {
        double lo = INFINITY, hi = -INFINITY, ignored = 0;
        for (long long dj = -1; dj <= 2; dj++)
            for (long long di = -1; di <= 2; di++) {
                double v = tm_texel(t, i + di, j + dj, &ignored);
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        *spread = hi - lo;
    }
    return value;
}

/* The float ulp at magnitude m (of 1.0 for m = 0, so that zero tolerates nothing but tiny
 * rounding): the unit in which the GPU's filter arithmetic is judged. */
static inline double tm_ulp(double m)
{
    int e;
    frexp(m > 0 ? m : 1.0, &e);
    return ldexp(1.0, e - 24);
}

#endif
