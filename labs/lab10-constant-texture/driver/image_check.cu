/* image_check.cu - lab 10's output images against the CPU (see image_check.h). */
#include "image_check.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"

void image_check_row(const struct image_check *c, int oy, struct image_stats *s, const char *label,
                     size_t *shown)
{
    const struct tm_texture *t = &c->t;
    const struct lab10_map *m = &c->m;
    int w = t->w;
    double slack = (w > t->h ? w : t->h) * ldexp(1.0, -20);
    for (int ox = 0; ox < w; ox++) {
        double xc = ox + 0.5, yc = oy + 0.5, x = m->x0 + m->xx * xc + m->xy * yc,
               y = m->y0 + m->yx * xc + m->yy * yc;
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
            memlab_warn("%s: pixel (%d, %d), source (%.6f, %.6f): expected %.9g, got %.9g", label,
                        ox, oy, x, y, want, got);
        }
        s->bad += !ok;
        if (ok) {
            s->max_err = err > s->max_err ? err : s->max_err;
            s->sum_sq += err * err;
        }
    }
}

struct image_stats image_check(const struct image_check *c, const char *label)
{
    int h = c->t.h;
    struct image_stats all = {0, 0, 0, 0, {0, 0, 0, 0}, 0},
                       *rows = (struct image_stats *)calloc(h, sizeof *rows);
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
