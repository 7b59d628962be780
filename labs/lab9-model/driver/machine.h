/* machine.h - lab 9's probe of the issue rate, the one figure of the machine that common/
 * has no probe for (trusted; used by driver.cu). The bandwidths are
 * common/probes/bandwidth.h's, the DRAM latency common/probes/latency.h's.
 *
 *   issue_kernel   independent FFMA chains on every thread: an SM issues one a clock a scheduler
 *   measure_issue  times it over every SM (results/lab9/issue.csv): warp instructions a second
 */
#ifndef LAB9_MACHINE_H
#define LAB9_MACHINE_H

#include "harness.h"

/* The issue rate: warp instructions a second (0 if the point was not ok), one row of `issue`. */
double measure_issue(struct lab *lab, float *sink, double clock_mhz);

#endif
