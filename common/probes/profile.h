/* profile.h - --counters, the kit's one way to read hardware counters.
 *
 * The lab program runs itself again under Nsight Compute (tools/ncu-counters.sh), with the
 * arguments the lab gives (among them its --profile-once), and waits. That run launches
 * each point once, after profile_mark(point); the tool numbers every kernel after a mark
 * with that point. For each such kernel the lab's callback gets the point and the metrics
 * in the order asked (NAN where ncu gave none). No ncu, or no permission to read counters:
 * the tool says so in one line and the lab's counter columns stay empty.
 */
#ifndef MEMLAB_PROFILE_H
#define MEMLAB_PROFILE_H

#define PROFILE_MAX_METRICS 16

/* Launched before a point's kernels under --profile-once: a kernel of `point` + 1 blocks. */
void profile_mark(int point);

/* profile_mark, and the line `profile point POINT: WHAT` on stdout, which names the point in
 * `make profile-labN`'s summary (tools/profile-summary.awk): "stride 4", "hot1, 256 bins". */
void profile_mark_named(int point, const char *what);

/* Called for each kernel of a point 0 .. points-1; returns 1 when the kernel's values were
 * used for the point, 0 when ignored. */
typedef int (*profile_row_fn)(void *ctx, int point, const double *values);

/* Runs this program again under ncu with `args`, collecting `count` metrics for the lab's
 * `points` points; returns the kernels joined to a point. `without` says, after "none
 * collected; ", what the lab's output lacks then ("the ncu_* columns stay empty"). */
int profile_self(const char *const *metrics, int count, int points, const char *args,
                 profile_row_fn row, void *ctx, const char *without);

#endif
