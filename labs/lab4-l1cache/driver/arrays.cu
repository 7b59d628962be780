/* arrays.cu - lab 4's copy and stencil points (see arrays.h). */
#include "arrays.h"

#include <stdlib.h>
#include <string.h>

void arrays_open(struct arrays *a, size_t n, size_t capacity, uint64_t seed)
{
    a->n = n;
    a->capacity = capacity;
    a->window = (FRONT + capacity + BACK + 63) / 64 * 64;
    a->in_window = (uint32_t *)gpu_alloc(2 * a->window * 4, "lab 4's two arrays");
    a->out_window = a->in_window + a->window;
    a->in = (float *)(a->in_window + FRONT);
    a->out = (float *)(a->out_window + FRONT);
    a->host_in = (uint32_t *)malloc(a->window * 4);
    a->expected_in = (uint32_t *)malloc(a->window * 4);
    a->got = (uint32_t *)malloc(a->window * 4);
    a->prefix = (double *)malloc((capacity + 1) * sizeof(double));
    a->ref = (double *)malloc(capacity * sizeof(double));
    if (!a->host_in || !a->expected_in || !a->got || !a->prefix || !a->ref)
        memlab_die(EXIT_USAGE, "out of host memory for arrays of %zu floats: use a smaller --n",
                   capacity);
    struct rng r = rng_seeded(seed);
    rng_fill_floats(&r, (float *)a->host_in, a->window, -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy(a->in_window, a->host_in, a->window * 4, cudaMemcpyHostToDevice));
}

void arrays_close(struct arrays *a)
{
    gpu_free(a->in_window);
    free(a->host_in), free(a->expected_in), free(a->got), free(a->prefix), free(a->ref);
}

/* The input as written again (after a kernel that changed it). */
static void restore_input(struct arrays *a)
{
    CUDA_CHECK(cudaMemcpy(a->in_window, a->host_in, a->window * 4, cudaMemcpyHostToDevice));
}

int launch_array(void *ctx, cudaStream_t stream)
{
    struct array_job *j = (struct array_job *)ctx;
    struct lab4_args args = {j->a->out, j->a->in, j->n, j->radius, NULL, 0, 0, NULL};
    return j->v->launch(&args, stream);
}

/* Mismatches after one launch whose input held sign pattern `key` (vary.h): the n results
 * (bit-exact for the copy, within a sum's rounding for the stencil), out's guards still
 * poisoned, and the input window unchanged. The element-wise loops run on every core, so
 * that the GPU does not wait long for the check; the prefix sum stays in order, so that the
 * reference keeps its value to the last bit. */
static size_t compare_array(struct array_job *j, uint64_t key, const char *label)
{
    struct arrays *a = j->a;
    size_t n = j->n, words = FRONT + n + BACK, r = (size_t)j->radius;
#pragma omp parallel for
    for (size_t w = 0; w < words; w++)
        a->expected_in[w] =
            w >= FRONT && w < FRONT + n ? vary_word(a->host_in[w], w - FRONT, key) : a->host_in[w];
    CUDA_CHECK(cudaMemcpy(a->got, a->out_window, words * 4, cudaMemcpyDeviceToHost));
    size_t bad;
    if (!r)
        bad = verify_words(label, a->got + FRONT, a->expected_in + FRONT, n);
    else {
        a->prefix[0] = 0;
        for (size_t i = 0; i < n; i++) {
            float f;
            memcpy(&f, &a->expected_in[FRONT + i], 4);
            a->prefix[i + 1] = a->prefix[i] + f;
        }
#pragma omp parallel for
        for (size_t i = 0; i < n; i++)
            a->ref[i] = a->prefix[i + r < n ? i + r + 1 : n] - a->prefix[i >= r ? i - r : 0];
        /* 2r+1 floats of at most 1 in size: partial sums up to 2r+1 */
        bad = verify_floats(label, (const float *)(a->got + FRONT), a->ref, n,
                            tolerance_for_sum(2 * r + 1, 2.0 * r + 1));
    }
    size_t guards = 0;
    for (size_t w = 0; w < FRONT + BACK;
         w++) /* the words before out[0], then those after out[n-1] */
        guards += a->got[w < FRONT ? w : n + w] != POISON;
    if (guards)
        memlab_warn("%s: %zu guard words around out[0..n) were written", label, guards);
    CUDA_CHECK(cudaMemcpy(a->got, a->in_window, words * 4, cudaMemcpyDeviceToHost));
    size_t changed = verify_words("input changed", a->got, a->expected_in, words);
    if (changed)
        memlab_warn("%s modified its input (%zu words; index 0 is %d words before in[0])", label,
                    changed, FRONT);
    return bad + guards + changed;
}

/* Poison, launch, compare (the input as written). */
static enum row_status verify_array(struct lab *lab, struct array_job *j, const char *label)
{
    gpu_poison(j->a->out_window, (FRONT + j->n + BACK) * 4);
    if (launch_array(j, 0) == LAB_NOT_IMPLEMENTED)
        return ROW_NOT_IMPLEMENTED;
    gpu_check_launch(label);
    enum row_status s = lab_verdict(lab, label, compare_array(j, 0, label));
    if (s != ROW_OK)
        restore_input(j->a);
    return s;
}

/* Timed repetitions: the n input floats take each repetition's sign pattern. */
static void vary_array(void *ctx, uint64_t from, uint64_t to)
{
    struct array_job *j = (struct array_job *)ctx;
    gpu_vary_floats(j->a->in, j->n, from, to);
}

static size_t check_array(void *ctx, uint64_t key, const char *label)
{
    return compare_array((struct array_job *)ctx, key, label);
}

enum row_status verify_array_awkward(struct lab *lab, struct arrays *a,
                                     const struct lab4_variant *v, const char *build, int stencil)
{
    static const size_t sizes[] = {1, 31, 4097, 1000003};
    char label[160];
    for (int r = stencil; r <= (stencil ? LAB4_MAX_RADIUS : 0); r++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            struct array_job j = {v, a, sizes[s], r};
            snprintf(label, sizeof label, "%s (%s, r %d, n %zu)", v->name, build, r, sizes[s]);
            enum row_status st = verify_array(lab, &j, label);
            if (st != ROW_OK)
                return st;
        }
    return ROW_OK;
}

enum row_status time_array(struct lab *lab, struct array_job *j, const char *label,
                           struct summary *ms)
{
    enum row_status st = verify_array(lab, j, label);
    if (st != ROW_OK || lab->opts.check)
        return st;
    struct timing_config cfg = lab_timing(lab, 0);
    /* The floor: each float read once and written once through DRAM. */
    struct timed_job t = {label,      launch_array, j,
                          vary_array, check_array,  {8.0 * j->n, 0, 0, 0, 0, 0}};
    t.work.written_bytes = 4.0 * j->n;
    st = lab_time(lab, &t, &cfg, ms);
    if (st != ROW_OK)
        restore_input(j->a);
    return st;
}
