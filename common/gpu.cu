/* gpu.cu - device facts, checked allocation, poisoning, L2 flush, copy ceiling
 * (see gpu.h). */
#include "gpu.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "proof.h"
#include "stats.h"
#include "timing.h"

static __global__ void probe_kernel(void) {}

static int attribute(cudaDeviceAttr what, int device)
{
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, what, device));
    return v;
}

void gpu_open(struct gpu_info *g)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0)
        memlab_die(EXIT_GPU,
                   "no CUDA GPU found (cudaGetDeviceCount: %s): the labs need an NVIDIA GPU of "
                   "compute capability 7.5 or newer and its driver",
                   err != cudaSuccess ? cudaGetErrorName(err) : "0 devices");
    memset(g, 0, sizeof *g);
    g->device = 0;
    CUDA_CHECK(cudaSetDevice(g->device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, g->device));
    snprintf(g->name, sizeof g->name, "%s", prop.name);
    g->cc_major = prop.major;
    g->cc_minor = prop.minor;
    g->sms = prop.multiProcessorCount;
    g->l2_bytes = (size_t)attribute(cudaDevAttrL2CacheSize, g->device);
    g->smem_per_sm = prop.sharedMemPerMultiprocessor;
    g->smem_per_block = prop.sharedMemPerBlock;
    g->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    g->regs_per_sm = prop.regsPerMultiprocessor;
    g->regs_per_block = prop.regsPerBlock;
    g->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    g->max_threads_per_block = prop.maxThreadsPerBlock;
    g->warp_size = prop.warpSize;
    g->max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, g->device);
    g->smem_reserved_per_block =
        (size_t)attribute(cudaDevAttrReservedSharedMemoryPerBlock, g->device);
    g->mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, g->device);
    g->bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, g->device);
    g->sm_clock_khz = attribute(cudaDevAttrClockRate, g->device);
    g->theoretical_dram_gbps = 2.0 * g->mem_clock_khz * 1e3 * (g->bus_width_bits / 8.0) / 1e9;
    g->total_bytes = prop.totalGlobalMem;
    CUDA_CHECK(cudaDriverGetVersion(&g->driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&g->runtime_version));

    cudaFuncAttributes fa;
    err = cudaFuncGetAttributes(&fa, probe_kernel);
    if (err != cudaSuccess)
        memlab_die(EXIT_GPU,
                   "this build has no code for the %s (sm_%d%d): %s; rebuild for it with "
                   "'make clean' and 'make ARCH=sm_%d%d'",
                   g->name, g->cc_major, g->cc_minor, cudaGetErrorName(err), g->cc_major,
                   g->cc_minor);
}

double gpu_fp32_peak_gflops(const struct gpu_info *g)
{
    int lanes = g->cc_major < 8 || (g->cc_major == 8 && g->cc_minor == 0) ? 64 : 128;
    return g->sms * lanes * 2.0 * g->sm_clock_khz * 1e3 / 1e9;
}

size_t gpu_free_bytes(void)
{
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    return free_bytes;
}

void *gpu_alloc(size_t bytes, const char *what)
{
    size_t free_bytes = gpu_free_bytes();
    if (bytes > free_bytes)
        memlab_die(EXIT_USAGE,
                   "%s needs %.1f MiB of GPU memory but only %.1f MiB are free: use a smaller --n",
                   what, bytes / 1048576.0, free_bytes / 1048576.0);
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, bytes ? bytes : 1);
    if (err != cudaSuccess)
        memlab_die(EXIT_USAGE,
                   "%s: cudaMalloc of %.1f MiB failed (%s) with %.1f MiB free: use a smaller --n",
                   what, bytes / 1048576.0, cudaGetErrorName(err), free_bytes / 1048576.0);
    return p;
}

void gpu_free(void *p)
{
    CUDA_CHECK(cudaFree(p));
}

void gpu_poison(void *p, size_t bytes)
{
    CUDA_CHECK(cudaMemset(p, 0xFF, bytes));
}

/* The flush buffer, twice the L2, allocated on first use. */
static void *l2_scratch(const struct gpu_info *g, size_t *bytes)
{
    static void *scratch = NULL;
    if (!scratch)
        scratch = gpu_alloc(2 * g->l2_bytes, "the L2 flush buffer");
    *bytes = 2 * g->l2_bytes;
    return scratch;
}

