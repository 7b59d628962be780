/* bandwidth.h - what each level of the memory hierarchy delivers, measured in the run
 * (labs 4 and 9). Three probes, the driver's own trusted kernels (timed without varied
 * inputs or checks):
 *   l1_reread  every block re-reads 32 KiB with ld.ca: its SM's L1 serves it (on-chip)
 *   l2_reread  the grid shares re-reads of a buffer of at most a quarter of the L2, ld.cg
 *   dram_read  one buffer of up to buf_bytes (a power of two, several times the L2) read 4 times
 * Each is one row of the CSV `bandwidth` (param: the buffer in KiB; bytes: all bytes read;
 * columns level, buffer_bytes, passes, sm_clock_mhz, bytes_per_clk_per_sm).
 */
#ifndef MEMLAB_BANDWIDTH_H
#define MEMLAB_BANDWIDTH_H

#include <stddef.h>

#include "harness.h"

enum { LEVEL_L1, LEVEL_L2, LEVEL_DRAM, LEVELS };

struct level_bandwidth {
    double gbps[LEVELS];    /* 0 where the probe's point was not ok */
    double bytes_per_clk_per_sm[LEVELS];
};

/* buf: device memory of buf_bytes (contents irrelevant: only read); sink: 4 device bytes.
 * clock_mhz: the SM clock measured in this run (gpu_measure_sm_clock_mhz). */
struct level_bandwidth lab_bandwidth_probes(struct lab *lab, const void *buf, size_t buf_bytes, void *sink,
                                            double clock_mhz);

#endif
