/* state.h - lab 9: the run's state, and what of driver.cu its modules use (trusted): the sweep's
 * shapes and the lab's prediction, so that --counters (counters.cu) compares its points with
 * the model exactly as the sweep does.
 */
#ifndef LAB9_STATE_H
#define LAB9_STATE_H

#include "harness.h"
#include "kernels.h"
#include "model.h"

#define MAX_SIZES 4

struct state {
    float *in, *out, *host_in, *got;
    size_t capacity, got_capacity;
    struct lab9_machine machine;
    double gbps[3];           /* BW_GM, BW_L2, BW_SMX */
    struct lab9_rates rates;  /* the same, the issue rate and the DRAM latency */
    int formulas[LAB9_CODES]; /* the student's volumes: 1 implemented, 0 not */
    int edges[MAX_SIZES], edge_count;
};

/* Code k's block shape s (model.h's lab9_shapes) on a grid of edge n. */
struct lab9_config shape_config(int k, int s, int n);

/* The lab's prediction for volumes v (the count's or the student's) of code k at c. */
struct lab9_time predict(const struct lab *lab, const struct state *st, int k,
                         const struct lab9_config *c, const struct lab9_volumes *v,
                         struct lab9_launch *launch);

#endif
