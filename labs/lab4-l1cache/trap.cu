/* trap.cu - lab 4: the trap of the read-only path (never linked: labs/lab4-l1cache/sass.sh
 * --trap compiles it with -dlcm=ca and with -dlcm=cg and shows its loads).
 *
 * The lab's copy_stream with its input declared `const float *__restrict__`: the compiler may
 * then load it through the read-only (texture) path, LDG.E.CONSTANT on sm_90, which caches
 * in L1 whatever -dlcm says. Both builds get the same instruction, so a ca/cg comparison of
 * a kernel written this way compares nothing. The lab's kernels use plain pointers.
 */
#include <stddef.h>

__global__ void copy_restrict_kernel(float *__restrict__ out, const float *__restrict__ in,
                                     size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
