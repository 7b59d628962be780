/* check.h - exit codes and fatal-error helpers shared by every lab program.
 *
 * Exit codes (DESIGN.md): 0 every implemented variant verified, 1 a variant gave a
 * wrong result, 2 bad usage or input, 3 no usable GPU or a CUDA error.
 * Messages are one line on stderr, prefixed with the program's name.
 */
#ifndef MEMLAB_CHECK_H
#define MEMLAB_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

enum memlab_exit { EXIT_OK = 0, EXIT_WRONG = 1, EXIT_USAGE = 2, EXIT_GPU = 3 };

/* The name printed before every message ("lab1"); set once by the driver. */
extern const char *memlab_program;

/* Print "program: message" on stderr and exit with code. */
void memlab_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Print "program: message" on stderr. */
void memlab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

/* CUDA_CHECK(call): on failure print the call, the error's name and text, file and line,
 * then exit 3. Only usable from CUDA sources (it needs the runtime API). */
#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        cudaError_t memlab_err_ = (call);                                                          \
        if (memlab_err_ != cudaSuccess)                                                            \
            memlab_die(EXIT_GPU, "%s failed: %s (%s) at %s:%d", #call,                             \
                       cudaGetErrorName(memlab_err_), cudaGetErrorString(memlab_err_), __FILE__,   \
                       __LINE__);                                                                  \
    } while (0)

#endif
