/* proof.c - the proof-of-work records (see proof.h). */
#include "proof.h"

#include <stdarg.h>
#include <stdio.h>

#include "check.h"

static FILE *proof_file;
static uint64_t pending;

void proof_open(const char *path)
{
    proof_file = fopen(path, "we"); /* close-on-exec: no child inherits it */
    if (!proof_file)
        memlab_die(EXIT_USAGE, "--proof %s: cannot write that file", path);
}

void proof_fold(uint64_t count, uint64_t sum)
{
    pending = proof_term(pending, sum ^ proof_term(count, 0));
}

/* One record, on the file at once: a run that ends early keeps what it had proven. */
static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...)
{
    if (!proof_file)
        return;
    va_list args;
    va_start(args, fmt);
    vfprintf(proof_file, fmt, args);
    va_end(args);
    fflush(proof_file);
}

void proof_verified(const char *label, int passed)
{
    if (passed)
        record("verified %016llx %s\n", (unsigned long long)pending, label);
    pending = 0;
}

void proof_timed(const char *label, int accepted)
{
    if (accepted)
        record("timed %s\n", label);
    pending = 0;
}

void proof_forget(void)
{
    pending = 0;
}

void proof_locked(void)
{
    record("locked\n");
}

void proof_end(int exit_code, int wrong, int implausible)
{
    if (!proof_file)
        return;
    fprintf(proof_file, "end %d %d %d\n", exit_code, wrong, implausible);
    fclose(proof_file);
    proof_file = NULL;
}
