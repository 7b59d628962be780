/* harness.cu - a lab run's life cycle (see harness.h). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct variant_head {
    const char *name;
    const char *idea;
};

static const struct variant_head *head(const struct lab_description *d, int i)
{
    return (const struct variant_head *)((const char *)d->table + (size_t)i * d->entry_size);
}

static void list_variants(const struct lab_description *d)
{
    for (int i = 0; i < d->count; i++)
        printf("%-28s %s\n", head(d, i)->name, head(d, i)->idea);
}

void lab_start(struct lab *lab, const struct lab_description *d, int argc, char **argv)
{
    static char program[16];
    snprintf(program, sizeof program, "lab%d", d->number);
    memlab_program = program;
    memset(lab, 0, sizeof *lab);
    lab->number = d->number;

    char why[256];
    switch (cli_parse(argc, argv, &lab->opts, d->extra, d->extra_count, why, sizeof why)) {
    case CLI_HELP:
        cli_usage(stdout, program, d->summary, d->extra, d->extra_count);
        exit(EXIT_OK);
    case CLI_ERROR: /* one line, the last one printed: a usage text after it scrolled it away */
        fprintf(stderr, "%s: %s (%s --help lists the options)\n", program, why, program);
        exit(EXIT_USAGE);
    case CLI_RUN:
        break;
    }
    const char *names[256];
    for (int i = 0; i < d->count && i < 256; i++)
        names[i] = head(d, i)->name;
    const char *unknown = cli_unknown_variant(&lab->opts, names, d->count);
    if (unknown) {
        fprintf(stderr, "%s: no variant named '%s' (%s --list lists them)\n", program, unknown,
                program);
        exit(EXIT_USAGE);
    }
    if (lab->opts.list) {
        list_variants(d);
        exit(EXIT_OK);
    }
    if (lab->opts.csv_dir)
        snprintf(lab->csv_dir, sizeof lab->csv_dir, "%s", lab->opts.csv_dir);
    else
        snprintf(lab->csv_dir, sizeof lab->csv_dir, "results/lab%d", d->number);

    if (lab->opts.proof)
        proof_open(lab->opts.proof);
    gpu_kernel_limit_s(); /* a bad MEMLAB_KERNEL_LIMIT_S is bad usage, found before the GPU */
    gpu_open(&lab->gpu);
    printf("%s on %s (sm_%d%d, %d SMs, L2 %.1f MiB, DRAM %.0f GB/s theoretical)\n", program,
           lab->gpu.name, lab->gpu.cc_major, lab->gpu.cc_minor, lab->gpu.sms,
           lab->gpu.l2_bytes / 1048576.0, lab->gpu.theoretical_dram_gbps);
    double ceiling = 0;
    if (!lab->opts.check) {
        size_t bytes = 8 * lab->gpu.l2_bytes;
        if (bytes < ((size_t)256 << 20))
            bytes = (size_t)256 << 20;
        if (bytes > gpu_free_bytes() / 4)
            bytes = gpu_free_bytes() / 4;
        ceiling = gpu_copy_ceiling_gbps(bytes, 20);
        printf("copy ceiling: cudaMemcpy device-to-device %.1f GB/s (%.0f%% of theoretical)\n",
               ceiling, 100.0 * ceiling / lab->gpu.theoretical_dram_gbps);
    }
    run_info_init(&lab->info, d->number, &lab->gpu, lab->opts.seed, ceiling, !lab->opts.unguarded);
    /* A graded run (--proof): no variant runs before the process is locked down. */
    if (lab->opts.proof && lab_lockdown())
        proof_locked();
    if (lab->opts.unguarded && !lab->opts.check)
        printf("timing UNGUARDED (--unguarded): inputs fixed, outputs unchecked while timed, no "
               "host clock\n");
}

struct timing_config lab_timing(const struct lab *lab, int flush_l2)
{
    struct timing_config c;
    c.warmup = 3;
    c.reps = lab->opts.reps ? lab->opts.reps : lab->opts.quick ? 10 : lab->opts.full ? 50 : 20;
    c.flush_l2 = flush_l2;
    c.guarded = !lab->opts.unguarded;
    c.gpu = &lab->gpu;
    return c;
}

static __global__ void bare_kernel(void) {}

