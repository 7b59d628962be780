/* proof.c - the proof-of-work records (see proof.h). */
#include "proof.h"

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

/* Each record reaches the file at once: a run that ends early keeps what it had proven. */
static void record(const char *fmt, const char *label, uint64_t digest)
{
    if (!proof_file)
        return;
    fprintf(proof_file, fmt, digest, label);
    fflush(proof_file);
}

void proof_verified(const char *label, int passed)
{
    if (passed)
        record("verified %016llx %s\n", label, (unsigned long long)pending);
    pending = 0;
}

void proof_timed(const char *label, int accepted)
{
    if (accepted && proof_file) {
        fprintf(proof_file, "timed %s\n", label);
        fflush(proof_file);
    }
    pending = 0;
}

void proof_forget(void)
{
    pending = 0;
}

void proof_locked(void)
{
    if (proof_file) {
        fputs("locked\n", proof_file);
        fflush(proof_file);
    }
}

void proof_end(int exit_code, int wrong, int implausible)
{
    if (!proof_file)
        return;
    fprintf(proof_file, "end %d %d %d\n", exit_code, wrong, implausible);
    fclose(proof_file);
    proof_file = NULL;
}
