/* bandwidth.h - what each level of the memory hierarchy delivers, measured in the run
 * (labs 4 and 9). The driver's own trusted kernels (timed without varied inputs or checks).
 * Three probes:
 *   l1_reread  every block re-reads 32 KiB with ld.ca: its SM's L1 serves it (on-chip)
 *   l2_reread  the grid shares re-reads of a buffer of at most a quarter of the L2, ld.cg
 *   dram_read  one buffer of up to buf_bytes (a power of two, several times the L2) read 4 times
 * Each is one row of the CSV `bandwidth` (param: the buffer in KiB; bytes: all bytes read;
 * columns level, buffer_bytes, passes, sm_clock_mhz, bytes_per_clk_per_sm).
 * And the points of lab 4's L2 sweep: all SMs re-reading a footprint of any size (a multiple
 * of SWEEP_GRANULE) with ld.cg, in one of two modes (lab_sweep_point); the caller writes them.
 */
#ifndef MEMLAB_BANDWIDTH_H
#define MEMLAB_BANDWIDTH_H

#include <stddef.h>

#include "harness.h"

enum { LEVEL_L1, LEVEL_L2, LEVEL_DRAM, LEVELS };

struct level_bandwidth {
    double gbps[LEVELS]; /* 0 where the probe's point was not ok */
    double bytes_per_clk_per_sm[LEVELS];
};

/* buf: device memory of buf_bytes (contents irrelevant: only read); sink: 4 device bytes.
 * clock_mhz: the SM clock measured in this run (gpu_measure_sm_clock_mhz). */
struct level_bandwidth lab_bandwidth_probes(struct lab *lab, const void *buf, size_t buf_bytes,
                                            void *sink, double clock_mhz);

#define SWEEP_GRANULE 512        /* a sweep's footprint: a multiple of a warp's 32 float4 */
#define SWEEP_BYTES (1ull << 30) /* read per launch: passes enough for this, at least one */

/* One point of the sweep: every SM re-reads `footprint` bytes of buf, `passes` times in one
 * launch, with ld.cg (the L1 keeps nothing). Every thread reads the same addresses each pass.
 *   shared    (every_sm 0) blocks of 256 threads, as many as the SMs hold: the grid reads the
 *             buffer once a pass, so each line is read by one SM
 *   every_sm  one block of 1024 threads per SM (as many blocks as SMs), each reading the whole
 *             buffer a pass, block b from b x 64 KiB on: every SM reads every line, the SMs
 *             within moments of one another, each SM again a whole footprint later. One pass
 * already reads each line once per SM, so past SWEEP_BYTES / SMs a point reads more than
 *             SWEEP_BYTES (on an H100 at 4x the L2, 132 x 200 MiB)
 * row: variant reread_shared or reread_every_sm, param and n the footprint (bytes, floats),
 * bytes all bytes read, ms and status as timed. */
struct sweep_point {
    int passes;
    unsigned blocks, threads;
    struct row row;
};

enum row_status lab_sweep_point(struct lab *lab, const void *buf, void *sink, size_t footprint,
                                int every_sm, struct sweep_point *p);

#endif