static int launch_bare(void *ctx, cudaStream_t stream)
{
    (void)ctx;
    bare_kernel<<<1, 32, 0, stream>>>();
    return LAB_OK;
}

/* How much later than the events the host clock ends for a launch that does nothing: the
 * slack the clock check allows (twice it, and at least CLOCK_SLACK_MIN_MS). */
static double clock_slack_ms(struct lab *lab)
{
    if (lab->clock_slack_ms == 0) {
        struct timing_config cfg = lab_timing(lab, 0);
        cfg.reps = 50;
        struct timed_job bare = {"a bare launch", launch_bare, NULL, NULL, NULL, {0, 0, 0, 0}};
        struct timing t = time_job(&bare, &cfg);
        double excess = 2 * (t.host_ms - t.span_ms);
        lab->clock_slack_ms = excess > CLOCK_SLACK_MIN_MS ? excess : CLOCK_SLACK_MIN_MS;
    }
    return lab->clock_slack_ms;
}

/* A clock miss is timed again, up to CLOCK_RETRIES times: work the code hides is hidden at
 * every attempt, a host that woke late is not (on the H100, 1 of 10 graded runs of lab 4's
 * honest solution missed at a 0.3 ms point). The slack stays as calibrated (a cheat's
 * thread could inflate a new calibration). The figures are the last attempt's: a launcher
 * honest only when timed again gains nothing. */
enum row_status lab_time(struct lab *lab, const struct timed_job *job,
                         const struct timing_config *cfg, struct summary *ms)
{
    char why[512];
    struct timing t;
    int missed = 0;
    for (int attempt = 0; attempt <= CLOCK_RETRIES; attempt++) {
        if (missed)
            memlab_warn("%s: the host clock saw more than the events (%s); timed again", job->what,
                        why);
        t = time_job(job, cfg);
        if (t.mismatches) {
            proof_timed(job->what, 0);
            lab->wrong++;
            memlab_warn("%s: WRONG: %zu mismatches in the output of %d timed repetition(s), each "
                        "on inputs of "
                        "its own",
                        job->what, t.mismatches, t.checked);
            *ms = t.ms;
            return ROW_WRONG;
        }
        missed = cfg->guarded &&
                 clock_missed_work(t.span_ms, t.host_ms, clock_slack_ms(lab), why, sizeof why);
        if (!missed)
            break;
    }
    *ms = t.ms;
    struct machine_limits m = {lab->info.ceiling_copy_gbps, (double)lab->gpu.l2_bytes,
                               gpu_fp32_peak_gflops(&lab->gpu), cfg->flush_l2};
    if (missed || implausible_rate(&job->work, &m, t.ms.min, why, sizeof why)) {
        proof_timed(job->what, 0);
        lab->implausible++;
        memlab_warn("%s: IMPLAUSIBLE: %s", job->what, why);
        return ROW_IMPLAUSIBLE;
    }
    proof_timed(job->what, 1);
    return ROW_OK;
}

enum row_status lab_verdict(struct lab *lab, const char *what, size_t mismatches)
{
    proof_verified(what, !mismatches);
    if (!mismatches)
        return ROW_OK;
    lab->wrong++;
    memlab_warn("%s: WRONG (%zu mismatches)", what, mismatches);
    return ROW_WRONG;
}

int lab_next_size(struct lab *lab)
{
    if (lab->size_index + 1 >= lab->opts.size_count)
        return 0;
    lab->opts.n = lab->opts.sizes[++lab->size_index];
    fflush(stdout);
    return 1;
}

int lab_finish(const struct lab *lab)
{
    proof_end(lab->wrong || lab->implausible ? EXIT_WRONG : EXIT_OK, lab->wrong, lab->implausible);
    if (lab->wrong || lab->implausible) {
        if (lab->wrong)
            printf("\n%d variant point(s) gave wrong results: see the messages above.\n",
                   lab->wrong);
        if (lab->implausible)
            printf("\n%d point(s) IMPLAUSIBLE: their times cannot be real (see the messages above);"
                   " they have no figure.\n",
                   lab->implausible);
        return EXIT_WRONG;
    }
    printf("\nall implemented variants verified%s.\n", lab->opts.check ? "" : " and timed");
    if (!lab->opts.check)
        printf("CSV files are in %s/\n", lab->csv_dir);
    return EXIT_OK;
}
