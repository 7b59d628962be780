/* lab.h - what a student's kernels.cu may return from a launcher.
 *
 * A launcher returns LAB_OK once its kernel is launched, or LAB_NOT_IMPLEMENTED while its
 * TODO is open: the driver then reports "not_implemented" and runs the other variants.
 * Launch errors and faults are caught by the driver, which names the variant.
 *
 * Every lab's variant table entry starts with the same two fields, so that the harness
 * can list and select variants of any lab:
 *     { "v3_sequential_addressing", "one-line idea", launcher }
 */
#ifndef MEMLAB_LAB_H
#define MEMLAB_LAB_H

enum lab_launch_result { LAB_OK = 0, LAB_NOT_IMPLEMENTED = 1 };

#endif
