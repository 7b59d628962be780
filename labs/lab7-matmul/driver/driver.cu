/* driver.cu - lab 7 (tiled matrix multiply): the trusted driver. Students do not edit it.
 *
 * C = A x B in float32, row-major, A m x k, B k x n. Experiments (seed 004, Fig. 4), each a
 * CSV in results/lab7/, both at m = n = k = N (4096, the seed's size, unless --n or --quick):
 *   tiles      every variant's TFLOP/s next to cuBLAS SGEMM (FP32, TF32 off) measured in the
 *              same run, the FP32 peak and the shared-memory model of one-output-per-thread
 *              kernels (smem_model_tflops: two 4-byte shared loads per multiply-add, one
 *              32-lane shared load per SM per clock)
 *   occupancy  the resource table: threads per block, registers per thread, shared and local
 *              memory, blocks and warps per SM, theoretical occupancy (occupancy API) and the
 *              resource that limits it (residency.h)
 *   sizes      the two fastest variants at N and cuBLAS again at 2048, 4096 and 8192, each size
 *              with inputs of its own, verified against cuBLAS before timing (a default run
 *              only: not with --n, --quick or --check); N's own results where N is one of them
 * flops = 2mnk. bytes = the compulsory traffic 4(mk + kn + mn): A and B read once, C written
 * once; gbps and pct_of_ceiling compare that with the copy ceiling (matmul is far from it).
 * Verification before timing, for every variant: the small shapes below (those within --n,
 * where given) against a CPU double reference, then N against cuBLAS (cuBLAS
 * itself checked against the CPU at the small shapes and at sampled elements of N); C
 * poisoned and followed by a poisoned guard, A and B followed by poisoned guards (NaN:
 * reading past them shows), all three checked afterwards.
 * While timed, each repetition multiplies an A of its own (signs flipped at random, vary.h)
 * and two repetitions' C are checked against cuBLAS on that same A (timing.h); a time faster
 * than the FP32 peak allows is IMPLAUSIBLE. cuBLAS's own time is trusted: its inputs stay as
 * written. --check verifies everything and times nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "harness.h"
#include "kernels.h"
#include "residency.h"

#define SEED_N 4096      /* the seed's size, and where the lab's targets are stated */
#define MAX_N 32768      /* --n limit: 4 x 4 GiB of matrices */
#define GUARD_WORDS 1024 /* poisoned words after A, B and C */
#define REFERENCE_SAMPLES 512
#define TARGET_TILED_16_TFLOPS 8.0
#define TARGET_PCT_OF_CUBLAS 70.0
#define TARGET_BEYOND_PCT_OF_CUBLAS 90.0 /* the fastest variant, at every one of scale_sizes */
#define SCALE_PICKS 2                    /* the variants the sizes experiment times */

#define CUBLAS_CHECK(call)                                                                         \
    do {                                                                                           \
        cublasStatus_t st_ = (call);                                                               \
        if (st_ != CUBLAS_STATUS_SUCCESS)                                                          \
            memlab_die(EXIT_GPU, "%s failed: %s at %s:%d", #call, cublasGetStatusString(st_),      \
                       __FILE__, __LINE__);                                                        \
    } while (0)

struct shape {
    int m, n, k;
};

/* 1x1x1; odd and prime; m, n just past 128 and k prime; exact multiples of 128, 32 and 12. */
static const struct shape small_shapes[] = {
    {1, 1, 1}, {33, 17, 5}, {257, 129, 65}, {130, 259, 131}, {256, 384, 96}};
#define SMALL_SHAPES (int)(sizeof small_shapes / sizeof small_shapes[0])

/* The sizes experiment: how the fastest kernels hold up around the seed's size. */
static const int scale_sizes[] = {2048, 4096, 8192};
#define SCALE_SIZES (int)(sizeof scale_sizes / sizeof scale_sizes[0])

static uint32_t poison_words[GUARD_WORDS];

struct buffers {
    float *a, *b, *c;       /* device; each holds its largest matrix plus GUARD_WORDS */
    float *c_ref;           /* device, N x N: cuBLAS's C, the reference being made */
    float *host_a, *host_b; /* the inputs as written: a shape uses the first m*k and k*n */
    float *expected_a;      /* A as the sign pattern being compared has it (vary.h) */
    float *got;             /* C, A or B copied back, with the guard */
    double *ref;            /* the reference at N (cuBLAS, the inputs as written) */
    double *varied_ref;     /* the reference at N for a timed repetition's A */
    double *small_ref[SMALL_SHAPES];
};