void gpu_flush_l2(const struct gpu_info *g)
{
    size_t bytes;
    void *scratch = l2_scratch(g, &bytes);
    CUDA_CHECK(cudaMemset(scratch, 0x5A, bytes));
}

/* Reads every word; the store never happens (the buffer holds 0x5A bytes or zeros), but the
 * compiler cannot know it, so the loads stay. */
static __global__ void read_all_kernel(const unsigned *x, size_t n, unsigned *never)
{
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc ^= x[i];
    if (acc == 0x12345678u)
        *never = acc;
}

void gpu_clean_l2(const struct gpu_info *g)
{
    size_t bytes;
    unsigned *scratch = (unsigned *)l2_scratch(g, &bytes);
    read_all_kernel<<<4 * g->sms, 512>>>(scratch, bytes / sizeof(unsigned) - 1,
                                         scratch + bytes / sizeof(unsigned) - 1);
    CUDA_CHECK(cudaGetLastError());
}

static __device__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Each block's first thread sleeps until its deadline on the global nanosecond timer; the
 * others wait at the barrier, holding their thread slots. */
static __global__ void hold_kernel(unsigned long long ns)
{
    if (threadIdx.x == 0)
        for (unsigned long long end = global_ns() + ns; global_ns() < end;)
            __nanosleep(1000);
    __syncthreads();
}

/* One thread counts SM cycles while the global timer advances by `ns`. */
static __global__ void clock_kernel(unsigned long long ns, unsigned long long *out)
{
    unsigned long long t0 = global_ns(), c0 = clock64(), t1;
    do
        t1 = global_ns();
    while (t1 - t0 < ns);
    out[0] = clock64() - c0;
    out[1] = t1 - t0;
}

double gpu_measure_sm_clock_mhz(double ms)
{
    unsigned long long *d = (unsigned long long *)gpu_alloc(2 * sizeof *d, "the clock probe");
    unsigned long long h[2] = {0, 0};
    for (int run = 0; run < 2; run++) { /* the first run wakes the GPU up */
        clock_kernel<<<1, 1>>>((unsigned long long)(ms * 1e6), d);
        gpu_check_launch("the clock probe");
    }
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    gpu_free(d);
    return h[1] ? 1e3 * (double)h[0] / (double)h[1] : 0;
}

void gpu_hold_stream(const struct gpu_info *g, double ms)
{
    const int threads = 256;
    hold_kernel<<<g->sms *(g->max_threads_per_sm / threads), threads>>>(
        (unsigned long long)(ms * 1e6));
    CUDA_CHECK(cudaGetLastError());
}

double gpu_copy_ceiling_gbps(size_t bytes, int reps)
{
    void *src = gpu_alloc(bytes, "the copy-ceiling source");
    void *dst = gpu_alloc(bytes, "the copy-ceiling destination");
    CUDA_CHECK(cudaMemset(src, 0x3C, bytes));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double samples[64];
    if (reps > 64)
        reps = 64;
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice)); /* warm-up */
    for (int r = 0; r < reps; r++) {
        float ms = 0;
        CUDA_CHECK(cudaEventRecord(start));
        CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        samples[r] = 2.0 * bytes / (ms * 1e6);
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    gpu_free(src);
    gpu_free(dst);
    return summarize(samples, reps).median;
}

void gpu_check_launch(const char *what)
{
    proof_forget(); /* the verdict's digest is of the checks of this launch alone (proof.h) */
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = gpu_wait(NULL, what);
    if (err != cudaSuccess)
        memlab_die(EXIT_GPU, "kernel of %s failed: %s (%s)", what, cudaGetErrorName(err),
                   cudaGetErrorString(err));
}

struct occupancy gpu_occupancy(const struct gpu_info *g, const void *kernel, int block_threads,
                               size_t dynamic_smem_bytes)
{
    struct occupancy o;
    memset(&o, 0, sizeof o);
    cudaFuncAttributes fa;
    CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    o.regs_per_thread = fa.numRegs;
    o.static_smem_bytes = fa.sharedSizeBytes;
    o.dynamic_smem_bytes = dynamic_smem_bytes;
    o.local_bytes_per_thread = fa.localSizeBytes;
    o.block_threads = block_threads;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks_per_sm, kernel,
                                                             block_threads, dynamic_smem_bytes));
    o.warps_per_sm = o.blocks_per_sm * ((block_threads + g->warp_size - 1) / g->warp_size);
    o.occupancy = (double)o.warps_per_sm / (g->max_threads_per_sm / g->warp_size);
    return o;
}
