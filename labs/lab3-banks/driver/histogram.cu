/* histogram.cu - lab 3's histogram experiment (trusted; declared in histogram.h).
 *
 * n samples (default 2^25, --quick 2^23, --full 2^26, or --n) are counted into bins = 32,
 * 64, ..., 4096 bins (--hist-bins: one of them), from three inputs:
 *   uniform  every bin equally likely
 *   hot1     90% of the samples in bin 0, the rest uniform
 *   hot8     90% in eight bins (0, bins/2, 1, bins-1, 2, bins-2, 3, bins-3), the rest uniform
 * Beside the table's hist_* variants, CUB's DeviceHistogram::HistogramEven counts the same
 * samples (trusted: verified once, timed without the guard). bytes = the samples read (4 per
 * sample). Extra columns: input; hot_share (of the samples in the hot bins);
 * pct_of_cub = CUB's time / the variant's, in %; x_vs_global_atomics = hist_global_atomics'
 * time / the variant's.
 * Every variant is verified first at n = 1, 31, 4097, 100003 with 1, 45, 1000 and 4093 bins
 * (uniform and hot1), then at the timed size for each input and bin count: the histogram
 * exact, the words after it still poisoned, the samples unchanged. While timed, each
 * repetition counts samples of its own: about half of them negated (vary.h), which moves a
 * sample from bin b to bin bins - b (lab3_bin) and keeps every input's hot bins hot; two
 * repetitions' histograms are checked against their own samples.
 */
#include "histogram.h"

#include <cub/cub.cuh>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "probes/profile.h"

#define CUB_NAME "cub_histogram_even"
#define GUARD_WORDS 1024 /* poisoned words after the histogram: writes past it show */
#define POISON_WORD 0xFFFFFFFFu
#define HOT_TENTHS 9 /* of the samples that go to the hot bins of a skewed input */
#define MAX_HOT_BINS 8

struct input {
    const char *name;
    int hot_bins; /* 0: uniform */
};
static const struct input inputs[] = {{"uniform", 0}, {"hot1", 1}, {"hot8", 8}};
#define INPUTS (int)(sizeof inputs / sizeof inputs[0])

static const int timed_bins[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
static const int quick_bins[] = {32, 256, 4096};
static const int check_bins[] = {1, 45, 1000, 4093}; /* not powers of two */
static const size_t awkward_sizes[] = {1, 31, 4097, 100003};
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

struct hist_buffers {
    size_t capacity; /* samples */
    int *samples;    /* device: capacity */
    uint32_t *hist;  /* device: LAB3_HIST_BINS_MAX + GUARD_WORDS */
    void *cub_temp;  /* device: CUB's temporary storage */
    size_t cub_temp_bytes;
    uint32_t *draws;       /* host: the random draws every input is made from */
    int *written;          /* host: the samples as written */
    int *expected_samples; /* host: the samples as the pattern being checked has them */
    int *got_samples;
    uint32_t expected[LAB3_HIST_BINS_MAX + GUARD_WORDS], got[LAB3_HIST_BINS_MAX + GUARD_WORDS];
    uint64_t expected_key; /* the pattern `expected` and `expected_samples` are of */
};

/* What one verification or timing needs: the buffers, the size and the bins counted. */
struct hist_job {
    struct hist_buffers *b;
    const struct lab3_variant *v; /* NULL: CUB */
    size_t n;
    int bins;
};

int is_histogram_variant(const char *name)
{
    return !strncmp(name, HISTOGRAM_PREFIX, strlen(HISTOGRAM_PREFIX));
}

/* Hot bin k of a skewed input: 0, bins/2, then 1, bins-1, 2, bins-2, ... A set that negation
 * (bin b to bins - b) maps onto itself, so a varied input stays as skewed. */
static int hot_bin(int k, int bins)
{
    int b = k == 0 ? 0 : k == 1 ? bins / 2 : k % 2 == 0 ? k / 2 : bins - k / 2;
    return ((b % bins) + bins) % bins;
}

/* The first n samples of `in` for `bins` bins, from the draws. */
static void make_samples(struct hist_buffers *b, const struct input *in, size_t n, int bins)
{
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
        uint32_t draw = b->draws[i];
        if (in->hot_bins && draw % 10 < HOT_TENTHS)
            b->written[i] = hot_bin((int)(draw / 10 % in->hot_bins), bins);
        else
            b->written[i] = (int)(draw / 10 % (uint32_t)bins);
    }
    CUDA_CHECK(cudaMemcpy(b->samples, b->written, n * sizeof(int), cudaMemcpyHostToDevice));
}

