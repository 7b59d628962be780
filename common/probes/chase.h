/* chase.h - the building blocks of a pointer chase, shared by lab 2 (DRAM latency) and
 * lab 4 (the latency staircase). Host code only; the kernels that follow the chain live in
 * each lab (lab 2's driver, lab 4's kernels.cu).
 *
 * A chase follows a chain of links through a buffer: each load's address is the value the
 * load before returned, so no two loads overlap and time / hops is the latency of one load.
 * The buffer is cut into slots of `stride_words` 32-bit words; the first word of a slot
 * holds the word index of the next slot. The slots form one cycle in a random order, so a
 * slot comes back only after every other slot has been visited: the footprint the caches
 * see is the whole buffer, and no hop can guess the next address.
 *
 *   chase_order     the visiting order: random over all slots, or within groups of slots
 *                   (lab 2's page-by-page order: the pages in address order)
 *   chase_links     write the cycle into the buffer's host image
 *   chase_position  where a chase stands after some hops (the reference a chase is checked on)
 */
#ifndef MEMLAB_CHASE_H
#define MEMLAB_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHASE_PAGE_BYTES ((size_t)2 << 20)

/* order[0..slots): the slots in visiting order, shuffled within groups of group_slots
 * consecutive slots (group_slots >= slots: one random order over the whole buffer). */
void chase_order(unsigned *order, size_t slots, size_t group_slots, struct rng *r);

/* Write the cycle into the buffer's host image: the slot visited at step p links to the
 * slot visited at step p + 1, the last one back to the first. Other words are left as
 * they are. */
void chase_links(uint32_t *words, const unsigned *order, size_t slots, unsigned stride_words);

/* Where a chase that starts at step `first_step` of the order (word index
 * order[first_step] * stride_words) stands after `hops` hops, as a word index. */
unsigned chase_position(const unsigned *order, size_t slots, size_t first_step, long long hops,
                        unsigned stride_words);

#ifdef __cplusplus
}
#endif

#endif
