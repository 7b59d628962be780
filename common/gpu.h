/* gpu.h - the GPU the lab runs on: facts, memory, the measured copy ceiling.
 *
 * Facts come from cudaDeviceGetAttribute (CUDA 13 removed memoryClockRate and clockRate
 * from cudaDeviceProp). The theoretical DRAM bandwidth is 2 x memory clock x bus width / 8.
 * The copy ceiling is what cudaMemcpy device-to-device really achieves in this run,
 * counting the bytes read plus the bytes written: every lab reports against it.
 * This header is plain C so that host-only code (report, tests) can read the facts.
 */
#ifndef MEMLAB_GPU_H
#define MEMLAB_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpu_info {
    int device;
    char name[256];
    int cc_major, cc_minor;
    int sms;
    size_t l2_bytes;
    size_t smem_per_sm, smem_per_block, smem_per_block_optin;
    int regs_per_sm, regs_per_block;
    int max_threads_per_sm, max_threads_per_block, warp_size;
    int max_blocks_per_sm;
    size_t smem_reserved_per_block; /* shared memory the system keeps for each resident block */
    int mem_clock_khz, bus_width_bits, sm_clock_khz;
    double theoretical_dram_gbps;
    size_t total_bytes;
    int driver_version, runtime_version;
};

/* Open device 0 and read its facts. No usable GPU: one line, exit 3. */
void gpu_open(struct gpu_info *g);

/* cudaMalloc that explains itself: a request larger than the free memory gets one line
 * with both numbers and exit 2; `what` names the buffer. */
void *gpu_alloc(size_t bytes, const char *what);
void gpu_free(void *p);

/* Fill with 0xFF bytes: NaN as float, -1 as int. Outputs are poisoned before every
 * verified run so that an element the kernel forgot to write cannot pass. */
void gpu_poison(void *p, size_t bytes);

/* Write a scratch buffer of twice the L2 size so the next launch starts with a cold L2. */
void gpu_flush_l2(const struct gpu_info *g);

/* Read that buffer: the L2's dirty lines are written back now, and it is left holding clean
 * lines of no use to the next launch (so that launch pays no write-backs it did not cause). */
void gpu_clean_l2(const struct gpu_info *g);

/* Occupy every thread slot of every SM for `ms` milliseconds (a sleeping kernel on stream
 * 0). Launched just before a timed launch, it keeps the GPU from starting the timed work
 * until the host has queued all of it, so the events time the GPU and not the host's launch
 * latency; and no kernel queued elsewhere meanwhile can run hidden beside it. */
void gpu_hold_stream(const struct gpu_info *g, double ms);

/* Median cudaMemcpy device-to-device bandwidth over `bytes`, in GB/s (reads + writes). */
double gpu_copy_ceiling_gbps(size_t bytes, int reps);

/* After a launch: a launch error or a fault while running gets one line naming `what`
 * (the variant and its parameter) and exit 3; so does a kernel still running after the
 * watchdog's limit (gpu_wait, timing.h). */
void gpu_check_launch(const char *what);

/* The SM clock while a kernel runs, in MHz: clock64() cycles against the global nanosecond
 * timer over about `ms` milliseconds on one SM. The clock the device reports
 * (sm_clock_khz) is its boost maximum; a GPU may run below it. */
double gpu_measure_sm_clock_mhz(double ms);

/* FP32 peak: SMs x FP32 lanes per SM (64 on sm_75 and sm_80, else 128) x 2 x the boost clock. */
double gpu_fp32_peak_gflops(const struct gpu_info *g);

/* Free bytes on the device now. */
size_t gpu_free_bytes(void);

/* What the compiler gave a kernel and how many of its blocks fit on one SM (the occupancy
 * API): the resource table of labs that reason about registers and shared memory. */
struct occupancy {
    int regs_per_thread;
    size_t static_smem_bytes, dynamic_smem_bytes, local_bytes_per_thread;
    int block_threads;
    int blocks_per_sm, warps_per_sm;
    double occupancy; /* resident warps / the SM's maximum */
};

/* kernel: the __global__ function's address, cast to const void *. */
struct occupancy gpu_occupancy(const struct gpu_info *g, const void *kernel, int block_threads,
                               size_t dynamic_smem_bytes);

#ifdef __cplusplus
}
#endif

#endif
