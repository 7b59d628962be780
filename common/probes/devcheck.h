/* devcheck.h - checking a large output on the GPU, against an input no kernel can forge.
 *
 * Labs 1 and 2 check outputs of hundreds of MiB up to three times a point. Copied to the
 * host and compared there, that took most of a run (and of a grading). Here the driver's
 * own kernel counts the mismatched words on the device; only an output with some is copied
 * back and compared on the host, which prints where (verify_words).
 *
 * The expected words are computed from the input as written, kept on the device (the
 * pristine copy). A kernel under test runs in the same address space and could write over
 * that copy, so before each check the copy's hash, keyed by a secret drawn at start, is
 * compared with the hash the host computed from its own image: a changed copy is named,
 * restored from the host and counted as a mismatch.
 *
 * An `expected` functor gives word i of the right output: __host__ __device__ uint32_t
 * operator()(size_t i) const. It reads the pristine words through a pointer it holds: make
 * one over the device copy for the GPU and one over the host image for the host.
 * CUDA sources only.
 */
#ifndef MEMLAB_DEVCHECK_H
#define MEMLAB_DEVCHECK_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "proof.h"
#include "verify.h"

/* The input as written, on the device and on the host, and the keyed hash that seals it. */
struct pristine {
    uint32_t *dev;        /* device copy (the driver allocates it) */
    const uint32_t *host; /* the host image it was uploaded from */
    size_t words;
    uint64_t key, hash;
};

/* Upload `words` host words to p->dev (allocated here) and seal them. */
void pristine_upload(struct pristine *p, const uint32_t *host, size_t words, const char *what);
void pristine_free(struct pristine *p);

/* 0 when the device copy still hashes as sealed; otherwise warn under `label`, restore it
 * from the host image and return 1 (a kernel wrote outside its arrays). */
size_t pristine_restore_if_changed(struct pristine *p, const char *label);

/* The device word gpu_sum adds into (zeroed here), and its value once the sum is done. */
unsigned long long *devcheck_counter(void);
unsigned long long devcheck_read_counter(void);

template <class Term>
static __global__ void sum_kernel(size_t n, Term term, unsigned long long *sum)
{
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        mine += term(i);
    for (int d = 16; d; d >>= 1)
        mine += __shfl_down_sync(0xffffffffu, mine, d);
    if ((threadIdx.x & 31) == 0 && mine)
        atomicAdd(sum, mine);
}

/* The sum, modulo 2^64, of term(i) for i < n (a __device__ unsigned long long operator()),
 * computed on the GPU (stream 0): the mismatch count below, the pristine copy's hash. */
template <class Term> unsigned long long gpu_sum(size_t n, Term term)
{
    if (!n)
        return 0;
    unsigned long long *sum = devcheck_counter();
    size_t blocks = (n + 255) / 256;
    sum_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(n, term, sum);
    CUDA_CHECK(cudaGetLastError());
    return devcheck_read_counter();
}

template <class Expected> struct mismatch_term {
    const uint32_t *got;
    Expected expected;
    __device__ unsigned long long operator()(size_t i) const
    {
        return got[i] != expected(i);
    }
};

template <class Expected> struct digest_term {
    Expected expected;
    __device__ unsigned long long operator()(size_t i) const
    {
        return proof_term(i, expected(i));
    }
};

/* Check n device words: counted on the GPU against `on_device`; when some differ, copied to
 * host_got and compared with `on_host` written into host_expected, which prints the first
 * mismatches under `label`. Returns the mismatches. The expected words' digest, summed on the
 * GPU too, goes to the proof of work (proof.h), as verify_words's does. */
template <class Expected>
size_t check_words(const char *label, const uint32_t *got, size_t n, Expected on_device,
                   Expected on_host, uint32_t *host_got, uint32_t *host_expected)
{
    if (!gpu_sum(n, mismatch_term<Expected>{got, on_device})) {
        proof_fold(n, gpu_sum(n, digest_term<Expected>{on_device}));
        return 0;
    }
    CUDA_CHECK(cudaMemcpy(host_got, got, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        host_expected[i] = on_host(i);
    return verify_words(label, host_got, host_expected, n);
}

#endif
