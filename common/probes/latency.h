/* latency.h - the DRAM latency of one load, measured by a pointer chase (labs 2 and 9).
 *
 * One thread follows a chain of links (common/probes/chase.h) through a buffer 4x the L2 size, one
 * link per 128-byte line, so that no two links share a line or a sector and every hop misses
 * every cache. Two orders: random over the whole buffer (chase_whole_buffer) and page by page
 * (chase_page_by_page: random inside each 2 MiB page, the pages in order, so the address
 * translation stays warm as it does for a streaming kernel). Each is a row of the CSV
 * `latency` (param: hops; columns buffer_bytes, stride_bytes, group_bytes, ns_per_hop,
 * cycles_per_hop); under --check the chases are verified and nothing is timed or written.
 */
#ifndef MEMLAB_LATENCY_H
#define MEMLAB_LATENCY_H

#include "harness.h"

/* Both chases; returns the page-by-page latency in ns (0 under --check). */
double lab_dram_latency_ns(struct lab *lab);

#endif