struct matmul_job {
    const struct lab7_variant *v; /* NULL: cuBLAS */
    cublasHandle_t blas;
    struct buffers *bf;
    struct shape s;
};

struct outcome {
    enum row_status status;
    struct summary ms;
    struct occupancy occ;
    char limits[32];
};

/* C = A B, row-major, by cuBLAS. cuBLAS is column-major: row-major C = A B is column-major
 * C' = B' A', so B is passed first. */
static void blas_sgemm(cublasHandle_t blas, float *c, const float *a, const float *b,
                       struct shape s, cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(blas, stream));
    CUBLAS_CHECK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k,
                             &zero, c, s.n));
}

static int launch_job(void *ctx, cudaStream_t stream)
{
    struct matmul_job *j = (struct matmul_job *)ctx;
    struct buffers *bf = j->bf;
    if (j->v)
        return j->v->launch(bf->c, bf->a, bf->b, j->s.m, j->s.n, j->s.k, stream);
    blas_sgemm(j->blas, bf->c, bf->a, bf->b, j->s, stream);
    return LAB_OK;
}

static const char *job_name(const struct matmul_job *j)
{
    return j->v ? j->v->name : "cublas_sgemm";
}

/* Inputs are uniform in [-1, 1): a partial sum of k products is typically sqrt(k)/3 in size
 * and a float32 sum's rounding grows with the partial sums, so sqrt(k) as the magnitude
 * gives atol = 4 eps k, about 10x the largest error seen between two float32 orders. */
static struct tolerance tolerance_for_matmul(int k)
{
    return tolerance_for_sum((size_t)k, sqrt((double)k));
}

static void cpu_matmul(double *ref, const float *a, const float *b, struct shape s)
{
    for (int i = 0; i < s.m; i++) {
        double *row = ref + (size_t)i * s.n;
        for (int j = 0; j < s.n; j++)
            row[j] = 0.0;
        for (int p = 0; p < s.k; p++) {
            double x = a[(size_t)i * s.k + p];
            const float *b_row = b + (size_t)p * s.n;
            for (int j = 0; j < s.n; j++)
                row[j] += x * b_row[j];
        }
    }
}

