/* sector_model.h - lab 1's two traffic models. Plain C, so the unit tests check them.
 *
 * Sector model (the handout's model): a warp's loads or stores are served as the distinct
 * 32-byte sectors they touch, counted warp by warp, for reads and writes alike: what the
 * warps ask the memory system for. When warps share no sector (the strided copy) it is also
 * the traffic between the SMs and the L2.
 * DRAM model (what the H100 showed under Nsight Compute, dram__bytes_read.sum): the L2 reads
 * DRAM in 64-byte pairs of sectors, a sector written only in part is first read from DRAM
 * (filled) and then written back whole, and what neighbouring warps share is fetched once.
 * Either model predicts useful bandwidth = ceiling x useful bytes / modelled bytes.
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

/* DRAM bytes (reads, fills and writes) when `threads` threads copy one element each, thread
 * t at element first + t*stride, all threads together. */
static inline double copy_dram_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes)
{
    if (threads == 0)
        return 0;
    size_t first_byte = first * elem_bytes, step = stride * elem_bytes;
    size_t last_byte = first_byte + (threads - 1) * step + elem_bytes - 1;
    size_t pairs = step <= 2 * SECTOR_BYTES ? last_byte / 64 - first_byte / 64 + 1 : threads;
    size_t written = step <= SECTOR_BYTES ? last_byte / 32 - first_byte / 32 + 1 : threads;
    size_t partial = written; /* with gaps between elements, every written sector */
    if (step == elem_bytes) { /* contiguous: only the two ends can be partial */
        partial = (first_byte % SECTOR_BYTES != 0) + ((last_byte + 1) % SECTOR_BYTES != 0);
        partial = partial < written ? partial : written;
    }
    return 2.0 * SECTOR_BYTES * pairs + SECTOR_BYTES * (double)(written + partial);
}

#endif
