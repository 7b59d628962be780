/* modes.h - lab 10: the texture unit checked against the CPU model (texture_model.h), element
 * by element (trusted; used by driver.cu). The driver's own kernel samples a
 * texture at a list of coordinates; every value must be the model's (point filtering:
 * bit for bit; linear: within 4 ulps of the largest texel weighed, either side of a tie).
 *
 * Coordinates are drawn on a grid of 1/1024 texel that keeps clear of the places where the
 * float arithmetic before the fetch could tip a result (a point fetch within 3/1024 below a
 * texel edge, a linear weight exactly halfway between two 1/256 steps): every way of turning
 * the coordinate into 8 fractional bits that errs by less than 1/1024 texel (floor or toward
 * zero from 10 bits on, normalised coordinates times the size in float or in 16-bit fixed
 * point) gives the same weights, so only the weight rule is tested. Ties are then added on
 * purpose where the coordinates are exact (unnormalised, or a power-of-two size), and counted
 * where the value tells them apart: ties_up is how often the GPU took the upper weight, and
 * product_ties_up the upper product weight. guide_exact counts the fetches that the guide's
 * formula with exact products (TM_WEIGHTS_GUIDE) would have predicted to the bit.
 *
 * --dump-fetches writes every fetch of the modes to fetches.csv: the coordinates (and their
 * float bits), the footprint's texels, the GPU's value and both rules' values, so that a
 * single run settles what the model leaves open.
 */
#ifndef LAB10_MODES_H
#define LAB10_MODES_H

#include "harness.h"

/* Every mode on the seed's 4x4 matrix and on a 61x37 texture of random floats; every fetch to
 * fetches.csv where dump is set (and CSVs are written: not with --check). */
void run_modes(struct lab *lab, int dump);

/* The 8-bit weights seen directly: texels 0 and 1, one fetch per 1/1024 of a texel. */
void run_staircase(struct lab *lab);

#endif
