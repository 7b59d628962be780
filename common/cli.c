/* cli.c - command-line parsing for lab programs (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int parse_integer(const char *text, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

size_t cli_parse_size(const char *text)
{
    if (!text || !*text)
        return 0;
    if (strncmp(text, "2^", 2) == 0) {
        long long k;
        if (!parse_integer(text + 2, 0, 40, &k))
            return 0;
        return (size_t)1 << k;
    }
    char *end;
    errno = 0;
    if (text[0] < '0' || text[0] > '9')
        return 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text)
        return 0;
    unsigned long long scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = 1ull << 10, end++;
    else if (*end == 'M' || *end == 'm')
        scale = 1ull << 20, end++;
    else if (*end == 'G' || *end == 'g')
        scale = 1ull << 30, end++;
    if (*end != '\0' || v > (1ull << 40) / scale)
        return 0;
    return (size_t)(v * scale);
}

static const struct cli_extra *find_extra(const char *name, const struct cli_extra *extra, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(extra[i].name, name) == 0)
            return &extra[i];
    return NULL;
}

/* --n's value: sizes separated by commas, each as cli_parse_size reads it. 0 on error. */
static int parse_sizes(const char *text, struct options *o)
{
    char buffer[512];
    if (strlen(text) >= sizeof buffer)
        return 0;
    strcpy(buffer, text);
    o->size_count = 0;
    for (char *start = buffer;;) {
        char *comma = strchr(start, ',');
        if (comma)
            *comma = '\0';
        size_t n = cli_parse_size(start);
        if (!n || o->size_count == CLI_MAX_SIZES)
            return 0;
        o->sizes[o->size_count++] = n;
        if (!comma)
            break;
        start = comma + 1;
    }
    o->n = o->sizes[0];
    return 1;
}

#define FAIL(...) (snprintf(why, why_len, __VA_ARGS__), CLI_ERROR)

enum cli_result cli_parse(int argc, char **argv, struct options *o, const struct cli_extra *extra,
                          int n_extra, char *why, size_t why_len)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            return FAIL("unexpected argument '%s'", a);
        const char *name = a + 2;
        const char *value = NULL;
        int takes_value = !strcmp(name, "only") || !strcmp(name, "seed") || !strcmp(name, "reps") ||
                          !strcmp(name, "csv") || !strcmp(name, "n") || !strcmp(name, "proof");
        const struct cli_extra *x = find_extra(name, extra, n_extra);
        if (x && x->arg)
            takes_value = 1;
        if (takes_value) {
            if (i + 1 >= argc)
                return FAIL("option %s needs a value", a);
            value = argv[++i];
        }
        long long v;
        if (!strcmp(name, "help"))
            return CLI_HELP;
        else if (!strcmp(name, "quick"))
            o->quick = 1;
        else if (!strcmp(name, "full"))
            o->full = 1;
        else if (!strcmp(name, "check"))
            o->check = 1;
        else if (!strcmp(name, "list"))
            o->list = 1;
        else if (!strcmp(name, "unguarded"))
            o->unguarded = 1;
        else if (!strcmp(name, "only")) {
            if (!*value || value[0] == ',' || strstr(value, ",,"))
                return FAIL("--only needs variant names separated by commas, got '%s'", value);
            o->only = value;
        } else if (!strcmp(name, "seed")) {
            if (!parse_integer(value, 0, LLONG_MAX, &v))
                return FAIL("--seed needs a non-negative integer, got '%s'", value);
            o->seed = (uint64_t)v;
        } else if (!strcmp(name, "reps")) {
            if (!parse_integer(value, 1, 100000, &v))
                return FAIL("--reps needs an integer from 1 to 100000, got '%s'", value);
            o->reps = (int)v;
        } else if (!strcmp(name, "csv")) {
            if (!*value)
                return FAIL("--csv needs a folder");
            o->csv_dir = value;
        } else if (!strcmp(name, "proof")) {
            if (!*value)
                return FAIL("--proof needs a file");
            o->proof = value;
        } else if (!strcmp(name, "n")) {
            if (!parse_sizes(value, o))
                return FAIL(
                    "--n needs a positive size (e.g. 1000003, 64M, 2^28) or, with --check, up to "
                    "%d of them separated by commas, got '%s'",
                    CLI_MAX_SIZES, value);
        } else if (x) {
            if (!x->arg)
                *x->value = 1;
            else if (!parse_integer(value, x->min, x->max, x->value))
                return FAIL("--%s needs an integer from %lld to %lld, got '%s'", x->name, x->min,
                            x->max, value);
        } else
            return FAIL("unknown option '%s'", a);
    }
    if (o->quick && o->full)
        return FAIL("--quick and --full exclude each other");
    if (o->size_count > 1 && !o->check)
        return FAIL("--n with %d sizes needs --check (a timed run has one size)", o->size_count);
    return CLI_RUN;
}

void cli_usage(FILE *f, const char *program, const char *summary, const struct cli_extra *extra,
               int n_extra)
{
    fprintf(f, "usage: %s [options]\n%s\n\noptions:\n", program, summary);
    fprintf(f, "  --help          this text\n"
               "  --list          list the variants and their ideas\n"
               "  --quick         a short sweep (smaller arrays, fewer points)\n"
               "  --full          the dense sweep of the source document\n"
               "  --check         verify every variant at awkward sizes, time nothing\n"
               "  --only A,B      run only the named variants\n"
               "  --seed N        seed of the random inputs (default 1)\n"
               "  --reps N        timed repetitions per point (1..100000)\n"
               "  --csv DIR       folder for the CSV files (default results/<lab>)\n"
               "  --n N           problem size in elements: 1000003, 64M, 2^28\n"
               "                  (with --check, several: --n 7,4099,1000003)\n"
               "  --unguarded     time without the integrity checks (to measure their cost)\n"
               "  --proof FILE    write the proof-of-work records the grader reads\n");
    for (int i = 0; i < n_extra; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", extra[i].name, extra[i].arg ? " " : "",
                 extra[i].arg ? extra[i].arg : "");
        fprintf(f, "  %-15s %s\n", left, extra[i].help);
    }
    fprintf(f, "\nexit codes: 0 all implemented variants verified, 1 a variant was wrong,\n"
               "            2 bad usage or input, 3 no usable GPU or a CUDA error\n");
}

static int only_lists(const char *only, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = only; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t item = comma ? (size_t)(comma - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return 1;
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

int cli_selects(const struct options *o, const char *variant)
{
    return !o->only || only_lists(o->only, variant);
}

const char *cli_unknown_variant(const struct options *o, const char *const *names, int count)
{
    static char unknown[128];
    for (const char *p = o->only; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t item = comma ? (size_t)(comma - p) : strlen(p);
        int known = 0;
        for (int i = 0; i < count && !known; i++)
            known = strlen(names[i]) == item && strncmp(p, names[i], item) == 0;
        if (!known) {
            snprintf(unknown, sizeof unknown, "%.*s", (int)item, p);
            return unknown;
        }
        p = comma ? comma + 1 : NULL;
    }
    return NULL;
}
