/* chase.c - the building blocks of a pointer chase (see chase.h). */
#include "chase.h"

void chase_order(unsigned *order, size_t slots, size_t group_slots, struct rng *r)
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

void chase_links(uint32_t *words, const unsigned *order, size_t slots, unsigned stride_words)
{
    for (size_t p = 0; p < slots; p++)
        words[(size_t)order[p] * stride_words] = order[(p + 1) % slots] * stride_words;
}

unsigned chase_position(const unsigned *order, size_t slots, size_t first_step, long long hops,
                        unsigned stride_words)
{
    return order[(first_step + (size_t)(hops % (long long)slots)) % slots] * stride_words;
}
