/* l2sweep.h - lab 4's L2 sweep: the L2's capacity as an edge in bandwidth (trusted, used by
 * driver.cu). One warp's chase climbs gradually past half the L2 and shows no edge at the
 * whole of it; all the SMs re-reading a buffer with ld.cg show two sharp ones. The points are
 * common/probes/bandwidth.h's (lab_sweep_point), at footprints from 1/8 of the L2 to 4 times it,
 * 8 per doubling (--quick 4, --full 16), in two modes:
 *   shared    the grid reads the buffer once a pass: each line is read by one SM and held once,
 *             so the edge should be at the whole L2
 *   every_sm  each SM reads all of it: each L2 partition keeps a copy of a line for the SMs on
 *             its side, so a line every SM reads is held twice and the edge should be at half
 * Each mode's edge (edges.h): where its bandwidth first falls below halfway between its
 * plateau and its floor, refined by bisection to REFINE_RATIO (rows with sample half) unless
 * --grid-only. CSV l2sweep: param the footprint in bytes, bytes all bytes read, gbps; columns
 * footprint_bytes, blocks, threads, passes, sample (grid or half).
 */
#ifndef LAB4_L2SWEEP_H
#define LAB4_L2SWEEP_H

#include "harness.h"

/* Both modes over the grid, then each one's edge. buf: device memory of buf_bytes (at least 4x
 * the L2 for the whole sweep); sink: 4 device bytes. */
void run_l2sweep(struct lab *lab, const void *buf, size_t buf_bytes, void *sink, int grid_only);

#endif
