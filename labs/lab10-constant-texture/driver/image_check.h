/* image_check.h - lab 10: an output image of zoom or rotate against the CPU, pixel by pixel
 * (trusted, used by driver.cu; tests/unit/lab10_image_check.cu runs it without a GPU).
 *
 * The *_texture variants against the texture model at the point the kernel fetched
 * (lab10_source, the same float arithmetic on the host): its value to 4 ulps (either side of a
 * tie), or else within one 1/256 step of a, of b and of the product weight of it, in the
 * model's footprint or a neighbour (a kernel that computes the point in another order may land
 * a weight one step away); those pixels are counted (off_model), not failed. The *_global
 * variants against exact weights, within a tolerance that grows with the neighbourhood's
 * spread for the rotations (their source points are rounded in float).
 *
 * The rows are checked on every core: the model costs the CPU far more than the kernel costs
 * the GPU, which waits for it after every checked repetition. Each row's statistics are kept
 * apart and combined in row order, so that they come out the same on any number of cores;
 * where pixels are wrong, the first VERIFY_REPORT_CAP are then reported in order.
 */
#ifndef LAB10_IMAGE_CHECK_H
#define LAB10_IMAGE_CHECK_H

#include <stddef.h>

#include "kernels.h"
#include "texture_model.h"
#include "verify.h"

/* What a check saw: pixels wrong, and over those right the error against exact weights
 * (largest, sum of squares) and, for the texture, the largest distance from the model within
 * 4 ulps, the ties it told apart and the pixels one weight step from it. */
struct image_stats {
    size_t bad;
    double max_err, sum_sq, max_ulp;
    struct tm_tie_count ties;
    long long off_model;
};

struct image_check {
    struct tm_texture t; /* the input, as the kernel read it */
    struct lab10_map m;
    const float *out;    /* t.w x t.h pixels */
    int texture, rotate; /* a *_texture variant; a rotation */
};

/* Output row oy into *s; with a label, its wrong pixels are also reported while *shown
 * (those reported so far) is under VERIFY_REPORT_CAP. */
void image_check_row(const struct image_check *c, int oy, struct image_stats *s, const char *label,
                     size_t *shown);

/* Every row of the image checked (on every core); the first wrong pixels reported under
 * `label`, in order. */
struct image_stats image_check(const struct image_check *c, const char *label);

#endif
