/* driver.cu - lab 10 (constant, read-only and texture memory): the trusted driver. Students do
 * not edit this file.
 *
 * Experiments (seed 002, section III.E), CSVs in results/lab10/:
 *   modes      the texture unit against the CPU model (texture_model.h), element by element:
 *              wrap, clamp and border, point and linear filtering, normalised and not, on the
 *              seed's 4x4 matrix (with its m[5.5][1.5] example) and a 61x37 texture; the
 *              driver's own sampling kernel (trusted). Runs without --only, or alone with --modes.
 *   staircase  one linear fetch per 1/1024 of a texel between texels 0 and 1: the hardware's
 *              weight against the exact one (8 fractional bits). Runs with the modes.
 *   constant   the chase variants at k = 1, 2, 4 ... 32 distinct words per warp request;
 *              model_ms = the same variant's time at k = 1 x its serialisation factor:
 *              distinct words (constant cache) or distinct 128-byte lines (L1 paths)
 *   zoom       bilinear zoom about the centre (param: percent; 50 shrinks the image, so the
 *              clamp addressing of its edges counts), texture against
 *              global: time, and the error against exact weights (max_err, rms_err); the
 *              texture's result against the 8-bit model (model_max_ulp, ties, ties_up,
 *              product_ties, product_ties_up; off_model: pixels one weight step from it)
 *   rotate     rotation about the centre (param: degrees), border addressing; the same columns
 * bytes: zoom and rotate, one read of the input and one write of the output (8 a pixel);
 * the chase counts none (loads a second and cycles a load are its figures). Every variant is
 * verified at awkward sizes and at the timed size before it is timed; outputs poisoned, words
 * after them must stay poisoned, inputs unchanged. Timed repetitions run on inputs of their
 * own: a new cycle in the table (chase), signs flipped at random in the image and its
 * cudaArray (vary.h); two repetitions' outputs are checked (timing.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probes/chase.h"
#include "harness.h"
#include "image_check.h"
#include "kernels.h"
#include "modes.h"
#include "texture_model.h"

#define TW LAB10_TABLE_WORDS
#define CH LAB10_CHAINS
#define GUARD_WORDS 1024
#define MAX_EDGE 4096 /* zoom coordinates stay exact in float up to here */
#define POISON 0xFFFFFFFFu

static const int ks[] = {1, 2, 4, 8, 16, 32};
static const int awkward_threads[] = {1, 31, 4097};
static const int awkward_images[][2] = {{1, 1}, {7, 5}, {33, 17}, {129, 257}, {1001, 999}};
static const int zooms[] = {50, 137, 250}, angles[] = {0, 15, 30, 45, 60, 75, 90},
                 angles_quick[] = {0, 45, 90};

enum experiment { EXP_CHASE, EXP_ZOOM, EXP_ROTATE };

static enum experiment experiment_of(const char *name)
{
    return !strncmp(name, "chase_", 6)  ? EXP_CHASE
           : !strncmp(name, "zoom_", 5) ? EXP_ZOOM
                                        : EXP_ROTATE;
}

struct state {
    struct lab lab;
    /* the chase */
    unsigned *d_table, *d_starts, *d_ends;
    unsigned h_table[TW], order[TW];
    unsigned *pos, *h_starts, *h_words; /* cycle positions, starts, a download */
    int max_threads;
    /* the images */
    float *d_in, *d_out, *h_in, *h_key, *h_out;
    size_t max_pixels;
    cudaArray_t array;
    cudaTextureObject_t tex;
    int array_w, array_h;
    enum tm_address tex_address;
};

struct job {
    struct state *st;
    const struct lab10_variant *v;
    struct lab10_args a;
    int param, k;
    uint64_t key;            /* the pattern the inputs hold now */
    struct image_stats seen; /* what the last check saw (image variants) */
};

static int launch_job(void *ctx, cudaStream_t stream)
{
    struct job *j = (struct job *)ctx;
    return j->v->launch(&j->a, stream);
}

/* ---- the chase ---------------------------------------------------------------------------- */

/* Chain c of thread t starts on cycle position (lane % k) * TW/k + (a warp and chain offset):
 * at every hop the k lane groups of a warp stand on k distinct words. */
static void chase_positions(struct state *st, int threads, int k)
{
    for (int t = 0; t < threads; t++)
        for (int c = 0; c < CH; c++)
            st->pos[t * CH + c] = ((t % 32) % k * (TW / k) + c * 64 + (t / 32) * 5) % TW;
}

