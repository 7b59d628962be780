/* texture_model.h - lab 10's CPU model of a 2D float texture fetch (tex2D), after the CUDA
 * Programming Guide's appendix "Texture Fetching" and the H100's measured behaviour. Plain C,
 * so that it is checked without a GPU (tests/unit/lab10_texture_model.c) and the
 * driver checks the GPU against it.
 *
 * Coordinates. Texel (i, j) covers [i, i+1) x [j, j+1) in texel units; normalised coordinates
 * are multiplied by the size first (u * w). Wrap (normalised only) keeps the fraction of u.
 *   point   T[floor(x), floor(y)]
 *   linear  xb = x - 0.5, i = floor(xb), a = frac(xb) (likewise j, b), and
 *           (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1],
 *           where a and b are held in 9-bit fixed point with 8 fractional bits: the model
 *           rounds xb to the nearest 1/256 (measured on old GPUs: the forum's tex1D table in
 *           tests/unit/lab10_texture_model.c; on the H100, in the reference run,
 *           the staircase's 256 ties all went up). A position exactly halfway between two
 *           1/256 steps is a tie the documentation does not settle: the model returns both
 *           candidates, and the driver counts which one the GPU took.
 * The four weights (enum tm_weights). The guide's formula read literally multiplies the two
 * 8-bit weights exactly (TM_WEIGHTS_GUIDE). The H100 does not: it holds each of the four
 * products in 8 fractional bits too, ab rounded to the nearest 1/256 and the others what is
 * left of a, b and 1 (a - ab, b - ab, 1 - a - b + ab), so that they still sum to 1
 * (TM_WEIGHTS_MEASURED, the default). Run v15 on the H100: every one of the 41 wrong values it
 * logged (texture modes, zoom, rotation) is this rule's to 0.05 ulp, and so is every row's
 * count of wrong fetches. The two rules agree in 1D, and wherever the texels change linearly
 * along each axis (the seed's matrix, away from a border): the 2009 tex1D table cannot tell
 * them apart. Where ab is exactly halfway between two 1/256 steps (a product tie), the model
 * returns both candidates, as for the ties of a and b, and the driver counts which one the GPU
 * took: in the reference run (handouts/reference/lab10) all 35 of the texture modes went up,
 * and zoom and rotation count a handful as down among hundreds of thousands.
 * Texels outside the texture: clamp takes the nearest edge texel (per texel index, so that a
 * linear fetch past the edge returns the edge texel), border returns 0 (with its weight:
 * border texels count as zeros in the blend), wrap takes the index modulo the size.
 */
#ifndef LAB10_TEXTURE_MODEL_H
#define LAB10_TEXTURE_MODEL_H

#include <math.h>

enum tm_address { TM_WRAP, TM_CLAMP, TM_BORDER };
enum tm_filter { TM_POINT, TM_LINEAR };
/* The weights of a linear fetch (see the header comment); 0, the default, is the H100's. */
enum tm_weights { TM_WEIGHTS_MEASURED, TM_WEIGHTS_GUIDE };

struct tm_texture {
    const float *texels; /* w x h, row-major */
    int w, h;
    enum tm_address address;
    enum tm_filter filter;
    int normalized;
    enum tm_weights weights;
};

/* Which roundings of a candidate went up (tm_fetch.up): a, b, the product ab. */
enum { TM_UP_A = 1, TM_UP_B = 2, TM_UP_PRODUCT = 4 };
#define TM_CANDIDATES 8

/* One fetch: up to 8 candidate values (2 a tie of a, of b, of the product), and the size of
 * the texels that made them (the largest magnitude, which sets the arithmetic's ulp). */
