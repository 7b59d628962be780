/* cli.h - the command line every lab program shares.
 *
 *   --help            usage, exit 0          --list        variants and their ideas
 *   --quick / --full  smaller / seed-dense sweeps          --check       verify only, no timing
 *   --only A,B        run only these variants             --seed N      input seed (default 1)
 *   --reps N          timed repetitions                   --csv DIR     where CSV files go
 *   --n N             problem size (elements; K, M, G = x1024, or 2^K); with --check a
 *                     list, --n A,B,C: each size in turn in one process (lab_next_size)
 *   --unguarded       time without the integrity guard (timing.h): to measure its cost
 *   --proof FILE      the proof-of-work records (proof.h) the grader reads
 *
 * A lab may add options of its own (struct cli_extra). Parsing never exits: it returns
 * CLI_ERROR with a one-line reason, and the caller prints the usage and exits 2.
 */
#ifndef MEMLAB_CLI_H
#define MEMLAB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_SIZES 16

struct options {
    int quick, full, check, list;
    int unguarded;    /* time without the integrity guard (never for grading) */
    const char *only; /* comma-separated variant names, or NULL for all */
    uint64_t seed;
    int reps;                    /* 0: the lab's default */
    const char *csv_dir;         /* NULL: the lab's default */
    const char *proof;           /* --proof FILE, or NULL */
    size_t n;                    /* 0: the lab's default; else the size being run */
    size_t sizes[CLI_MAX_SIZES]; /* --n's list, in order (sizes[0] == n) */
    int size_count;              /* 0 without --n */
};

/* A lab-specific option: a flag when arg is NULL (value set to 1), else an integer
 * argument checked against [min, max]. */
struct cli_extra {
    const char *name; /* without the dashes */
    const char *arg;  /* metavariable shown in the usage, or NULL for a flag */
    const char *help;
    long long *value;
    long long min, max;
};

enum cli_result { CLI_RUN, CLI_HELP, CLI_ERROR };

enum cli_result cli_parse(int argc, char **argv, struct options *o, const struct cli_extra *extra,
                          int n_extra, char *why, size_t why_len);
void cli_usage(FILE *f, const char *program, const char *summary, const struct cli_extra *extra,
               int n_extra);

/* Parse a size: digits with an optional K, M or G suffix (x1024), or 2^K. 0 on error. */
size_t cli_parse_size(const char *text);

/* Is this variant selected by --only? (Always, without --only.) */
int cli_selects(const struct options *o, const char *variant);

/* The first name in --only that is not in names[], or NULL when all are known. The
 * returned pointer is to a static buffer. */
const char *cli_unknown_variant(const struct options *o, const char *const *names, int count);

#ifdef __cplusplus
}
#endif

#endif
