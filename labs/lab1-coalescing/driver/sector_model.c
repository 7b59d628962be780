/* sector_model.c - lab 1's two traffic models (see sector_model.h). */
#include "sector_model.h"

size_t warp_sectors(size_t first_byte, size_t count, size_t stride_bytes, size_t elem_bytes)
{
    if (count == 0)
        return 0;
    if (stride_bytes > SECTOR_BYTES)
        return count;
    size_t last_byte = first_byte + (count - 1) * stride_bytes + elem_bytes - 1;
    return last_byte / SECTOR_BYTES - first_byte / SECTOR_BYTES + 1;
}

double copy_sector_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes)
{
    double sectors = 0;
    for (size_t t = 0; t < threads; t += WARP_THREADS) {
        size_t in_warp = threads - t < WARP_THREADS ? threads - t : WARP_THREADS;
        sectors += (double)warp_sectors((first + t * stride) * elem_bytes, in_warp,
                                        stride * elem_bytes, elem_bytes);
    }
    return 2.0 * SECTOR_BYTES * sectors;
}

double copy_dram_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes)
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
