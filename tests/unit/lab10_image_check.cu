/* lab10_image_check.cu - lab 10's image check (image_check.h) without a GPU: synthetic outputs
 * of a zoom (clamp) and a rotation (border), texture and global, with pixels on the model,
 * on either candidate of its ties, one weight step off it and wrong. On 1, 2, 3 and 8 threads
 * the check must give the same statistics, to the bit, and report the same pixels; its counts
 * and maxima must be those of one pass over the image in order, and its sum of squares that
 * pass's to 1e-12 (it adds the rows' sums in row order instead).
 * One line per case, "unit lab10 ...: OK" or ": FAIL why"; exit 1 on a failure.
 * Built by make ($(OUT)/tests/lab10_image_check) and run by tests/lab10.sh.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "image_check.h"
#include "rng.h"

static int failures;

static void expect(const char *name, int ok, const char *why)
{
    printf("unit lab10 %s: %s%s\n", name, ok ? "OK" : "FAIL ", ok ? "" : why);
    failures += !ok;
}

/* A kernel's output, made on the host: the model's value (a texture variant; ties go one way
 * or the other) or the exact one (global), some pixels one weight step off, some wrong. */
static void fake_output(const struct image_check *c, float *out)
{
    const struct tm_texture *t = &c->t;
    for (int oy = 0; oy < t->h; oy++)
        for (int ox = 0; ox < t->w; ox++) {
            size_t p = (size_t)oy * t->w + ox;
            double v, step = 0;
            if (c->texture) {
                float2 s = lab10_source(c->m, ox, oy);
                struct tm_fetch f = tm_fetch(t, s.x, s.y);
                v = f.value[p % f.count];
                step = f.step;
            } else {
                double xc = ox + 0.5, yc = oy + 0.5, scale;
                v = tm_exact_bilinear(t, c->m.x0 + c->m.xx * xc + c->m.xy * yc,
                                      c->m.y0 + c->m.yx * xc + c->m.yy * yc, &scale, NULL);
            }
            out[p] = (float)(p % 211 == 5 ? v + 0.25 : p % 53 == 7 ? v + step : v);
        }
}

/* The check on `threads` threads, its report (stderr) into text. */
static struct image_stats run_on(const struct image_check *c, int threads, char *text, size_t size)
{
    struct captured log = capture_stderr();
    omp_set_num_threads(threads);
    struct image_stats s = image_check(c, "check");
    captured_text(&log, text, size);
    return s;
}

static int same_bits(const struct image_stats *a, const struct image_stats *b)
{
    return a->bad == b->bad && !memcmp(&a->max_err, &b->max_err, sizeof(double)) &&
           !memcmp(&a->sum_sq, &b->sum_sq, sizeof(double)) &&
           !memcmp(&a->max_ulp, &b->max_ulp, sizeof(double)) &&
           !memcmp(&a->ties, &b->ties, sizeof a->ties) && a->off_model == b->off_model;
}

static void check_case(const char *name, int w, int h, struct lab10_map m, int texture, int rotate,
                       const float *in, float *out)
{
    struct image_check c = {
        {in, w, h, rotate ? TM_BORDER : TM_CLAMP, TM_LINEAR, 0, TM_WEIGHTS_MEASURED},
        m,
        out,
        texture,
        rotate};
    fake_output(&c, out);
    static char first[4096], text[4096];
    char what[160], why[512];
    struct image_stats one = run_on(&c, 1, first, sizeof first);
    static const int threads[] = {2, 3, 8};
    int same = 1;
    for (int k = 0; k < 3; k++) {
        struct image_stats s = run_on(&c, threads[k], text, sizeof text);
        same = same && same_bits(&s, &one) && !strcmp(text, first);
    }
    snprintf(what, sizeof what, "%s: the same statistics and report on 1, 2, 3 and 8 threads",
             name);
    expect(what, same, "they differ");

    struct image_stats in_order = {0, 0, 0, 0, {0, 0, 0, 0}, 0};
    for (int oy = 0; oy < h; oy++)
        image_check_row(&c, oy, &in_order, NULL, NULL);
    double sum_sq = in_order.sum_sq;
    int lines = 0;
    for (const char *p = first; *p; p++)
        lines += *p == '\n';
    snprintf(why, sizeof why,
             "bad %zu/%zu, max_err %.17g/%.17g, sum_sq %.17g/%.17g, max_ulp %g/%g, ties %lld/%lld, "
             "off_model %lld/%lld, %d report lines",
             one.bad, in_order.bad, one.max_err, in_order.max_err, one.sum_sq, sum_sq, one.max_ulp,
             in_order.max_ulp, one.ties.ties, in_order.ties.ties, one.off_model, in_order.off_model,
             lines);
    snprintf(what, sizeof what, "%s: as one pass in order; wrong pixels%s reported", name,
             texture ? ", ties and pixels off the model" : "");
    in_order.sum_sq = one.sum_sq; /* the rest to the bit */
    int ok =
        one.bad > VERIFY_REPORT_CAP && lines == VERIFY_REPORT_CAP + 1 &&
        same_bits(&one, &in_order) && fabs(one.sum_sq - sum_sq) <= 1e-12 * sum_sq &&
        (!texture || (one.ties.ties > 0 && one.ties.ties_up > 0 &&
                      one.ties.ties_up < one.ties.ties && one.off_model > 0 && one.max_ulp > 0));
    expect(what, ok, why);
}

/* A map entry in steps of 2^-15, so that source points are exact in float and some fall on
 * ties (halfway between two 1/256 weights), as the driver's zooms do. */
static float q(double v)
{
    return (float)(round(v * 32768) / 32768);
}

int main(void)
{
    enum { W = 67, H = 45 };
    static float in[W * H], out[W * H];
    struct rng r = rng_seeded(10);
    rng_fill_floats(&r, in, W * H, -1.0f, 1.0f);
    double s = 100.0 / 137, c = cos(M_PI / 6), n = sin(M_PI / 6), cx = W / 2.0, cy = H / 2.0;
    struct lab10_map zoom = {q(cx * (1 - s)), q(s), 0, q(cy * (1 - s)), 0, q(s)};
    struct lab10_map rotate = {q(cx - c * cx - n * cy), q(c),  q(n),
                               q(cy + n * cx - c * cy), q(-n), q(c)};
    check_case("zoom_texture 137%, 67x45", W, H, zoom, 1, 0, in, out);
    check_case("zoom_global 137%, 67x45", W, H, zoom, 0, 0, in, out);
    check_case("rotate_texture 30 degrees, 67x45", W, H, rotate, 1, 1, in, out);
    check_case("rotate_global 30 degrees, 67x45", W, H, rotate, 0, 1, in, out);
    return failures != 0;
}
