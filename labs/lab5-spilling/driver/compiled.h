/* compiled.h - lab 5: what the compiler gave each kernel of the program's kernels.cu.
 *
 * At build time labs/lab5-spilling/lab.mk compiles kernels.cu once more with
 * `nvcc --resource-usage`, and tools/resource-table.py turns ptxas's report (parsed by the
 * grader's own parse_resource_usage) into this table: per kernel and architecture, the
 * registers a thread, the stack frame (local memory a thread), static shared memory, and the
 * bytes of the spill stores and spill loads in the code. The runtime can tell registers,
 * stack and shared memory (cudaFuncGetAttributes); only the compiler knows the spills.
 * An empty table (the report could not be parsed) leaves the spill columns empty.
 */
#ifndef LAB5_COMPILED_H
#define LAB5_COMPILED_H

#ifdef __cplusplus
extern "C" {
#endif

struct compiled_kernel {
    const char *name; /* the kernel's name, demangled: fwd_o8_queue_cap24 */
    const char *arch; /* sm_90 */
    int registers, stack, smem, spill_stores, spill_loads;
};

extern const struct compiled_kernel compiled_kernels[];
extern const int compiled_kernel_count;

#ifdef __cplusplus
}
#endif

#endif
