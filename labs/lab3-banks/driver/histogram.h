/* histogram.h - lab 3's histogram experiment (trusted): global atomics against a histogram
 * privatised in shared memory, against CUB's DeviceHistogram::HistogramEven in the same run.
 * Its variants are the table's entries whose names begin with HISTOGRAM_PREFIX.
 */
#ifndef LAB3_HISTOGRAM_H
#define LAB3_HISTOGRAM_H

#include "harness.h"

#define HISTOGRAM_PREFIX "hist_"

/* Is variant `name` one of the histogram experiment's? */
int is_histogram_variant(const char *name);

/* Verify every selected histogram variant at awkward sizes and bin counts, then at the
 * timed size for every input and bin count (one bin count when only_bins > 0), and time
 * each with CUB beside it (not with --check): results/lab3/histogram.csv and a summary. */
void histogram_experiment(struct lab *lab, int only_bins);

/* --profile-once: every selected histogram variant once for each input and bin count at the
 * timed size, each launch after a marker that names it (probes/profile.h), numbered from
 * `first` on; nothing verified. */
void histogram_profile_points(struct lab *lab, int only_bins, int first);

#endif
