/* image_check.h - lab 10: an output image of zoom or rotate against the CPU, pixel by pixel
 * (trusted, included by driver.cu; tests/unit/lab10_image_check.cu runs it without a GPU).
 *
 * The *_texture variants against the texture model at the point the kernel fetched
 * (lab10_source, the same float arithmetic on the host): its value to 4 ulps (either side of a
 * tie), or else within one 1/256 step of a, of b and of the product weight of it, in the
 * model's footprint or a neighbour (a kernel that computes the point in another order may land
 * a weight one step away); those pixels are counted (off_model), not failed. The *_global
 * variants against exact weights, within a tolerance that grows with the neighbourhood's
 * spread for the rotations (their source points are rounded in float).
 *
 * The rows are checked on every core: the model costs the CPU far more than the kernel costs
 * the GPU, which waits for it after every checked repetition. Each row's statistics are kept
 * apart and combined in row order, so that they come out the same on any number of cores;
 * where pixels are wrong, the first VERIFY_REPORT_CAP are then reported in order.
 */
#ifndef LAB10_IMAGE_CHECK_H
#define LAB10_IMAGE_CHECK_H

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "kernels.h"
#include "texture_model.h"
#include "verify.h"

/* What a check saw: pixels wrong, and over those right the error against exact weights
 * (largest, sum of squares) and, for the texture, the largest distance from the model within
 * 4 ulps, the ties it told apart and the pixels one weight step from it. */
struct image_stats {
    size_t bad;
    double max_err, sum_sq, max_ulp;
    struct tm_tie_count ties;
    long long off_model;
};

struct image_check {
    struct tm_texture t; /* the input, as the kernel read it */
    struct lab10_map m;
    const float *out;    /* t.w x t.h pixels */
    int texture, rotate; /* a *_texture variant; a rotation */
};

/* Output row oy into *s; with a label, its wrong pixels are also reported while *shown
 * (those reported so far) is under VERIFY_REPORT_CAP. */
static void image_check_row(const struct image_check *c, int oy, struct image_stats *s, const char *label,
                            size_t *shown)
{
    const struct tm_texture *t = &c->t;
    const struct lab10_map *m = &c->m;
    int w = t->w;
    double slack = (w > t->h ? w : t->h) * ldexp(1.0, -20);
    for (int ox = 0; ox < w; ox++) {
        double xc = ox + 0.5, yc = oy + 0.5, x = m->x0 + m->xx * xc + m->xy * yc, y = m->y0 + m->yx * xc + m->yy * yc;
        double scale, spread = 0, got = c->out[(size_t)oy * w + ox];
        double exact = tm_exact_bilinear(t, x, y, &scale, c->rotate ? &spread : NULL);
        double want = exact, err = fabs(got - exact);
        int ok;
        if (c->texture) {
            float2 p = lab10_source(*m, ox, oy);
            struct tm_fetch f = tm_fetch(t, p.x, p.y);
            int best = tm_nearest(&f, got);
            double off = fabs(got - f.value[best]), ulp = tm_ulp(f.scale), ulps = off / ulp;
            ok = ulps <= 4 || off <= tm_weight_step(t, f.i, f.j, 1) + 4 * ulp;
            want = f.value[best];
            s->off_model += ulps > 4 && ok;
            s->max_ulp = ulps <= 4 && ulps > s->max_ulp ? ulps : s->max_ulp;
            tm_count_ties(&s->ties, &f, got);
        } else {
            double tol = 8 * tm_ulp(scale) + (c->rotate ? spread * 4 * slack : 0);
            ok = err <= tol;
        }
        if (!ok && label && *shown < VERIFY_REPORT_CAP) {
            ++*shown;
            memlab_warn("%s: pixel (%d, %d), source (%.6f, %.6f): expected %.9g, got %.9g", label, ox, oy, x, y, want,
                        got);
        }
        s->bad += !ok;
        if (ok) {
            s->max_err = err > s->max_err ? err : s->max_err;
            s->sum_sq += err * err;
        }
    }
}

static struct image_stats image_check(const struct image_check *c, const char *label)
{
    int h = c->t.h;
    struct image_stats all = {0, 0, 0, 0, {0, 0, 0, 0}, 0}, *rows = (struct image_stats *)calloc(h, sizeof *rows);
    if (!rows)
        memlab_die(EXIT_USAGE, "out of host memory for the statistics of %d rows", h);
#pragma omp parallel for
    for (int oy = 0; oy < h; oy++)
        image_check_row(c, oy, &rows[oy], NULL, NULL);
    for (int oy = 0; oy < h; oy++) {
        const struct image_stats *r = &rows[oy];
        all.bad += r->bad;
        all.max_err = r->max_err > all.max_err ? r->max_err : all.max_err;
        all.sum_sq += r->sum_sq;
        all.max_ulp = r->max_ulp > all.max_ulp ? r->max_ulp : all.max_ulp;
        all.ties.ties += r->ties.ties;
        all.ties.ties_up += r->ties.ties_up;
        all.ties.product_ties += r->ties.product_ties;
        all.ties.product_ties_up += r->ties.product_ties_up;
        all.off_model += r->off_model;
    }
    size_t shown = 0;
    for (int oy = 0; oy < h && shown < VERIFY_REPORT_CAP; oy++)
        if (rows[oy].bad) {
            struct image_stats again = {0, 0, 0, 0, {0, 0, 0, 0}, 0};
            image_check_row(c, oy, &again, label, &shown);
        }
    if (all.bad)
        memlab_warn("%s: %zu of %zu pixels wrong", label, all.bad, (size_t)c->t.w * h);
    free(rows);
    return all;
}

#endif
