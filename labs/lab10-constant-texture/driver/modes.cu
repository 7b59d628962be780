/* modes.cu - lab 10's texture modes and staircase (see modes.h). */
#include "modes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "texture_model.h"

#define MODE_POINTS 2048

static __global__ void sample_kernel(cudaTextureObject_t tex, const float2 *uv, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(tex, uv[i].x, uv[i].y);
}

struct sampler {
    float2 *d_uv;
    float *d_out;
    int n;
    cudaTextureObject_t tex;
};

static int launch_sampler(void *ctx, cudaStream_t stream)
{
    struct sampler *s = (struct sampler *)ctx;
    sample_kernel<<<(s->n + 255) / 256, 256, 0, stream>>>(s->tex, s->d_uv, s->d_out, s->n);
    return LAB_OK;
}

/* Sample texels (w x h) with the mode at uv[0..n): values to got[], the launch timed. */
static struct summary sample(struct lab *lab, const struct tm_texture *t, const float2 *uv,
                             float *got, int n, const char *label)
{
    cudaArray_t array;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    CUDA_CHECK(cudaMallocArray(&array, &f, t->w, t->h));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, t->texels, t->w * sizeof(float),
                                   t->w * sizeof(float), t->h, cudaMemcpyHostToDevice));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    const enum cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                                 cudaAddressModeBorder};
    td.addressMode[0] = td.addressMode[1] = modes[t->address];
    td.filterMode = t->filter == TM_POINT ? cudaFilterModePoint : cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = t->normalized;
    struct sampler s = {(float2 *)gpu_alloc(n * sizeof(float2), "coordinates"),
                        (float *)gpu_alloc(n * sizeof(float), "samples"), n, 0};
    CUDA_CHECK(cudaCreateTextureObject(&s.tex, &res, &td, NULL));
    CUDA_CHECK(cudaMemcpy(s.d_uv, uv, n * sizeof(float2), cudaMemcpyHostToDevice));
    launch_sampler(&s, 0);
    gpu_check_launch(label);
    CUDA_CHECK(cudaMemcpy(got, s.d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    struct summary ms = {0, 0, 0, 0};
    if (!lab->opts.check) {
        struct timing_config cfg = lab_timing(lab, 0);
        struct timed_job job = {label, launch_sampler, &s, NULL, NULL, {0, 0, 0, 0, 0, 0, 0}};
        lab_time(lab, &job, &cfg, &ms);
    }
    CUDA_CHECK(cudaDestroyTextureObject(s.tex));
    CUDA_CHECK(cudaFreeArray(array));
    gpu_free(s.d_uv);
    gpu_free(s.d_out);
    return ms;
}

/* One sample against the model: 0 if it agrees; counts exact values, ulps and ties. */
struct agreement {
    int exact, guide_exact, bad;
    struct tm_tie_count ties;
    double max_ulp;
};

static int agree(const struct tm_texture *t, float u, float v, float got, struct agreement *a,
                 double *model, double *guide)
{
    struct tm_fetch f = tm_fetch(t, u, v);
    struct tm_texture literal = *t;
    literal.weights = TM_WEIGHTS_GUIDE;
    struct tm_fetch g = tm_fetch(&literal, u, v);
    int best = tm_nearest(&f, got);
    double ulps = fabs(got - f.value[best]) / tm_ulp(f.scale);
    int ok = t->filter == TM_POINT ? got == (float)f.value[0] : ulps <= 4;
    *model = f.value[best];
    *guide = g.value[tm_nearest(&g, got)];
    a->exact += got == (float)*model;
    a->guide_exact += got == (float)*guide;
    tm_count_ties(&a->ties, &f, got);
    a->max_ulp = ok && ulps > a->max_ulp ? ulps : a->max_ulp;
    a->bad += !ok;
    return !ok;
}

/* One fetch as a row of fetches.csv (--dump-fetches): everything needed to test another rule
 * without the program, the footprint's texels as the address mode gives them included. */
static void dump_fetch(FILE *dump, const struct lab *lab, const char *mode,
                       const struct tm_texture *t, int k, float u, float v, float got, double model,
                       double guide, int wrong)
{
    struct tm_fetch f = tm_fetch(t, u, v);
    double ignored = 0, x = tm_texel_units(u, t->w, t->normalized, t->address);
    double y = tm_texel_units(v, t->h, t->normalized, t->address);
    uint32_t bits[3];
    memcpy(&bits[0], &u, 4), memcpy(&bits[1], &v, 4), memcpy(&bits[2], &got, 4);
    char extra[512];
    snprintf(extra, sizeof extra,
             "%dx%d,%s,%.9g,%.9g,%08x,%08x,%.17g,%.17g,%lld,%lld,%.9g,%.9g,%.9g,%.9g,%.9g,%08x,%."
             "17g,%.17g,%d,%d,%d,%.2f",
             t->w, t->h, t->normalized ? "normalised" : "unnormalised", u, v, bits[0], bits[1], x,
             y, f.i, f.j, tm_texel(t, f.i, f.j, &ignored), tm_texel(t, f.i + 1, f.j, &ignored),
             tm_texel(t, f.i, f.j + 1, &ignored), tm_texel(t, f.i + 1, f.j + 1, &ignored), got,
             bits[2], model, guide, f.count, f.ties, f.product_ties,
             fabs(got - model) / tm_ulp(f.scale));
    struct row r = {mode, k, 1, 12, 0, {0, 0, 0, 0}, wrong ? ROW_WRONG : ROW_OK};
    csv_write_row(dump, &lab->info, &r, extra);
}

/* The coordinates of one mode (texel units, then normalised if asked): the seed's example and
 * other exact points where they are exact, then MODE_POINTS random ones, ties among them. */
static int mode_coords(float2 *uv, const struct tm_texture *t, struct rng *r)
{
    const float special[][2] = {{1.5f, 5.5f}, {2.0f, 6.0f},    {0.5f, 0.5f},
                                {0.0f, 0.0f}, {-0.25f, 3.75f}, {4.0f, 4.0f}};
    int n = 0, w = t->w, h = t->h, pow2 = !(w & (w - 1)) && !(h & (h - 1)),
        exact = !t->normalized || pow2;
    for (int k = 0; exact && k < 6; k++)
        uv[n++] = make_float2(special[k][0], special[k][1]);
    for (int k = 0; k < MODE_POINTS; k++) {
        float c[2];
        for (int axis = 0; axis < 2; axis++) {
            int size = axis ? h : w, m;
            do
                m = (int)(rng_next(r) % 1024);
            while (t->filter == TM_POINT ? m < 1 || m > 1021 : m % 4 == 2);
            double whole = (double)(rng_next(r) % (5 * size)) - 2 * size;
            /* one point in eight a tie (exactly halfway between two 1/256 weights) */
            if (t->filter == TM_LINEAR && exact && k % 8 == 7)
                c[axis] = (float)(whole + 0.5 + (2 * (rng_next(r) % 256) + 1) / 512.0);
            else
                c[axis] = (float)(whole + m / 1024.0);
        }
        uv[n++] = make_float2(c[0], c[1]);
    }
    for (int k = 0; t->normalized && k < n; k++)
        uv[k] = make_float2(uv[k].x / w, uv[k].y / h);
    return n;
}

void run_modes(struct lab *lab, int dump)
{
    static const struct {
        const char *name;
        enum tm_address address;
        enum tm_filter filter;
        int normalized;
    } modes[] = {
        {"wrap_point", TM_WRAP, TM_POINT, 1},     {"wrap_linear", TM_WRAP, TM_LINEAR, 1},
        {"clamp_point", TM_CLAMP, TM_POINT, 1},   {"clamp_linear", TM_CLAMP, TM_LINEAR, 1},
        {"border_point", TM_BORDER, TM_POINT, 1}, {"border_linear", TM_BORDER, TM_LINEAR, 1},
        {"clamp_point", TM_CLAMP, TM_POINT, 0},   {"clamp_linear", TM_CLAMP, TM_LINEAR, 0},
        {"border_point", TM_BORDER, TM_POINT, 0}, {"border_linear", TM_BORDER, TM_LINEAR, 0}};
    static float seed4[16], odd[61 * 37];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            seed4[r * 4 + c] = 10.0f * (r + 1) + c + 1; /* m[r][c]: row r is y, column c is x */
    struct rng rng = rng_seeded(lab->opts.seed ^ 0x7e4ull);
    rng_fill_floats(&rng, odd, 61 * 37, -1.0f, 1.0f);
    static float2 uv[MODE_POINTS + 8];
    static float got[MODE_POINTS + 8];
    struct report rep;
    FILE *fetches = NULL;
    char path[512];
    if (!lab->opts.check) {
        report_open(&rep, lab->csv_dir, "modes", &lab->info, "width",
                    "texture,coords,points,exact,max_ulp,ties,ties_up,product_ties,product_ties_up,"
                    "guide_exact");
        snprintf(path, sizeof path, "%s/fetches.csv", lab->csv_dir);
        if (dump && !(fetches = fopen(path, "w")))
            memlab_die(EXIT_USAGE, "cannot write %s", path);
        if (fetches)
            csv_write_header(
                fetches, &lab->info,
                "texture,coords,u,v,u_bits,v_bits,x,y,i,j,t00,t10,t01,t11,got,got_bits,model,guide,"
                "candidates,axis_ties,product_tie,ulps");
    } else if (dump)
        printf("--dump-fetches: no fetches.csv with --check (it writes no CSV)\n");
    printf("seed 002's example: m[r][c] = 10(r+1) + c+1 in 4x4, m[5.5][1.5] fetched at tex2D(x "
           "1.5, y 5.5); the seed's "
           "reading, integers at texel centres, at (x 2.0, y 6.0):\n");
    for (int tx = 0; tx < 2; tx++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            struct tm_texture t = {tx ? odd : seed4,   tx ? 61 : 4,     tx ? 37 : 4,
                                   modes[m].address,   modes[m].filter, modes[m].normalized,
                                   TM_WEIGHTS_MEASURED};
            int n = mode_coords(uv, &t, &rng);
            char label[96];
            snprintf(label, sizeof label, "texture %s (%s, %dx%d)", modes[m].name,
                     t.normalized ? "normalised" : "unnormalised", t.w, t.h);
            struct summary ms = sample(lab, &t, uv, got, n, label);
            struct agreement a = {0, 0, 0, {0, 0, 0, 0}, 0};
            for (int k = 0; k < n; k++) {
                double model, guide;
                int wrong = agree(&t, uv[k].x, uv[k].y, got[k], &a, &model, &guide);
                if (wrong && a.bad <= VERIFY_REPORT_CAP)
                    memlab_warn("%s: at (%.9g, %.9g) expected %.9g, got %.9g", label, uv[k].x,
                                uv[k].y, model, got[k]);
                if (fetches)
                    dump_fetch(fetches, lab, modes[m].name, &t, k, uv[k].x, uv[k].y, got[k], model,
                               guide, wrong);
            }
            if (!tx && t.normalized)
                printf("  %-14s %8.4f at (1.5, 5.5)   %8.4f at (2.0, 6.0)\n", modes[m].name, got[0],
                       got[1]);
            enum row_status status = lab_verdict(lab, label, (size_t)a.bad);
            if (lab->opts.check) {
                printf("%-26s %s: %d points%s\n", label, status == ROW_OK ? "verified" : "WRONG", n,
                       a.ties.ties || a.ties.product_ties ? ", ties included" : "");
                continue;
            }
            struct row r = {modes[m].name, t.w, (size_t)n, 12.0 * n, 0, ms, status};
            report_row(&rep, &r, "%dx%d,%s,%d,%d,%.2f,%lld,%lld,%lld,%lld,%d", t.w, t.h,
                       t.normalized ? "normalised" : "unnormalised", n, a.exact, a.max_ulp,
                       a.ties.ties, a.ties.ties_up, a.ties.product_ties, a.ties.product_ties_up,
                       a.guide_exact);
        }
    if (!lab->opts.check)
        report_close(&rep);
    if (fetches) {
        fclose(fetches);
        printf("every fetch of the modes: %s\n", path);
    }
}

void run_staircase(struct lab *lab)
{
    enum { STEPS = 1024 };
    static const float ramp[2] = {0.0f, 1.0f};
    struct tm_texture t = {ramp, 2, 1, TM_CLAMP, TM_LINEAR, 0, TM_WEIGHTS_MEASURED};
    static float2 uv[STEPS + 1];
    static float got[STEPS + 1];
    for (int j = 0; j <= STEPS; j++)
        uv[j] = make_float2(0.5f + (float)j / STEPS, 0.5f);
    struct summary ms = sample(lab, &t, uv, got, STEPS + 1, "staircase");
    struct agreement a = {0, 0, 0, {0, 0, 0, 0}, 0};
    struct report rep;
    if (!lab->opts.check)
        report_open(&rep, lab->csv_dir, "staircase", &lab->info, "step",
                    "alpha_exact,alpha_texture,alpha_model,tie");
    for (int j = 0; j <= STEPS; j++) {
        double model, guide;
        long long ties = a.ties.ties;
        int wrong = agree(&t, uv[j].x, uv[j].y, got[j], &a, &model, &guide);
        if (wrong && a.bad <= VERIFY_REPORT_CAP)
            memlab_warn("staircase: at x = %.6f expected %.9g, got %.9g", uv[j].x, model, got[j]);
        struct row r = {"tex2d_linear", j, 1, 12, 0, ms, wrong ? ROW_WRONG : ROW_OK};
        char extra[96];
        snprintf(extra, sizeof extra, "%.6f,%.8f,%.8f,%d", (double)j / STEPS, got[j], model,
                 a.ties.ties > ties);
        if (!lab->opts.check)
            csv_write_row(rep.csv, &lab->info, &r, extra);
    }
    enum row_status status = lab_verdict(lab, "staircase", (size_t)a.bad);
    int distinct = 1;
    for (int j = 1; j <= STEPS; j++)
        distinct += got[j] != got[j - 1];
    printf("staircase: %d fetches between two texels, %s; %d distinct values, %lld ties (%lld took "
           "the upper weight)\n",
           STEPS + 1, status == ROW_OK ? "each the 8-bit model's" : "WRONG", distinct, a.ties.ties,
           a.ties.ties_up);
    if (!lab->opts.check)
        report_close(&rep);
}