/* The histogram of pattern `key` of the samples as written (vary.h), and the words after
 * it poisoned, into b->expected; the samples of that pattern into b->expected_samples. */
static void expect_pattern(struct hist_buffers *b, size_t n, int bins, uint64_t key)
{
    b->expected_key = key;
    memset(b->expected, 0, bins * sizeof(uint32_t));
    for (int g = 0; g < GUARD_WORDS; g++)
        b->expected[bins + g] = POISON_WORD;
#pragma omp parallel
    {
        uint32_t counts[LAB3_HIST_BINS_MAX];
        memset(counts, 0, bins * sizeof(uint32_t));
#pragma omp for nowait
        for (size_t i = 0; i < n; i++) {
            int s = vary_int(b->written[i], i, key);
            b->expected_samples[i] = s;
            counts[lab3_bin(s, bins)]++;
        }
#pragma omp critical
        for (int k = 0; k < bins; k++)
            b->expected[k] += counts[k];
    }
}

/* Mismatches of the histogram and the words after it against b->expected, and of the
 * samples against b->expected_samples. */
static size_t compare_histogram(struct hist_buffers *b, size_t n, int bins, const char *label)
{
    size_t words = (size_t)bins + GUARD_WORDS;
    CUDA_CHECK(cudaMemcpy(b->got, b->hist, words * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    size_t bad = verify_words(label, b->got, b->expected, words);
    CUDA_CHECK(cudaMemcpy(b->got_samples, b->samples, n * sizeof(int), cudaMemcpyDeviceToHost));
    size_t changed = verify_words("input changed", (const uint32_t *)b->got_samples,
                                  (const uint32_t *)b->expected_samples, n);
    if (changed)
        memlab_warn("%s modified its samples (%zu of them)", label, changed);
    return bad + changed;
}

/* CUB counts the int samples between bins + 1 levels from 0 to bins, given as floats. With
 * int levels CUB bins each sample in 64-bit integers, (s - 0) * bins / bins: a multiply and
 * an integer division per sample. With float levels it converts the sample and multiplies
 * by bins / bins = 1.0f, no division, and the bin is exact for any sample under 2^24. */
static cudaError_t cub_histogram(void *temp, size_t &temp_bytes, const int *samples, uint32_t *hist,
                                 int bins, size_t n, cudaStream_t stream)
{
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, samples, hist, bins + 1, 0.0f,
                                               (float)bins, (int)n, stream);
}

static int launch_cub(struct hist_job *j, cudaStream_t stream)
{
    size_t temp_bytes = j->b->cub_temp_bytes;
    CUDA_CHECK(cub_histogram(j->b->cub_temp, temp_bytes, j->b->samples, j->b->hist, j->bins, j->n,
                             stream));
    return LAB_OK;
}

static int launch_job(void *ctx, cudaStream_t stream)
{
    struct hist_job *j = (struct hist_job *)ctx;
    if (!j->v)
        return launch_cub(j, stream);
    return j->v->launch(j->b->hist, (const uint32_t *)j->b->samples, j->n, j->bins, stream);
}

/* Poison, launch, compare with the histogram of the samples as written (expect_pattern
 * must have run for this n and bins; a timed check since leaves another pattern). */
static enum row_status verify_job(struct lab *lab, struct hist_job *j, const char *label)
{
    if (j->b->expected_key != 0)
        expect_pattern(j->b, j->n, j->bins, 0);
    gpu_poison(j->b->hist, ((size_t)j->bins + GUARD_WORDS) * sizeof(uint32_t));
    if (launch_job(j, 0) == LAB_NOT_IMPLEMENTED)
        return ROW_NOT_IMPLEMENTED;
    gpu_check_launch(label);
    return lab_verdict(lab, label, compare_histogram(j->b, j->n, j->bins, label));
}

static void vary_samples(void *ctx, uint64_t from, uint64_t to)
{
    struct hist_job *j = (struct hist_job *)ctx;
    gpu_vary_ints(j->b->samples, j->n, from, to);
}

static size_t check_repetition(void *ctx, uint64_t key, const char *label)
{
    struct hist_job *j = (struct hist_job *)ctx;
    expect_pattern(j->b, j->n, j->bins, key);
    return compare_histogram(j->b, j->n, j->bins, label);
}

/* CUB's temporary storage for every (n, bins) the run counts. */
static void size_cub_temp(struct hist_buffers *b, size_t n, const int *bins, int count)
{
    b->cub_temp_bytes = 0;
    for (int k = 0; k < count + COUNT(check_bins); k++) {
        int bn = k < count ? bins[k] : check_bins[k - count];
        for (int s = -1; s < COUNT(awkward_sizes); s++) {
            size_t need = 0, samples = s < 0 ? n : awkward_sizes[s];
            CUDA_CHECK(cub_histogram(NULL, need, b->samples, b->hist, bn, samples, 0));
            if (need > b->cub_temp_bytes)
                b->cub_temp_bytes = need;
        }
    }
    b->cub_temp = gpu_alloc(b->cub_temp_bytes, "CUB's temporary storage");
}

/* Each selected variant at the awkward sizes and bin counts; 0 once it reports not
 * implemented, which `implemented[v]` then records. */
static void verify_awkward(struct lab *lab, struct hist_buffers *b, const int *selected,
                           int *implemented)
{
    for (int v = 0; v < lab3_variant_count; v++) {
        if (!selected[v])
            continue;
        for (int c = 0; c < COUNT(check_bins) && implemented[v]; c++)
            for (int in = 0; in < 2 && implemented[v]; in++)
                for (int s = 0; s < COUNT(awkward_sizes) && implemented[v]; s++) {
                    struct hist_job j = {b, &lab3_variants[v], awkward_sizes[s], check_bins[c]};
                    char label[160];
                    snprintf(label, sizeof label, "%s (%s, %d bins, n %zu)", j.v->name,
                             inputs[in].name, j.bins, j.n);
                    make_samples(b, &inputs[in], j.n, j.bins);
                    expect_pattern(b, j.n, j.bins, 0);
                    implemented[v] = verify_job(lab, &j, label) != ROW_NOT_IMPLEMENTED;
                }
    }
}

struct hist_results {
    double ms[INPUTS][LAB3_HIST_BINS_MAX + 1][2]; /* [input][bins][privatised?]: 0 if none */
    double cub_ms[INPUTS][LAB3_HIST_BINS_MAX + 1];
};

static void report_point(struct lab *lab, struct report *rep, struct hist_job *j, int input,
                         enum row_status status, const char *label, double cub_ms, double global_ms,
                         double *ms_out)
{
    const char *name = j->v ? j->v->name : CUB_NAME;
    struct row r = {name, j->bins, j->n, 4.0 * j->n, 0, {0, 0, 0, 0}, status};
    char hot[16];
    snprintf(hot, sizeof hot, "%.1f", inputs[input].hot_bins ? HOT_TENTHS / 10.0 : 0.0);
    if (status == ROW_OK) {
        struct timing_config timing = lab_timing(lab, 0);
        struct timed_job timed = {label,
                                  launch_job,
                                  j,
                                  j->v ? vary_samples : NULL,
                                  j->v ? check_repetition : NULL,
                                  {4.0 * j->n, 0, 0, 0, 0, 0, 4.0 * j->bins}};
        r.status = lab_time(lab, &timed, &timing, &r.ms);
    }
    if (r.status != ROW_OK) {
        report_row(rep, &r, "%s,%s,,", inputs[input].name, hot);
        return;
    }
    *ms_out = r.ms.median;
    char pct[32] = "", x[32] = "";
    if (cub_ms > 0)
        snprintf(pct, sizeof pct, "%.1f", 100.0 * cub_ms / r.ms.median);
    if (global_ms > 0)
        snprintf(x, sizeof x, "%.2f", global_ms / r.ms.median);
    report_row(rep, &r, "%s,%s,%s,%s", inputs[input].name, hot, pct, x);
}

/* The benchmark's two lines, from this run's times. */
static void print_summary(const struct hist_results *res, const int *bins, int count)
{
    printf("\nhistogram summary (the lab's benchmark: hist_shared_privatised at >= 90%% of CUB at "
           "4096 bins, uniform input; >= 5x hist_global_atomics on the skewed inputs)\n");
    for (int in = 0; in < INPUTS; in++) {
        double lo = 0, hi = 0;
        int lo_bins = 0, hi_bins = 0;
        for (int k = 0; k < count; k++) {
            double g = res->ms[in][bins[k]][0], p = res->ms[in][bins[k]][1];
            if (g <= 0 || p <= 0)
                continue;
            if (!lo_bins || g / p < lo)
                lo = g / p, lo_bins = bins[k];
            if (!hi_bins || g / p > hi)
                hi = g / p, hi_bins = bins[k];
        }
        double cub = res->cub_ms[in][LAB3_HIST_BINS_MAX], p = res->ms[in][LAB3_HIST_BINS_MAX][1];
        printf("  %-8s", inputs[in].name);
        if (cub > 0 && p > 0)
            printf(" 4096 bins: %.1f%% of CUB%s;", 100.0 * cub / p,
                   in == 0 ? (cub / p >= 0.9 ? " (>= 90%: met)" : " (>= 90%: NOT met)") : "");
        if (lo_bins)
            printf(" %.1fx (%d bins) to %.1fx (%d bins) faster than hist_global_atomics%s", lo,
                   lo_bins, hi, hi_bins,
                   in == 0 ? "" : (lo >= 5 ? " (>= 5x: met)" : " (>= 5x: NOT met)"));
        printf("\n");
    }
}

/* The selected histogram variants (selected[v] for each of the table's); 0 if none. */
static int select_variants(const struct lab *lab, int *selected)
{
    int any = 0;
    for (int v = 0; v < lab3_variant_count && v < 64; v++) {
        selected[v] = is_histogram_variant(lab3_variants[v].name) &&
                      cli_selects(&lab->opts, lab3_variants[v].name);
        any |= selected[v];
    }
    return any;
}

/* The run's bin counts (--quick, --hist-bins) and how many. */
static const int *run_bins(const struct lab *lab, const int *only_bins, int *count)
{
    if (*only_bins > 0) {
        *count = 1;
        return only_bins;
    }
    *count = lab->opts.quick ? COUNT(quick_bins) : COUNT(timed_bins);
    return lab->opts.quick ? quick_bins : timed_bins;
}

/* The timed size: samples per launch. */
static size_t run_samples(const struct lab *lab)
{
    size_t n = lab->opts.n ? lab->opts.n
                           : (size_t)1 << (lab->opts.quick  ? 23
                                           : lab->opts.full ? 26
                                                            : 25);
    if (n > (size_t)INT32_MAX)
        memlab_die(EXIT_USAGE, "the histogram counts at most %d samples (CUB's limit)", INT32_MAX);
    return n;
}

/* The buffers for n samples (and the awkward sizes), the random draws made. */
static void open_buffers(const struct lab *lab, struct hist_buffers *b, size_t n)
{
    b->capacity =
        n > awkward_sizes[COUNT(awkward_sizes) - 1] ? n : awkward_sizes[COUNT(awkward_sizes) - 1];
    b->samples = (int *)gpu_alloc(b->capacity * sizeof(int), "the histogram's samples");
    b->hist = (uint32_t *)gpu_alloc((LAB3_HIST_BINS_MAX + GUARD_WORDS) * sizeof(uint32_t),
                                    "the histogram");
    b->cub_temp = NULL;
    b->draws = (uint32_t *)malloc(b->capacity * sizeof(uint32_t));
    b->written = (int *)malloc(b->capacity * sizeof(int));
    b->expected_samples = (int *)malloc(b->capacity * sizeof(int));
    b->got_samples = (int *)malloc(b->capacity * sizeof(int));
    if (!b->draws || !b->written || !b->expected_samples || !b->got_samples)
        memlab_die(EXIT_USAGE, "out of host memory for %zu samples: use a smaller --n",
                   b->capacity);
    struct rng rng = rng_seeded(lab->opts.seed ^ 0x4849u);
    rng_fill_below(&rng, b->draws, b->capacity, (uint64_t)1 << 32);
}

static void close_buffers(struct hist_buffers *b)
{
    if (b->cub_temp)
        gpu_free(b->cub_temp);
    gpu_free(b->hist);
    gpu_free(b->samples);
    free(b->draws);
    free(b->written);
    free(b->expected_samples);
    free(b->got_samples);
}

void histogram_profile_points(struct lab *lab, int only_bins, int first)
{
    int selected[64] = {0}, count;
    if (!select_variants(lab, selected))
        return;
    const int *bins = run_bins(lab, &only_bins, &count);
    size_t n = run_samples(lab);
    static struct hist_buffers b; /* large: not on the stack */
    open_buffers(lab, &b, n);
    int point = first;
    for (int v = 0; v < lab3_variant_count; v++) {
        if (!selected[v])
            continue;
        for (int in = 0; in < INPUTS; in++)
            for (int k = 0; k < count; k++) {
                char what[64];
                snprintf(what, sizeof what, "%s, %d bins", inputs[in].name, bins[k]);
                make_samples(&b, &inputs[in], n, bins[k]);
                profile_mark_named(point++, what);
                lab3_variants[v].launch(b.hist, (const uint32_t *)b.samples, n, bins[k], 0);
                gpu_check_launch(lab3_variants[v].name);
            }
    }
    close_buffers(&b);
}

void histogram_experiment(struct lab *lab, int only_bins)
{
    int selected[64] = {0}, implemented[64] = {0}, count;
    if (!select_variants(lab, selected))
        return;
    for (int v = 0; v < lab3_variant_count && v < 64; v++)
        implemented[v] = selected[v];
    const int *bins = run_bins(lab, &only_bins, &count);
    size_t n = run_samples(lab);

    static struct hist_buffers b; /* large: not on the stack */
    open_buffers(lab, &b, n);
    size_cub_temp(&b, n, bins, count);

    printf("\nhistogram: %zu samples (%.0f MiB) per launch%s\n", n, 4.0 * n / (1 << 20),
           lab->opts.check ? ", verifying only" : "");
    verify_awkward(lab, &b, selected, implemented);

    static struct hist_results res;
    memset(&res, 0, sizeof res);
    struct report rep;
    if (!lab->opts.check)
        report_open(&rep, lab->csv_dir, "histogram", &lab->info, "bins",
                    "input,hot_share,pct_of_cub,x_vs_global_atomics");
    int global = -1;
    for (int v = 0; v < lab3_variant_count; v++)
        if (!strcmp(lab3_variants[v].name, "hist_global_atomics"))
            global = v;
    struct progress prog;
    progress_start(&prog, "histogram", INPUTS * count);
    for (int in = 0; in < INPUTS; in++)
        for (int k = 0; k < count; k++) {
            char label[160];
            make_samples(&b, &inputs[in], n, bins[k]);
            expect_pattern(&b, n, bins[k], 0);
            struct hist_job cub = {&b, NULL, n, bins[k]};
            snprintf(label, sizeof label, "%s (%s, %d bins)", CUB_NAME, inputs[in].name, bins[k]);
            enum row_status status = verify_job(lab, &cub, label);
            double cub_ms = 0, global_ms = 0;
            if (!lab->opts.check)
                report_point(lab, &rep, &cub, in, status, label, 0, 0, &cub_ms);
            for (int v = 0; v < lab3_variant_count; v++) {
                if (!selected[v] || !implemented[v])
                    continue;
                struct hist_job j = {&b, &lab3_variants[v], n, bins[k]};
                snprintf(label, sizeof label, "%s (%s, %d bins)", j.v->name, inputs[in].name,
                         bins[k]);
                status = verify_job(lab, &j, label);
                if (lab->opts.check)
                    continue;
                double ms = 0;
                report_point(lab, &rep, &j, in, status, label, cub_ms, v == global ? 0 : global_ms,
                             &ms);
                if (v == global)
                    global_ms = ms;
                if (bins[k] <= LAB3_HIST_BINS_MAX &&
                    (v == global || !strcmp(j.v->name, "hist_shared_privatised")))
                    res.ms[in][bins[k]][v != global] = ms;
            }
            res.cub_ms[in][bins[k]] = cub_ms;
            snprintf(label, sizeof label, "%s, %d bins", inputs[in].name, bins[k]);
            progress_step(&prog, label);
        }
    for (int v = 0; v < lab3_variant_count; v++) {
        if (!selected[v])
            continue;
        if (!implemented[v] && lab->opts.check)
            printf("%-26s not implemented\n", lab3_variants[v].name);
        else if (!implemented[v]) {
            struct row r = {lab3_variants[v].name, bins[0], n, 0, 0, {0, 0, 0, 0},
                            ROW_NOT_IMPLEMENTED};
            report_row(&rep, &r, ",,,");
        } else if (lab->opts.check)
            printf("%-26s verified: bins %d, 45, 1000, 4093 at sizes 1, 31, 4097, 100003; %d bin "
                   "count(s) x 3 inputs at %zu\n",
                   lab3_variants[v].name, 1, count, n);
    }
    if (!lab->opts.check) {
        report_close(&rep);
        print_summary(&res, bins, count);
    }
    close_buffers(&b);
}
