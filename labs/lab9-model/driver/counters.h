/* counters.h - lab 9's --counters: a few points of the sweep under Nsight Compute (profile.h),
 * each level's counted bytes, the shared-memory wavefronts and the warp instructions beside the
 * model's (results/lab9/counters.csv). Trusted; used by driver.cu.
 *
 * The points: the quick shapes of every code at PROFILE_EDGE, point k * LAB9_QUICK_SHAPES + s
 * for code k's shape s. With --profile-once, the child run that ncu profiles, driver.cu
 * launches each of them once after its mark (profile_points).
 */
#ifndef LAB9_COUNTERS_H
#define LAB9_COUNTERS_H

#include "state.h"

#define PROFILE_EDGE 512
#define PROFILE_POINTS (LAB9_CODES * LAB9_QUICK_SHAPES)

/* --counters: the points above under Nsight Compute (profile.h); the counted bytes per level
 * beside the model's (the shared-memory counters count 128-byte wavefronts: beside the
 * seed's 4-byte floats and the lab's wavefronts), the warp instructions beside the count of
 * model.h, and the instructions each SM issued a clock while the kernel ran under ncu. */
void run_counters(struct lab *lab, struct state *st);

#endif
