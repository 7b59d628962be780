/* gpu-probe.c - is there a CUDA GPU? `make labN` asks this before it builds where nvidia-smi
 * lists no GPU, so that a machine without one hears so in a second, in the words the lab
 * program would use, instead of after a build. Exit 0 with a GPU; else one line and exit 3.
 *   gpu-probe [NAME]     (NAME starts the line: lab1)
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0)
        return 0;
    fprintf(
        stderr,
        "%s: no CUDA GPU found (cudaGetDeviceCount: %s): the labs need an NVIDIA GPU of compute "
        "capability 7.5 or newer and its driver (make %s-build builds without one)\n",
        argc > 1 ? argv[1] : "gpu-probe", err != cudaSuccess ? cudaGetErrorName(err) : "0 devices",
        argc > 1 ? argv[1] : "labN");
    return 3;
}