struct tm_fetch {
    double value[TM_CANDIDATES];
    int up[TM_CANDIDATES]; /* TM_UP_* bits: the roundings that went up for this candidate */
    int count;
    int ties;         /* axes whose weight was a tie (0, 1 or 2) */
    int product_ties; /* 1 where ab was a tie (with either rounding of a and b) */
    double scale;     /* largest |texel| weighed, 0 for a point fetch of a border */
    double step;      /* one 1/256 step of a, of b and of ab, in value (linear; 0 for point) */
    long long i, j;   /* the 2x2 footprint's first texel (candidate 0), before the address mode */
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

/* What one 1/256 step of a, of b and of the product weight ab can change in a blend of the
 * footprints (i + di, j + dj), |di|, |dj| <= radius: the largest change along x (dx), along y
 * (dy) and of the cross term T00 - T10 - T01 + T11 (dxy), as (dx + dy + dxy) / 256. */
static inline double tm_weight_step(const struct tm_texture *t, long long i, long long j,
                                    int radius)
{
    double worst = 0, ignored = 0;
    for (long long fj = j - radius; fj <= j + radius; fj++)
        for (long long fi = i - radius; fi <= i + radius; fi++) {
            double t00 = tm_texel(t, fi, fj, &ignored), t10 = tm_texel(t, fi + 1, fj, &ignored);
            double t01 = tm_texel(t, fi, fj + 1, &ignored),
                   t11 = tm_texel(t, fi + 1, fj + 1, &ignored);
            double dx = fmax(fabs(t10 - t00), fabs(t11 - t01)),
                   dy = fmax(fabs(t01 - t00), fabs(t11 - t10));
            double step = (dx + dy + fabs(t00 - t10 - t01 + t11)) / 256;
            worst = step > worst ? step : worst;
        }
    return worst;
}

/* The fetch tex2D(t, u, v) as the model sees it. */
static inline struct tm_fetch tm_fetch(const struct tm_texture *t, float u, float v)
{
    struct tm_fetch f = {{0}, {0}, 1, 0, 0, 0.0, 0.0, 0, 0};
    double x = tm_texel_units(u, t->w, t->normalized, t->address);
    double y = tm_texel_units(v, t->h, t->normalized, t->address);
    if (t->filter == TM_POINT) {
        f.i = (long long)floor(x), f.j = (long long)floor(y);
        f.value[0] = tm_texel(t, f.i, f.j, &f.scale);
        return f;
    }
    long long qx[2], qy[2];
    int nx = tm_fixed_point(x - 0.5, qx), ny = tm_fixed_point(y - 0.5, qy);
    f.ties = (nx == 2) + (ny == 2);
    f.i = tm_floor_div256(qx[0]), f.j = tm_floor_div256(qy[0]);
    f.step = tm_weight_step(t, f.i, f.j, 0);
    f.count = 0;
    for (int b = 0; b < ny; b++)
        for (int a = 0; a < nx; a++) {
            long long i = tm_floor_div256(qx[a]), j = tm_floor_div256(qy[b]);
            long long wa = qx[a] - 256 * i, wb = qy[b] - 256 * j,
                      ab = wa * wb; /* in 1/256, 1/65536 */
            double t00 = tm_texel(t, i, j, &f.scale), t10 = tm_texel(t, i + 1, j, &f.scale);
            double t01 = tm_texel(t, i, j + 1, &f.scale), t11 = tm_texel(t, i + 1, j + 1, &f.scale);
            /* the product weight in 1/256: exact (the guide), or rounded to the nearest (H100) */
            double products[2] = {ab / 256.0, 0};
            int np = 1;
            if (t->weights == TM_WEIGHTS_MEASURED) {
                products[0] = (double)(ab / 256 + (ab % 256 > 128));
                if (ab % 256 == 128)
                    products[1] = products[0] + 1, np = 2, f.product_ties = 1;
            }
            for (int p = 0; p < np; p++) {
                double w11 = products[p], w10 = wa - w11, w01 = wb - w11, w00 = 256 - wa - wb + w11;
                f.value[f.count] = (w00 * t00 + w10 * t10 + w01 * t01 + w11 * t11) / 256;
                f.up[f.count++] = (a ? TM_UP_A : 0) | (b ? TM_UP_B : 0) | (p ? TM_UP_PRODUCT : 0);
            }
        }
    return f;
}

/* Which candidate of f a fetched value is: the nearest (the first of equals). */
static inline int tm_nearest(const struct tm_fetch *f, double got)
{
    int best = 0;
    for (int c = 1; c < f->count; c++)
        best = fabs(got - f->value[c]) < fabs(got - f->value[best]) ? c : best;
    return best;
}

/* A tie of kind `bits` (one TM_UP_* bit) that the fetched value tells apart: among the
 * candidates rounded as the nearest one on the other axes (a product tie belongs to one
 * rounding of a and b), 1 if the value is nearer to one rounded up than to every one rounded
 * down, -1 for the reverse, 0 where there is no such tie or both are equally near. */
static inline int tm_tie_went_up(const struct tm_fetch *f, double got, int bits)
{
    int same = (TM_UP_A | TM_UP_B) & ~bits, as = f->up[tm_nearest(f, got)] & same;
    double up = INFINITY, down = INFINITY;
    for (int c = 0; c < f->count; c++) {
        double d = fabs(got - f->value[c]);
        if ((f->up[c] & same) != as)
            continue;
        if (f->up[c] & bits)
            up = d < up ? d : up;
        else
            down = d < down ? d : down;
    }
    return up == INFINITY || down == INFINITY || up == down ? 0 : up < down ? 1 : -1;
}

/* Ties that fetched values told apart, of a and b (one count an axis) and of the product ab,
 * and how many of each the GPU rounded up. */
struct tm_tie_count {
    long long ties, ties_up, product_ties, product_ties_up;
};

static inline void tm_count_ties(struct tm_tie_count *n, const struct tm_fetch *f, double got)
{
    int a = tm_tie_went_up(f, got, TM_UP_A), b = tm_tie_went_up(f, got, TM_UP_B);
    int p = tm_tie_went_up(f, got, TM_UP_PRODUCT);
    n->ties += (a != 0) + (b != 0);
    n->ties_up += (a > 0) + (b > 0);
    n->product_ties += p != 0;
    n->product_ties_up += p > 0;
}

/* Bilinear interpolation with exact weights (what a float implementation computes, to a few
 * ulps): the reference the texture's 8-bit weights are measured against. `spread` gets the
 * largest minus the smallest texel of the 4 x 4 neighbourhood (0 where NULL). */
static inline double tm_exact_bilinear(const struct tm_texture *t, double x, double y,
                                       double *scale, double *spread)
{
    double xb = x - 0.5, yb = y - 0.5, fi = floor(xb), fj = floor(yb), a = xb - fi, b = yb - fj;
    long long i = (long long)fi, j = (long long)fj;
    double s = 0;
    double value = (1 - a) * (1 - b) * tm_texel(t, i, j, &s) +
                   a * (1 - b) * tm_texel(t, i + 1, j, &s) +
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
