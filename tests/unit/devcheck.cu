/* devcheck.cu - GPU checks of common/probes/devcheck.h: mismatches are counted exactly, and a
 * pristine copy a kernel wrote over is named, restored and counted. Prints one line per
 * check ("devcheck NAME: OK|FAIL"); exit 1 if any failed. Needs a GPU (tests/run.sh). */
#include <stdio.h>
#include <stdlib.h>

#include "probes/devcheck.h"
#include "gpu.h"

struct pristine_words {
    const uint32_t *words;
    __host__ __device__ uint32_t operator()(size_t i) const
    {
        return words[i];
    }
};

static int failures;

static void expect(const char *name, size_t got, size_t want)
{
    printf("devcheck %s: %s (%zu, expected %zu)\n", name, got == want ? "OK" : "FAIL", got, want);
    failures += got != want;
}

int main(void)
{
    memlab_program = "devcheck";
    struct gpu_info g;
    gpu_open(&g);
    const size_t n = 3000017; /* odd, more than one grid-stride pass */
    uint32_t *host = (uint32_t *)malloc(n * sizeof *host),
             *got = (uint32_t *)malloc(n * sizeof *got),
             *expected = (uint32_t *)malloc(n * sizeof *expected);
    for (size_t i = 0; i < n; i++)
        host[i] = (uint32_t)(i * 2654435761u);
    struct pristine p;
    pristine_upload(&p, host, n, "the test's words");
    uint32_t *out = (uint32_t *)gpu_alloc(n * sizeof *out, "the test's output");
    CUDA_CHECK(cudaMemcpy(out, host, n * sizeof *out, cudaMemcpyHostToDevice));
    struct pristine_words on_gpu = {p.dev}, on_host = {host};

    expect("an intact copy is not flagged", pristine_restore_if_changed(&p, "intact"), 0);
    expect("equal words count 0", check_words("equal", out, n, on_gpu, on_host, got, expected), 0);
    CUDA_CHECK(cudaMemset(out + 5, 0, sizeof *out));
    CUDA_CHECK(cudaMemset(out + n - 1, 0, sizeof *out));
    expect("two changed words count 2",
           check_words("two changed (expected)", out, n, on_gpu, on_host, got, expected), 2);
    CUDA_CHECK(cudaMemset(p.dev + 123457, 0x5A, 2));
    expect("a changed pristine copy is flagged",
           pristine_restore_if_changed(&p, "tampered (expected)"), 1);
    expect("and restored", pristine_restore_if_changed(&p, "restored"), 0);

    gpu_free(out);
    pristine_free(&p);
    free(host);
    free(got);
    free(expected);
    return failures ? 1 : 0;
}