static void upload_inputs(struct buffers *bf, struct shape s)
{
    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n;
    CUDA_CHECK(cudaMemcpy(bf->a, bf->host_a, na * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(bf->b, bf->host_b, nb * sizeof(float), cudaMemcpyHostToDevice));
    gpu_poison(bf->a + na, GUARD_WORDS * sizeof(float));
    gpu_poison(bf->b + nb, GUARD_WORDS * sizeof(float));
}

/* Mismatches between a device matrix plus its guard and what it must hold. */
static size_t check_matrix(const char *what, const float *dev, const float *expected, size_t count,
                           float *scratch)
{
    CUDA_CHECK(
        cudaMemcpy(scratch, dev, (count + GUARD_WORDS) * sizeof(float), cudaMemcpyDeviceToHost));
    char label[192];
    snprintf(label, sizeof label, "%s (changed)", what);
    size_t bad = verify_words(label, (const uint32_t *)scratch, (const uint32_t *)expected, count);
    snprintf(label, sizeof label, "%s: its guard (written past the end)", what);
    return bad + verify_words(label, (const uint32_t *)scratch + count, poison_words, GUARD_WORDS);
}

/* Mismatches between C and the reference, in C's guard, and in the inputs and their guards,
 * when A holds sign pattern `key` (vary.h) of what was written and B what was written. */
static size_t compare_run(struct matmul_job *job, const double *ref, uint64_t key,
                          const char *label)
{
    struct buffers *bf = job->bf;
    struct shape s = job->s;
    size_t outputs = (size_t)s.m * s.n, a_count = (size_t)s.m * s.k;
    CUDA_CHECK(cudaMemcpy(bf->got, bf->c, (outputs + GUARD_WORDS) * sizeof(float),
                          cudaMemcpyDeviceToHost));
    size_t bad = verify_floats(label, bf->got, ref, outputs, tolerance_for_matmul(s.k));
    char what[192];
    snprintf(what, sizeof what, "%s: C's guard (written past the end)", label);
    bad += verify_words(what, (const uint32_t *)bf->got + outputs, poison_words, GUARD_WORDS);
    /* A as pattern key has it: millions of elements, on every core so that the GPU waits less */
#pragma omp parallel for
    for (size_t i = 0; i < a_count; i++)
        bf->expected_a[i] = vary_float(bf->host_a[i], i, key);
    snprintf(what, sizeof what, "%s: input A", label);
    bad += check_matrix(what, bf->a, bf->expected_a, a_count, bf->got);
    snprintf(what, sizeof what, "%s: input B", label);
    return bad + check_matrix(what, bf->b, bf->host_b, (size_t)s.k * s.n, bf->got);
}

/* Upload the inputs, poison C and the guards, launch once, compare. */
static enum row_status verify_run(struct lab *lab, struct matmul_job *job, const double *ref,
                                  const char *label)
{
    size_t outputs = (size_t)job->s.m * job->s.n;
    upload_inputs(job->bf, job->s);
    gpu_poison(job->bf->c, (outputs + GUARD_WORDS) * sizeof(float));
    if (launch_job(job, 0) == LAB_NOT_IMPLEMENTED)
        return ROW_NOT_IMPLEMENTED;
    gpu_check_launch(label);
    return lab_verdict(lab, label, compare_run(job, ref, 0, label));
}

/* Does a run verify this small shape? Those within --n, where given (the size being run), so
 * that a check at a small size, the sanitizer's, stays small. */
static int shape_verified(const struct lab *lab, struct shape s)
{
    size_t n = lab->opts.n;
    return !n || ((size_t)s.m <= n && (size_t)s.n <= n && (size_t)s.k <= n);
}

static int shapes_verified(const struct lab *lab)
{
    int count = 0;
    for (int i = 0; i < SMALL_SHAPES; i++)
        count += shape_verified(lab, small_shapes[i]);
    return count;
}

/* Every small shape of the run against the CPU, then N against cuBLAS. */
static enum row_status verify_all(struct lab *lab, struct matmul_job job, struct shape big)
{
    enum row_status status = ROW_OK;
    char label[128];
    for (int i = 0; i < SMALL_SHAPES; i++) {
        job.s = small_shapes[i];
        if (!shape_verified(lab, job.s))
            continue;
        snprintf(label, sizeof label, "%s (%dx%dx%d)", job_name(&job), job.s.m, job.s.n, job.s.k);
        enum row_status st = verify_run(lab, &job, job.bf->small_ref[i], label);
        if (st == ROW_NOT_IMPLEMENTED)
            return st;
        if (st != ROW_OK)
            status = st;
    }
    if (!job.v)
        return status; /* cuBLAS at N is the reference itself: see make_reference */
    job.s = big;
    snprintf(label, sizeof label, "%s (%dx%dx%d, against cuBLAS)", job_name(&job), big.m, big.n,
             big.k);
    enum row_status st = verify_run(lab, &job, job.bf->ref, label);
    return st == ROW_OK ? status : st;
}

/* cuBLAS's C (into c_ref, poisoned first) for the inputs now on the device, as doubles. */
static void blas_reference(const struct matmul_job *job, double *ref)
{
    struct buffers *bf = job->bf;
    size_t outputs = (size_t)job->s.m * job->s.n;
    gpu_poison(bf->c_ref, outputs * sizeof(float));
    blas_sgemm(job->blas, bf->c_ref, bf->a, bf->b, job->s, 0);
    gpu_check_launch("cublas_sgemm (the reference)");
    CUDA_CHECK(cudaMemcpy(bf->got, bf->c_ref, outputs * sizeof(float), cudaMemcpyDeviceToHost));
    /* as doubles, on every core (16M elements at N = 4096) */
#pragma omp parallel for
    for (size_t i = 0; i < outputs; i++)
        ref[i] = bf->got[i];
}

/* cuBLAS's C at N becomes the reference, once it is finite everywhere and agrees with the CPU
 * at REFERENCE_SAMPLES random elements. Without a trustworthy reference the run stops. */
static void make_reference(const struct lab *lab, struct matmul_job job, struct shape big)
{
    struct buffers *bf = job.bf;
    job.s = big;
    size_t outputs = (size_t)big.m * big.n;
    upload_inputs(bf, big);
    blas_reference(&job, bf->ref);
    size_t bad = 0;
    for (size_t i = 0; i < outputs; i++)
        bad += !isfinite(bf->ref[i]);
    struct tolerance tol = tolerance_for_matmul(big.k);
    struct rng rng = rng_seeded(lab->opts.seed + 7);
    for (int t = 0; t < REFERENCE_SAMPLES; t++) {
        int i = (int)(rng_next(&rng) % (uint64_t)big.m),
            j = (int)(rng_next(&rng) % (uint64_t)big.n);
        double dot = 0.0;
        for (int p = 0; p < big.k; p++)
            dot += (double)bf->host_a[(size_t)i * big.k + p] * bf->host_b[(size_t)p * big.n + j];
        if (!values_close(bf->ref[(size_t)i * big.n + j], dot, tol) && bad++ < VERIFY_REPORT_CAP)
            memlab_warn("cublas_sgemm at %dx%dx%d: C(%d,%d) is %.9g, the CPU says %.9g", big.m,
                        big.n, big.k, i, j, bf->ref[(size_t)i * big.n + j], dot);
    }
    if (bad)
        memlab_die(EXIT_WRONG,
                   "cuBLAS's C at %dx%dx%d is not finite or disagrees with the CPU (%zu values): "
                   "no reference to verify the variants against",
                   big.m, big.n, big.k, bad);
}

/* Timed repetitions: A's signs take the repetition's pattern. A alone changes every element
 * of C (each sums a row of A, about half of which flips); B stays as written. */
static void vary_input(void *ctx, uint64_t from, uint64_t to)
{
    struct matmul_job *job = (struct matmul_job *)ctx;
    gpu_vary_floats(job->bf->a, (size_t)job->s.m * job->s.k, from, to);
}

/* A timed repetition's C against cuBLAS on the same A: cuBLAS is trusted here, as it was
 * checked against the CPU by make_reference. The reference lands in c_ref, so C is kept. */
static size_t check_repetition(void *ctx, uint64_t key, const char *label)
{
    struct matmul_job *job = (struct matmul_job *)ctx;
    blas_reference(job, job->bf->varied_ref);
    return compare_run(job, job->bf->varied_ref, key, label);
}

/* What one multiply must do: A and B read and C written once (the compulsory DRAM traffic,
 * nothing cached), 2mnk FP32 operations. */
static struct work work_of(struct shape s)
{
    double elements = (double)s.m * s.k + (double)s.k * s.n + (double)s.m * s.n;
    struct work w = {4.0 * elements, 2.0 * s.m * s.n * s.k, 0, 0};
    w.written_bytes = 4.0 * s.m * s.n;
    return w;
}

/* N: the seed's 4096, raised (in steps of 1024) until one matrix outgrows the L2. */
static int default_size(const struct lab *lab)
{
    if (lab->opts.quick)
        return SEED_N / 2;
    int n = SEED_N;
    while ((size_t)n * n * sizeof(float) < lab->gpu.l2_bytes)
        n += 1024;
    return n;
}

static struct sm_resources sm_resources_of(const struct gpu_info *g)
{
    struct sm_resources sm;
    sm.max_blocks = g->max_blocks_per_sm;
    sm.max_warps = g->max_threads_per_sm / g->warp_size;
    sm.warp_size = g->warp_size;
    sm.regs = g->regs_per_sm;
    sm.reg_unit = 256;     /* registers per warp are allocated in units of 256 (sm_75 and newer) */
    sm.reg_partitions = 4; /* one part of the register file per warp scheduler */
    sm.smem = g->smem_per_sm;
    sm.smem_reserved_per_block = g->smem_reserved_per_block;
    return sm;
}

static void resources_of(const struct lab *lab, const struct lab7_variant *v, struct outcome *o)
{
    o->occ = gpu_occupancy(&lab->gpu, v->kernel, v->block_threads, v->smem_bytes);
    struct sm_resources sm = sm_resources_of(&lab->gpu);
    struct block_demand d = {v->block_threads, o->occ.regs_per_thread,
                             o->occ.static_smem_bytes + o->occ.dynamic_smem_bytes};
    struct residency r = residency_of(&sm, d);
    residency_limits(&r, o->occ.blocks_per_sm, o->limits, sizeof o->limits);
}

struct ceilings {
    double cublas_tflops, peak_tflops, smem_model_tflops;
};

static double tflops_of(const struct row *r)
{
    return r->flops / (r->ms.median * 1e9);
}

/* A variant's CSV row: the sizes and byte counts of cuBLAS's row, the variant's own time. */
static struct row variant_row(const struct row *blas, const struct lab7_variant *v,
                              const struct outcome *o)
{
    struct row r = *blas;
    r.variant = v->name;
    r.param = v->tile;
    r.ms = o->ms;
    r.status = o->status;
    return r;
}

static void report_tiles(const struct lab *lab, const struct outcome *out, const struct row *blas,
                         const struct ceilings *c)
{
    struct report rep;
    report_open(&rep, lab->csv_dir, "tiles", &lab->info, "tile",
                "unrolled,tflops,cublas_tflops,pct_cublas,peak_tflops,smem_model_tflops");
    for (int i = 0; i < lab7_variant_count; i++) {
        const struct lab7_variant *v = &lab7_variants[i];
        if (!cli_selects(&lab->opts, v->name))
            continue;
        struct row r = variant_row(blas, v, &out[i]);
        if (r.status == ROW_OK)
            report_row(&rep, &r, "%d,%.2f,%.2f,%.1f,%.2f,%.2f", v->unrolled, tflops_of(&r),
                       c->cublas_tflops, 100.0 * tflops_of(&r) / c->cublas_tflops, c->peak_tflops,
                       c->smem_model_tflops);
        else
            report_row(&rep, &r, "%d,,%.2f,,%.2f,%.2f", v->unrolled, c->cublas_tflops,
                       c->peak_tflops, c->smem_model_tflops);
    }
    report_row(&rep, blas, ",%.2f,%.2f,100.0,%.2f,%.2f", c->cublas_tflops, c->cublas_tflops,
               c->peak_tflops, c->smem_model_tflops);
    report_close(&rep);
}

static void report_occupancy(const struct lab *lab, const struct outcome *out,
                             const struct row *blas)
{
    struct report rep;
    report_open(&rep, lab->csv_dir, "occupancy", &lab->info, "tile",
                "block_size,regs_thread,smem_block,local_bytes,blocks_sm,warps_sm,occ_pct,limited_"
                "by,tflops");
    for (int i = 0; i < lab7_variant_count; i++) {
        const struct lab7_variant *v = &lab7_variants[i];
        if (!cli_selects(&lab->opts, v->name))
            continue;
        struct row r = variant_row(blas, v, &out[i]);
        if (r.status == ROW_NOT_IMPLEMENTED) {
            report_row(&rep, &r, "%d,,,,,,,,", v->block_threads);
            continue;
        }
        const struct occupancy *o = &out[i].occ;
        char tflops[32] = "";
        if (r.status == ROW_OK)
            snprintf(tflops, sizeof tflops, "%.2f", tflops_of(&r));
        report_row(&rep, &r, "%d,%d,%zu,%zu,%d,%d,%.1f,%s,%s", v->block_threads, o->regs_per_thread,
                   o->static_smem_bytes + o->dynamic_smem_bytes, o->local_bytes_per_thread,
                   o->blocks_per_sm, o->warps_per_sm, 100.0 * o->occupancy, out[i].limits, tflops);
    }
    report_close(&rep);
}

/* The lab's targets, as ratios measured in this run. */
static void print_summary(const struct outcome *out, const struct row *blas,
                          const struct ceilings *c, int n)
{
    int best = -1, best16 = -1;
    double best_tf = 0, best16_tf = 0;
    for (int i = 0; i < lab7_variant_count; i++) {
        if (out[i].status != ROW_OK)
            continue;
        struct row r = *blas;
        r.ms = out[i].ms;
        double tf = tflops_of(&r);
        if (tf > best_tf)
            best = i, best_tf = tf;
        if (lab7_variants[i].tile == 16 && tf > best16_tf)
            best16 = i, best16_tf = tf;
    }
    printf("\nsummary at %dx%dx%d%s:\n", n, n, n,
           n == SEED_N ? "" : " (the targets are stated at 4096)");
    printf("  cublas_sgemm (FP32, TF32 off)  %7.2f TFLOP/s = %.0f%% of the FP32 peak (%.1f TFLOP/s "
           "at the max clock)\n",
           c->cublas_tflops, 100.0 * c->cublas_tflops / c->peak_tflops, c->peak_tflops);
    if (best16 >= 0)
        printf("  16x16 tiles: %-17s %7.2f TFLOP/s: target >= %.0f TFLOP/s %s\n",
               lab7_variants[best16].name, best16_tf, TARGET_TILED_16_TFLOPS,
               best16_tf >= TARGET_TILED_16_TFLOPS ? "met" : "NOT met");
    else
        printf("  16x16 tiles: not run or not verified\n");
    if (best >= 0)
        printf("  best variant: %-16s %7.2f TFLOP/s = %.1f%% of cuBLAS: target >= %.0f%% %s\n",
               lab7_variants[best].name, best_tf, 100.0 * best_tf / c->cublas_tflops,
               TARGET_PCT_OF_CUBLAS,
               100.0 * best_tf / c->cublas_tflops >= TARGET_PCT_OF_CUBLAS ? "met" : "NOT met");
}

/* The buffers for m = n = k = N (and, with_small, for the small shapes too, with their CPU
 * references), the host inputs drawn from seed. */
static void buffers_open(struct buffers *bf, int n, uint64_t seed, int with_small)
{
    size_t cap = (size_t)n * n;
    for (int i = 0; with_small && i < SMALL_SHAPES; i++) {
        const struct shape *s = &small_shapes[i];
        size_t most =
            (size_t)s->m * s->k > (size_t)s->k * s->n ? (size_t)s->m * s->k : (size_t)s->k * s->n;
        if ((size_t)s->m * s->n > most)
            most = (size_t)s->m * s->n;
        if (most > cap)
            cap = most;
    }
    size_t bytes = (cap + GUARD_WORDS) * sizeof(float);
    bf->a = (float *)gpu_alloc(bytes, "matrix A");
    bf->b = (float *)gpu_alloc(bytes, "matrix B");
    bf->c = (float *)gpu_alloc(bytes, "matrix C");
    bf->c_ref = (float *)gpu_alloc((size_t)n * n * sizeof(float), "cuBLAS's C (the reference)");
    bf->host_a = (float *)malloc(bytes);
    bf->host_b = (float *)malloc(bytes);
    bf->expected_a = (float *)malloc(bytes);
    bf->got = (float *)malloc(bytes);
    bf->ref = (double *)malloc((size_t)n * n * sizeof(double));
    bf->varied_ref = (double *)malloc((size_t)n * n * sizeof(double));
    if (!bf->host_a || !bf->host_b || !bf->expected_a || !bf->got || !bf->ref || !bf->varied_ref)
        memlab_die(EXIT_USAGE, "out of host memory for %.0f MiB: use a smaller --n",
                   (4 * bytes + 2 * 8.0 * n * n) / 1048576.0);
    struct rng rng = rng_seeded(seed);
    rng_fill_floats(&rng, bf->host_a, cap, -1.0f, 1.0f);
    rng_fill_floats(&rng, bf->host_b, cap, -1.0f, 1.0f);
    for (int i = 0; i < SMALL_SHAPES; i++) {
        bf->small_ref[i] = NULL;
        if (!with_small)
            continue;
        bf->small_ref[i] =
            (double *)malloc((size_t)small_shapes[i].m * small_shapes[i].n * sizeof(double));
        if (!bf->small_ref[i])
            memlab_die(EXIT_USAGE, "out of host memory for the CPU references");
        cpu_matmul(bf->small_ref[i], bf->host_a, bf->host_b, small_shapes[i]);
    }
}

static void buffers_close(struct buffers *bf)
{
    gpu_free(bf->a);
    gpu_free(bf->b);
    gpu_free(bf->c);
    gpu_free(bf->c_ref);
    free(bf->host_a);
    free(bf->host_b);
    free(bf->expected_a);
    free(bf->got);
    free(bf->ref);
    free(bf->varied_ref);
    for (int i = 0; i < SMALL_SHAPES; i++)
        free(bf->small_ref[i]);
}

/* One size of the sizes experiment, with inputs of its own: cuBLAS's C becomes the reference
 * (make_reference), each picked variant is verified against it and then timed like the
 * others, and cuBLAS is timed last. */
static void time_size(struct lab *lab, cublasHandle_t blas, int n, const int *pick, int picks,
                      struct outcome *got, struct row *blas_row)
{
    struct buffers bf;
    buffers_open(&bf, n, lab->opts.seed + (uint64_t)n, 0);
    struct shape big = {n, n, n};
    struct matmul_job blas_job = {NULL, blas, &bf, big};
    make_reference(lab, blas_job, big);
    struct timing_config timing = lab_timing(lab, 0);
    struct work work = work_of(big);
    for (int i = 0; i < picks; i++) {
        const struct lab7_variant *v = &lab7_variants[pick[i]];
        struct matmul_job job = {v, blas, &bf, big};
        char label[128];
        snprintf(label, sizeof label, "%s (%dx%dx%d, against cuBLAS)", v->name, n, n, n);
        got[i].status = verify_run(lab, &job, bf.ref, label);
        if (got[i].status == ROW_OK) {
            struct timed_job timed = {v->name,    launch_job,       &job,
                                      vary_input, check_repetition, work};
            got[i].status = lab_time(lab, &timed, &timing, &got[i].ms);
        }
    }
    struct timed_job timed_blas = {"cublas_sgemm", launch_job, &blas_job, NULL, NULL, work};
    struct row r = {"cublas_sgemm", 0,     (size_t)n, work.dram_bytes, work.flops,
                    {0, 0, 0, 0},   ROW_OK};
    r.status = lab_time(lab, &timed_blas, &timing, &r.ms);
    *blas_row = r;
    buffers_close(&bf);
}

/* The fastest verified variants at N (at most SCALE_PICKS, fastest first): their indices in
 * pick, their count returned. */
static int fastest_variants(const struct outcome *out, int *pick)
{
    int picks = 0;
    for (int i = 0; i < lab7_variant_count; i++) {
        if (out[i].status != ROW_OK)
            continue;
        int at = picks < SCALE_PICKS ? picks++ : SCALE_PICKS;
        while (at > 0 && out[pick[at - 1]].ms.median > out[i].ms.median) {
            if (at < SCALE_PICKS)
                pick[at] = pick[at - 1];
            at--;
        }
        if (at < SCALE_PICKS)
            pick[at] = i;
    }
    return picks;
}

/* The sizes experiment: the fastest variants at N and cuBLAS at each of scale_sizes (N's own
 * results at N), the sizes CSV, and the target line per size. */
static void run_sizes(struct lab *lab, cublasHandle_t blas, const struct outcome *out,
                      const struct row *blas_at_n, int n)
{
    int pick[SCALE_PICKS];
    int picks = fastest_variants(out, pick);
    if (!picks)
        return;
    struct outcome got[SCALE_SIZES][SCALE_PICKS];
    struct row blas_rows[SCALE_SIZES];
    for (int s = 0; s < SCALE_SIZES; s++) {
        if (scale_sizes[s] == n) {
            for (int i = 0; i < picks; i++)
                got[s][i] = out[pick[i]];
            blas_rows[s] = *blas_at_n;
        } else {
            time_size(lab, blas, scale_sizes[s], pick, picks, got[s], &blas_rows[s]);
        }
    }

    struct report rep;
    report_open(&rep, lab->csv_dir, "sizes", &lab->info, "tile", "tflops,cublas_tflops,pct_cublas");
    for (int s = 0; s < SCALE_SIZES; s++) {
        const struct row *blas_row = &blas_rows[s];
        double blas_tf = tflops_of(blas_row);
        for (int i = 0; i < picks; i++) {
            struct row r = variant_row(blas_row, &lab7_variants[pick[i]], &got[s][i]);
            if (r.status == ROW_OK)
                report_row(&rep, &r, "%.2f,%.2f,%.1f", tflops_of(&r), blas_tf,
                           100.0 * tflops_of(&r) / blas_tf);
            else
                report_row(&rep, &r, ",%.2f,", blas_tf);
        }
        report_row(&rep, blas_row, "%.2f,%.2f,100.0", blas_tf, blas_tf);
    }
    report_close(&rep);

    printf("\nsummary across sizes (the fastest variant at least %.0f%% of cuBLAS at each):\n",
           TARGET_BEYOND_PCT_OF_CUBLAS);
    for (int s = 0; s < SCALE_SIZES; s++) {
        int best = -1;
        double best_tf = 0;
        for (int i = 0; i < picks; i++) {
            if (got[s][i].status != ROW_OK)
                continue;
            struct row r = variant_row(&blas_rows[s], &lab7_variants[pick[i]], &got[s][i]);
            if (tflops_of(&r) > best_tf)
                best = pick[i], best_tf = tflops_of(&r);
        }
        double blas_tf = tflops_of(&blas_rows[s]);
        if (best < 0 || blas_rows[s].status != ROW_OK) {
            printf("  %5d: no verified time\n", scale_sizes[s]);
            continue;
        }
        double pct = 100.0 * best_tf / blas_tf;
        printf("  %5d: %-16s %7.2f TFLOP/s = %.1f%% of cuBLAS (%.2f): target >= %.0f%% %s\n",
               scale_sizes[s], lab7_variants[best].name, best_tf, pct, blas_tf,
               TARGET_BEYOND_PCT_OF_CUBLAS, pct >= TARGET_BEYOND_PCT_OF_CUBLAS ? "met" : "NOT met");
    }
}

/* The sizes experiment runs in a default run only: --n, --quick and --check keep to one size. */
static int sizes_wanted(const struct lab *lab)
{
    return !lab->opts.n && !lab->opts.quick && !lab->opts.check;
}

int main(int argc, char **argv)
{
    const struct lab_description d = {
        7, "Lab 7, tiled matrix multiply: tile sizes, unrolling and resources against cuBLAS.",
        LAB_TABLE(lab7_variants, lab7_variant_count), NULL, 0};
    struct lab lab;
    lab_start(&lab, &d, argc, argv);
    memset(poison_words, 0xFF, sizeof poison_words);
    cublasHandle_t blas;
    CUBLAS_CHECK(cublasCreate(&blas));
    CUBLAS_CHECK(
        cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH)); /* FP32 throughout: no TF32 tensor cores */
    do {
        if (lab.opts.n > MAX_N)
            memlab_die(EXIT_USAGE, "--n %zu is too large for lab 7 (m = n = k = N): at most %d",
                       lab.opts.n, MAX_N);
        int n = lab.opts.n ? (int)lab.opts.n : default_size(&lab);
        struct shape big = {n, n, n};

        struct buffers bf;
        buffers_open(&bf, n, lab.opts.seed, 1);
        printf("matrices: %d x %d, %.1f MiB each (%.2fx the L2); %.1f GFLOP per multiply%s\n", n, n,
               (double)n * n * 4 / 1048576.0, (double)n * n * 4 / lab.gpu.l2_bytes,
               2.0 * n * n * n / 1e9, lab.opts.check ? ", verifying only" : "");

        struct matmul_job blas_job = {NULL, blas, &bf, big};
        if (verify_all(&lab, blas_job, big) != ROW_OK)
            memlab_die(EXIT_WRONG,
                       "cuBLAS disagrees with the CPU at the small shapes: no reference to trust");
        make_reference(&lab, blas_job, big);

        if (lab.opts.check)
            printf(
                "%-20s verified at %d small shapes (CPU) and sampled at %dx%dx%d: the reference\n",
                "cublas_sgemm", SMALL_SHAPES, n, n, n);

        struct outcome *out = (struct outcome *)calloc((size_t)lab7_variant_count, sizeof *out);
        if (!out)
            memlab_die(EXIT_USAGE, "out of host memory");
        struct timing_config timing = lab_timing(&lab, 0);
        struct progress prog;
        progress_start(&prog, "variants", lab7_variant_count);
        for (int i = 0; i < lab7_variant_count; i++) {
            const struct lab7_variant *v = &lab7_variants[i];
            out[i].status = ROW_NOT_IMPLEMENTED;
            if (!cli_selects(&lab.opts, v->name))
                continue;
            struct matmul_job job = {v, blas, &bf, big};
            out[i].status = verify_all(&lab, job, big);
            if (out[i].status == ROW_NOT_IMPLEMENTED && lab.opts.check)
                printf("%-20s not implemented\n", v->name);
            else if (out[i].status == ROW_OK && lab.opts.check)
                printf("%-20s verified at %d small shapes (CPU) and at %dx%dx%d (cuBLAS)\n",
                       v->name, shapes_verified(&lab), n, n, n);
            if (out[i].status != ROW_NOT_IMPLEMENTED && !lab.opts.check)
                resources_of(&lab, v, &out[i]);
            if (out[i].status == ROW_OK && !lab.opts.check) {
                struct timed_job timed = {v->name,    launch_job,       &job,
                                          vary_input, check_repetition, work_of(big)};
                out[i].status = lab_time(&lab, &timed, &timing, &out[i].ms);
            }
            progress_step(&prog, v->name);
        }

        if (!lab.opts.check) {
            struct work work = work_of(big);
            struct timed_job timed_blas = {"cublas_sgemm", launch_job, &blas_job, NULL, NULL, work};
            struct row blas_row = {"cublas_sgemm", 0,     (size_t)n, work.dram_bytes, work.flops,
                                   {0, 0, 0, 0},   ROW_OK};
            blas_row.status = lab_time(&lab, &timed_blas, &timing, &blas_row.ms);
            struct ceilings c;
            c.cublas_tflops = tflops_of(&blas_row);
            c.peak_tflops = gpu_fp32_peak_gflops(&lab.gpu) / 1e3;
            c.smem_model_tflops = lab.gpu.sms * 32.0 * lab.gpu.sm_clock_khz * 1e3 / 1e12;
            report_tiles(&lab, out, &blas_row, &c);
            report_occupancy(&lab, out, &blas_row);
            print_summary(out, &blas_row, &c, n);
            buffers_close(&bf); /* first: room for the sizes experiment's largest size */
            if (sizes_wanted(&lab))
                run_sizes(&lab, blas, out, &blas_row, n);
        } else {
            buffers_close(&bf);
        }
        free(out);
    } while (lab_next_size(&lab));
    CUBLAS_CHECK(cublasDestroy(blas));
    return lab_finish(&lab);
}