/* The cycle of pattern `key` (0: from --seed), its table of byte offsets and the starts. */
static void chase_inputs(struct state *st, int threads, uint64_t key, int upload)
{
    struct rng r = rng_seeded(st->lab.opts.seed ^ (key * 0x9e3779b97f4a7c15ull));
    chase_order(st->order, TW, TW, &r);
    chase_links(st->h_table, st->order, TW, 1);
    for (int w = 0; w < TW; w++)
        st->h_table[w] *= 4;
    for (int n = 0; n < threads * CH; n++)
        st->h_starts[n] = 4 * st->order[st->pos[n]];
    if (upload) {
        CUDA_CHECK(
            cudaMemcpy(st->d_table, st->h_table, sizeof st->h_table, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(st->d_starts, st->h_starts, threads * CH * sizeof(unsigned),
                              cudaMemcpyHostToDevice));
    }
}

/* Distinct words (shift 0) or 128-byte lines (shift 5) a warp request touches, on average
 * over the cycle, with k lane groups TW/k positions apart. */
static double distinct_per_request(const unsigned *order, int k, int shift)
{
    double total = 0;
    for (int p = 0; p < TW; p++) {
        unsigned seen[32];
        int n = 0;
        for (int g = 0; g < k; g++) {
            unsigned x = order[(p + g * (TW / k)) % TW] >> shift;
            int known = 0;
            for (int i = 0; i < n && !known; i++)
                known = seen[i] == x;
            if (!known)
                seen[n++] = x;
        }
        total += n;
    }
    return total / TW;
}

/* The ends against the cycle of key `key`; words after them poisoned; inputs unchanged. */
static size_t check_chase(void *ctx, uint64_t key, const char *label)
{
    struct job *j = (struct job *)ctx;
    struct state *st = j->st;
    int threads = j->a.threads, n = threads * CH;
    if (key != j->key) /* the table on the device is the one of `key`: rebuild the host's */
        chase_inputs(st, threads, key, 0), j->key = key;
    uint32_t *expected = (uint32_t *)st->h_key, *got = st->h_words;
    for (int i = 0; i < n; i++)
        expected[i] = 4 * st->order[(st->pos[i] + j->a.steps) % TW];
    for (int i = n; i < n + GUARD_WORDS; i++)
        expected[i] = POISON;
    CUDA_CHECK(
        cudaMemcpy(got, st->d_ends, (n + GUARD_WORDS) * sizeof(unsigned), cudaMemcpyDeviceToHost));
    size_t bad = verify_words(label, got, expected, n + GUARD_WORDS);
    CUDA_CHECK(cudaMemcpy(got, st->d_table, sizeof st->h_table, cudaMemcpyDeviceToHost));
    size_t changed = verify_words("table changed", got, st->h_table, TW);
    CUDA_CHECK(cudaMemcpy(got, st->d_starts, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    changed += verify_words("starts changed", got, st->h_starts, n);
    if (changed)
        memlab_warn("%s modified its input (%zu words)", label, changed);
    return bad + changed;
}

static void vary_chase(void *ctx, uint64_t from, uint64_t to)
{
    (void)from;
    struct job *j = (struct job *)ctx;
    chase_inputs(j->st, j->a.threads, to, 1);
    j->key = to;
}

static void chase_job(struct job *j, int threads, int steps, int k)
{
    struct state *st = j->st;
    j->k = j->param = k;
    j->a.ends = st->d_ends;
    j->a.starts = st->d_starts;
    j->a.table = st->d_table;
    j->a.threads = threads;
    j->a.steps = steps;
    chase_positions(st, threads, k);
    chase_inputs(st, threads, 0, 1);
    j->key = 0;
}

/* ---- the images ---------------------------------------------------------------------------- */

/* A cudaArray of w x h floats holding d_in, and a texture over it (linear, unnormalised). */
static void image_texture(struct state *st, int w, int h, enum tm_address address)
{
    if (st->array_w != w || st->array_h != h) {
        if (st->array)
            CUDA_CHECK(cudaFreeArray(st->array));
        cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
        CUDA_CHECK(cudaMallocArray(&st->array, &f, w, h));
        st->array_w = w, st->array_h = h;
    }
    CUDA_CHECK(cudaMemcpy2DToArray(st->array, 0, 0, st->d_in, w * sizeof(float), w * sizeof(float),
                                   h, cudaMemcpyDeviceToDevice));
    if (st->tex)
        CUDA_CHECK(cudaDestroyTextureObject(st->tex));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = st->array;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] =
        address == TM_CLAMP ? cudaAddressModeClamp : cudaAddressModeBorder;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    CUDA_CHECK(cudaCreateTextureObject(&st->tex, &res, &td, NULL));
    st->tex_address = address;
}

/* Zoom by param percent about the centre, with the scale rounded so that every source point
 * is exact in float (w, h <= MAX_EDGE); rotation by param degrees about the centre. */
static struct lab10_map map_for(enum experiment e, int param, int w, int h)
{
    double cx = w / 2.0, cy = h / 2.0;
    struct lab10_map m;
    if (e == EXP_ZOOM) {
        int bits = 0;
        while ((1 << bits) < (w > h ? w : h) + 1)
            bits++;
        double unit = ldexp(1.0, bits < 2 ? 20 : 22 - bits), s = round(100.0 / param * unit) / unit;
        m.x0 = (float)(cx * (1 - s)), m.xx = (float)s, m.xy = 0;
        m.y0 = (float)(cy * (1 - s)), m.yx = 0, m.yy = (float)s;
    } else {
        double c = param % 90 ? cos(param * M_PI / 180)
                              : (param / 90 % 4 == 0   ? 1
                                 : param / 90 % 4 == 2 ? -1
                                                       : 0);
        double s = param % 90 ? sin(param * M_PI / 180)
                              : (param / 90 % 4 == 1   ? 1
                                 : param / 90 % 4 == 3 ? -1
                                                       : 0);
        m.x0 = (float)(cx - c * cx - s * cy), m.xx = (float)c, m.xy = (float)s;
        m.y0 = (float)(cy + s * cx - c * cy), m.yx = (float)-s, m.yy = (float)c;
    }
    return m;
}

static void image_job(struct job *j, enum experiment e, int param, int w, int h)
{
    struct state *st = j->st;
    j->param = param;
    j->a.out = st->d_out, j->a.out_w = w, j->a.out_h = h;
    j->a.in = st->d_in, j->a.in_w = w, j->a.in_h = h;
    j->a.map = map_for(e, param, w, h);
    CUDA_CHECK(
        cudaMemcpy(st->d_in, st->h_in, (size_t)w * h * sizeof(float), cudaMemcpyHostToDevice));
    image_texture(st, w, h, e == EXP_ZOOM ? TM_CLAMP : TM_BORDER);
    j->a.tex = st->tex;
    j->key = 0;
}

/* The input of pattern key (vary.h), on the host (on every core: millions of pixels). */
static const float *input_of(struct state *st, size_t n, uint64_t key)
{
#pragma omp parallel for
    for (size_t i = 0; i < n; i++)
        st->h_key[i] = vary_float(st->h_in[i], i, key);
    return st->h_key;
}

/* Each pixel against the CPU (image_check.h), words after the output still poisoned, the
 * input unchanged. */
static size_t check_image(void *ctx, uint64_t key, const char *label)
{
    struct job *j = (struct job *)ctx;
    struct state *st = j->st;
    int w = j->a.out_w, h = j->a.out_h, e = experiment_of(j->v->name);
    size_t n = (size_t)w * h, changed = 0;
    const float *in = input_of(st, n, key);
    CUDA_CHECK(cudaMemcpy(st->h_out, st->d_out, (n + GUARD_WORDS) * sizeof(float),
                          cudaMemcpyDeviceToHost));
    struct image_check c = {
        {in, w, h, e == EXP_ZOOM ? TM_CLAMP : TM_BORDER, TM_LINEAR, 0, TM_WEIGHTS_MEASURED},
        j->a.map,
        st->h_out,
        strstr(j->v->name, "_texture") != NULL,
        e == EXP_ROTATE};
    j->seen = image_check(&c, label);
    for (size_t i = n; i < n + GUARD_WORDS; i++)
        changed += ((const uint32_t *)st->h_out)[i] != POISON;
    if (changed)
        memlab_warn("%s wrote %zu words past the output's end", label, changed);
    CUDA_CHECK(cudaMemcpy(st->h_out, st->d_in, n * sizeof(float), cudaMemcpyDeviceToHost));
    size_t touched =
        verify_words("input changed", (const uint32_t *)st->h_out, (const uint32_t *)in, n);
    if (touched)
        memlab_warn("%s modified its input (%zu words)", label, touched);
    return j->seen.bad + changed + touched;
}

/* Timed repetitions: the image's signs flip to the pattern, in d_in and in the cudaArray. */
static void vary_image(void *ctx, uint64_t from, uint64_t to)
{
    struct job *j = (struct job *)ctx;
    int w = j->a.in_w, h = j->a.in_h;
    gpu_vary_floats(j->st->d_in, (size_t)w * h, from, to);
    CUDA_CHECK(cudaMemcpy2DToArray(j->st->array, 0, 0, j->st->d_in, w * sizeof(float),
                                   w * sizeof(float), h, cudaMemcpyDeviceToDevice));
    j->key = to;
}

/* ---- verify, time, report ------------------------------------------------------------------ */

static enum row_status verify_job(struct job *j, const char *label)
{
    enum experiment e = experiment_of(j->v->name);
    size_t words = e == EXP_CHASE ? (size_t)j->a.threads * CH : (size_t)j->a.out_w * j->a.out_h;
    gpu_poison(e == EXP_CHASE ? (void *)j->st->d_ends : (void *)j->st->d_out,
               (words + GUARD_WORDS) * 4);
    if (launch_job(j, 0) == LAB_NOT_IMPLEMENTED)
        return ROW_NOT_IMPLEMENTED;
    gpu_check_launch(label);
    size_t bad = e == EXP_CHASE ? check_chase(j, j->key, label) : check_image(j, j->key, label);
    return lab_verdict(&j->st->lab, label, bad);
}

/* Awkward sizes first: thread counts (k = 1, 3, 32) or images (every parameter of the sweep). */
static enum row_status verify_awkward(struct state *st, const struct lab10_variant *v,
                                      const int *params, int count)
{
    char label[160];
    enum experiment e = experiment_of(v->name);
    const int chase_ks[] = {1, 3, 32};
    int sizes = e == EXP_CHASE ? 3 : (int)(sizeof awkward_images / sizeof awkward_images[0]);
    for (int s = 0; s < sizes; s++)
        for (int p = 0; p < (e == EXP_CHASE || count > 3 ? 3 : count); p++) {
            struct job j;
            memset(&j, 0, sizeof j);
            j.st = st, j.v = v;
            if (e == EXP_CHASE) {
                chase_job(&j, awkward_threads[s], 37, chase_ks[p]);
                snprintf(label, sizeof label, "%s (k %d, %d threads, 37 hops)", v->name,
                         chase_ks[p], awkward_threads[s]);
            } else {
                image_job(&j, e, params[p], awkward_images[s][0], awkward_images[s][1]);
                snprintf(label, sizeof label, "%s (%s %d, %dx%d)", v->name,
                         e == EXP_ZOOM ? "zoom" : "angle", params[p], awkward_images[s][0],
                         awkward_images[s][1]);
            }
            enum row_status status = verify_job(&j, label);
            if (status != ROW_OK)
                return status;
        }
    return ROW_OK;
}

static void run_experiment(struct state *st, enum experiment e, int edge, int steps)
{
    struct lab *lab = &st->lab;
    const char *names[] = {"constant", "zoom", "rotate"};
    const int *params = e == EXP_CHASE    ? ks
                        : e == EXP_ZOOM   ? zooms
                        : lab->opts.quick ? angles_quick
                                          : angles;
    int count = e == EXP_CHASE    ? 6
                : e == EXP_ZOOM   ? (lab->opts.quick ? 2 : 3)
                : lab->opts.quick ? 3
                                  : 7;
    const char *columns =
        e == EXP_CHASE
            ? "k,distinct_words,distinct_lines,gloads_s,clk_per_load,slowdown,model,model_ms,"
              "model_error_pct"
            : "w,h,gpix_s,max_err,rms_err,model_max_ulp,ties,ties_up,product_ties,"
              "product_ties_up,off_model";
    struct timing_config cfg = lab_timing(lab, 0);
    struct report rep;
    double clock_mhz = e == EXP_CHASE && !lab->opts.check ? gpu_measure_sm_clock_mhz(5.0) : 0;
    if (!lab->opts.check)
        report_open(&rep, lab->csv_dir, names[e], &lab->info,
                    e == EXP_CHASE  ? "k"
                    : e == EXP_ZOOM ? "zoom%"
                                    : "degrees",
                    columns);
    for (int vi = 0; vi < lab10_variant_count; vi++) {
        const struct lab10_variant *v = &lab10_variants[vi];
        if (experiment_of(v->name) != e || !cli_selects(&lab->opts, v->name))
            continue;
        enum row_status early = verify_awkward(st, v, params, count);
        if (early != ROW_OK) {
            struct row r = {v->name, params[0], 0, 0, 0, {0, 0, 0, 0}, early};
            if (lab->opts.check)
                printf("%-26s %s\n", v->name, row_status_name(early));
            else if (e == EXP_CHASE)
                report_row(&rep, &r, "%d,,,,,,,,", params[0]);
            else
                report_row(&rep, &r, "%s", ",,,,,,,");
            continue;
        }
        double first_ms = 0, first_factor = 1;
        for (int p = 0; p < count; p++) {
            char label[160];
            struct job j;
            memset(&j, 0, sizeof j);
            j.st = st, j.v = v;
            if (e == EXP_CHASE) {
                chase_job(&j, st->max_threads, steps, params[p]);
                snprintf(label, sizeof label, "%s (k %d)", v->name, params[p]);
            } else {
                image_job(&j, e, params[p], edge, edge);
                snprintf(label, sizeof label, "%s (%s %d)", v->name, names[e], params[p]);
            }
            enum row_status status = verify_job(&j, label);
            struct image_stats seen = j.seen; /* what the check before timing saw */
            if (lab->opts.check)
                continue;
            double pixels = (double)edge * edge, loads = (double)st->max_threads * CH * steps;
            struct row r = {v->name,
                            params[p],
                            e == EXP_CHASE ? (size_t)loads : (size_t)pixels,
                            e == EXP_CHASE ? 0 : 8 * pixels,
                            0,
                            {0, 0, 0, 0},
                            status};
            if (status == ROW_OK) {
                struct timed_job t = {label,
                                      launch_job,
                                      &j,
                                      e == EXP_CHASE ? vary_chase : vary_image,
                                      e == EXP_CHASE ? check_chase : check_image,
                                      {0, 0, 0, 0, 0, 0, 0}};
                if (e == EXP_CHASE)
                    t.work.dependent_loads = steps, t.work.load_floor_ns = 2.0;
                else
                    t.work.dram_bytes = t.work.written_bytes = 4 * pixels;
                r.status = status = lab_time(lab, &t, &cfg, &r.ms);
            }
            int ok = status == ROW_OK;
            if (e != EXP_CHASE) {
                int model = strstr(v->name, "_texture") != NULL;
                char extra[256];
                snprintf(extra, sizeof extra, ok ? "%d,%d,%.3f,%.3g,%.3g" : "%d,%d,,,", edge, edge,
                         pixels / (r.ms.median * 1e6), seen.max_err, sqrt(seen.sum_sq / pixels));
                if (ok && model)
                    snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                             ",%.2f,%lld,%lld,%lld,%lld,%lld", seen.max_ulp, seen.ties.ties,
                             seen.ties.ties_up, seen.ties.product_ties, seen.ties.product_ties_up,
                             seen.off_model);
                else
                    strcat(extra, ",,,,,,");
                report_row(&rep, &r, "%s", extra);
                continue;
            }
            int constant = !strcmp(v->name, "chase_constant");
            double factor = distinct_per_request(st->order, params[p], constant ? 0 : 5);
            if (p == 0 && ok)
                first_ms = r.ms.median, first_factor = factor;
            double model_ms = first_ms * factor / first_factor;
            double warp_loads_per_sm = loads / 32 / lab->gpu.sms;
            if (ok && first_ms > 0)
                report_row(&rep, &r, "%d,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%.4f,%.1f", params[p],
                           distinct_per_request(st->order, params[p], 0),
                           distinct_per_request(st->order, params[p], 5),
                           loads / (r.ms.median * 1e6),
                           r.ms.median * 1e3 * clock_mhz / warp_loads_per_sm,
                           r.ms.median / first_ms, constant ? "words" : "lines", model_ms,
                           100 * (r.ms.median - model_ms) / model_ms);
            else
                report_row(&rep, &r, "%d,,,,,,,,", params[p]);
        }
        if (lab->opts.check)
            printf("%-26s verified: awkward sizes, then %d point(s) at the %s size\n", v->name,
                   count, e == EXP_CHASE ? "timed chase" : "timed image");
    }
    if (!lab->opts.check)
        report_close(&rep);
}

int main(int argc, char **argv)
{
    static struct state st;
    static long long steps_opt, modes_only, dump_fetches;
    const struct cli_extra extra[] = {
        {"steps", "N",
         "hops of every chain in the constant experiment (default 2048; --quick 1024)", &steps_opt,
         1, 1 << 20},
        {"modes", NULL, "only the texture modes and the staircase (the driver's own fetches)",
         &modes_only, 0, 1},
        {"dump-fetches", NULL,
         "every fetch of the texture modes to fetches.csv: coordinates, texels, GPU and model",
         &dump_fetches, 0, 1},
    };
    const struct lab_description d = {10,
                                      "Lab 10, constant, read-only and texture memory: broadcasts, "
                                      "8-bit filter weights, 2D locality.",
                                      LAB_TABLE(lab10_variants, lab10_variant_count), extra, 3};
    lab_start(&st.lab, &d, argc, argv);
    struct lab *lab = &st.lab;
    do {
        st.array = NULL, st.tex = 0, st.array_w = st.array_h = 0; /* the last size freed them */
        if (lab->opts.n > MAX_EDGE)
            memlab_die(EXIT_USAGE, "--n is the edge of the images: 1 to %d (got %zu)", MAX_EDGE,
                       lab->opts.n);
        int edge = (int)lab->opts.n;
        if (!edge) /* the smallest power of two whose image outgrows the L2 (--quick: a quarter of
                      it) */
            for (edge = 256; edge < MAX_EDGE && (size_t)edge * edge * 4 < lab->gpu.l2_bytes;
                 edge *= 2)
                ;
        if (!lab->opts.n && lab->opts.quick)
            edge /= 2;
        int steps = steps_opt ? (int)steps_opt : lab->opts.quick ? 1024 : 2048;

        st.max_threads = lab->gpu.sms * lab->gpu.max_threads_per_sm;
        size_t chase_words = (size_t)(st.max_threads > 4097 ? st.max_threads : 4097) * CH;
        st.d_table = (unsigned *)gpu_alloc(TW * sizeof(unsigned), "the chase's table");
        st.d_starts = (unsigned *)gpu_alloc(chase_words * sizeof(unsigned), "the chase's starts");
        st.d_ends = (unsigned *)gpu_alloc((chase_words + GUARD_WORDS) * sizeof(unsigned),
                                          "the chase's ends");
        st.max_pixels = (size_t)edge * edge > 1001 * 999 ? (size_t)edge * edge : 1001 * 999;
        size_t host_words = st.max_pixels > chase_words ? st.max_pixels : chase_words;
        st.d_in = (float *)gpu_alloc(st.max_pixels * sizeof(float), "the input image");
        st.d_out =
            (float *)gpu_alloc((st.max_pixels + GUARD_WORDS) * sizeof(float), "the output image");
        st.pos = (unsigned *)malloc(chase_words * sizeof(unsigned));
        st.h_starts = (unsigned *)malloc(chase_words * sizeof(unsigned));
        st.h_words = (unsigned *)malloc((chase_words + GUARD_WORDS) * sizeof(unsigned));
        st.h_in = (float *)malloc(st.max_pixels * sizeof(float));
        st.h_key = (float *)malloc((host_words + GUARD_WORDS) * sizeof(float));
        st.h_out = (float *)malloc((st.max_pixels + GUARD_WORDS) * sizeof(float));
        if (!st.pos || !st.h_starts || !st.h_words || !st.h_in || !st.h_key || !st.h_out)
            memlab_die(EXIT_USAGE, "out of host memory: use a smaller --n");
        struct rng rng = rng_seeded(lab->opts.seed);
        rng_fill_floats(&rng, st.h_in, st.max_pixels, -1.0f, 1.0f);
        printf("chase: %d threads x %d chains x %d hops through a %d-word table; images: %dx%d "
               "floats (%.1f MiB, %.2fx the "
               "L2)%s\n",
               st.max_threads, CH, steps, TW, edge, edge, edge * (double)edge * 4 / 1048576,
               edge * (double)edge * 4 / lab->gpu.l2_bytes,
               lab->opts.check ? "; verifying only" : "");

        if (!lab->opts.only || modes_only) {
            run_modes(lab, (int)dump_fetches);
            run_staircase(lab);
        }
        for (int e = EXP_CHASE; !modes_only && e <= EXP_ROTATE; e++)
            run_experiment(&st, (enum experiment)e, edge, steps);

        if (st.tex)
            CUDA_CHECK(cudaDestroyTextureObject(st.tex));
        if (st.array)
            CUDA_CHECK(cudaFreeArray(st.array));
        gpu_free(st.d_table);
        gpu_free(st.d_starts);
        gpu_free(st.d_ends);
        gpu_free(st.d_in);
        gpu_free(st.d_out);
        free(st.pos), free(st.h_starts), free(st.h_words), free(st.h_in), free(st.h_key),
            free(st.h_out);
    } while (lab_next_size(lab));
    return lab_finish(lab);
}
