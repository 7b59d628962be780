/* pointer_chase.h - lab 2's latency probe, used by the driver (trusted).
 *
 * One thread follows a chain of links through a buffer several times the L2 size. Each
 * hop is a load whose address is the value the previous load returned, so the loads
 * cannot overlap: time per hop = the latency of one load that misses every cache.
 *
 * The buffer is cut into slots of CHASE_STRIDE_BYTES, one 128-byte line each; the first
 * word of a slot holds the word index of the next slot. The slots form one cycle, so a
 * line comes back only after every other slot has been visited (far more lines than the
 * L2 holds): every hop misses, in every launch, with no flush. Two visiting orders:
 *   whole buffer   a random order over all slots: most hops also change 2 MiB page
 *   page by page   the 2 MiB pages in address order, the slots of each page in a random
 *                  order: address translation stays warm, as in the streaming kernels
 */
#ifndef LAB2_POINTER_CHASE_H
#define LAB2_POINTER_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define CHASE_STRIDE_BYTES 128
#define CHASE_STRIDE_WORDS (CHASE_STRIDE_BYTES / 4)
#define CHASE_PAGE_BYTES ((size_t)2 << 20)

/* One thread: start at *cursor, follow `hops` links, leave the end in *cursor (so the next
 * launch goes on along the cycle instead of revisiting lines that may still be cached). */
static __global__ void chase_kernel(const unsigned *links, long long hops, unsigned *cursor)
{
    unsigned j = *cursor;
    for (long long h = 0; h < hops; h++)
        j = links[j];
    *cursor = j;
}

/* order[0..slots): the slots in visiting order, shuffled within groups of group_slots
 * consecutive slots (group_slots >= slots: one random order over the whole buffer). */
static void chase_order(unsigned *order, size_t slots, size_t group_slots, struct rng *r)
{
    for (size_t s = 0; s < slots; s++)
        order[s] = (unsigned)s;
    for (size_t first = 0; first < slots; first += group_slots) {
        size_t len = slots - first < group_slots ? slots - first : group_slots;
        for (size_t i = len - 1; i > 0; i--) { /* Fisher-Yates */
            size_t j = rng_next(r) % (i + 1);
            unsigned t = order[first + i];
            order[first + i] = order[first + j];
            order[first + j] = t;
        }
    }
}

/* Write the cycle into the buffer's host image: the slot visited at step p links to the
 * slot visited at step p + 1, the last one back to the first. */
static void chase_links(uint32_t *words, const unsigned *order, size_t slots)
{
    for (size_t p = 0; p < slots; p++)
        words[(size_t)order[p] * CHASE_STRIDE_WORDS] =
            order[(p + 1) % slots] * (uint32_t)CHASE_STRIDE_WORDS;
}

/* Where the chase stands after `hops` hops from order[0], as a word index. */
static unsigned chase_position(const unsigned *order, size_t slots, long long hops)
{
    return order[(size_t)(hops % (long long)slots)] * (unsigned)CHASE_STRIDE_WORDS;
}

#endif
