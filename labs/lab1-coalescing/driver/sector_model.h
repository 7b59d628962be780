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

#ifdef __cplusplus
extern "C" {
#endif

#define SECTOR_BYTES 32
#define WARP_THREADS 32

/* Distinct sectors touched by `count` accesses of elem_bytes each, the first at byte
 * address first_byte, each next one stride_bytes further (elements never straddle a
 * sector: elem_bytes divides 32 and addresses are aligned to it). */
size_t warp_sectors(size_t first_byte, size_t count, size_t stride_bytes, size_t elem_bytes);

/* Sector bytes moved (reads plus writes) when `threads` threads each copy one element of
 * elem_bytes, thread t at element first + t*stride (in elements). */
double copy_sector_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes);

/* DRAM bytes (reads, fills and writes) when `threads` threads copy one element each, thread
 * t at element first + t*stride, all threads together. */
double copy_dram_bytes(size_t first, size_t threads, size_t stride, size_t elem_bytes);

#ifdef __cplusplus
}
#endif

#endif
