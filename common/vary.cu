/* vary.cu - the device side of input variation (see vary.h). */
#include "vary.h"

#include "check.h"

/* Negation that keeps every bit but the sign: floats flip their sign bit (the compiler's -x
 * would turn a NaN's payload into the canonical NaN), ints negate. Both are their own inverse. */
static __device__ void negate(float &x)
{
    x = __uint_as_float(__float_as_uint(x) ^ 0x80000000u);
}
static __device__ void negate(int &x)
{
    x = -x;
}

/* One pass over the elements: negate those whose flip differs between the two patterns. */
template <typename T> static __global__ void vary_kernel(T *x, size_t n, uint64_t from, uint64_t to)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        if (vary_flips(i, from) != vary_flips(i, to))
            negate(x[i]);
}

template <typename T> static void vary_launch(T *x, size_t n, uint64_t from, uint64_t to)
{
    if (!n || from == to)
        return;
    size_t blocks = (n + 255) / 256;
    vary_kernel<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256>>>(x, n, from, to);
    CUDA_CHECK(cudaGetLastError());
}

void gpu_vary_floats(float *x, size_t n, uint64_t from, uint64_t to)
{
    vary_launch(x, n, from, to);
}

void gpu_vary_ints(int *x, size_t n, uint64_t from, uint64_t to)
{
    vary_launch(x, n, from, to);
}
