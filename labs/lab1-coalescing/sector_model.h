/* sector_model.h - lab 1's traffic model: the memory system moves whole 32-byte sectors.
 *
 * A warp's loads (or stores) are served as the set of distinct 32-byte sectors they touch.
 * The model counts those sectors warp by warp, for reads and writes alike, and predicts
 * that they move at the copy ceiling: predicted useful bandwidth = ceiling x useful bytes /
 * sector bytes. Plain C, so the unit tests check it without a GPU.
 */
#ifndef LAB1_SECTOR_MODEL_H
#define LAB1_SECTOR_MODEL_H

#include <stddef.h>

#define SECTOR_BYTES 32
#define WARP_THREADS 32

/* Distinct sectors touched by `count` accesses of elem_bytes each, the first at byte
 * address first_byte, each next one stride_bytes further (elements never straddle a
 * sector: elem_bytes divides 32 and addresses are aligned to it). */
static inline size_t warp_sectors(size_t first_byte, size_t count, size_t stride_bytes,
                                  size_t elem_bytes)
{
    if (count == 0)
        return 0;
    if (stride_bytes > SECTOR_BYTES)
        return count;
    size_t last_byte = first_byte + (count - 1) * stride_bytes + elem_bytes - 1;
    return last_byte / SECTOR_BYTES - first_byte / SECTOR_BYTES + 1;
}

/* Sector bytes moved (reads plus writes) when `threads` threads each copy one element of
 * elem_bytes, thread t at element first + t*stride (in elements). */
static inline double copy_sector_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes)
{
    double sectors = 0;
    for (size_t t = 0; t < threads; t += WARP_THREADS) {
        size_t in_warp = threads - t < WARP_THREADS ? threads - t : WARP_THREADS;
        sectors += (double)warp_sectors((first + t * stride) * elem_bytes, in_warp,
                                        stride * elem_bytes, elem_bytes);
    }
    return 2.0 * SECTOR_BYTES * sectors;
}

#endif
