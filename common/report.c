/* report.c - CSV files and the terminal table (see report.h). */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"

const char *row_status_name(enum row_status s)
{
    static const char *names[] = {"ok", "WRONG", "not_implemented", "error", "IMPLAUSIBLE"};
    return names[s];
}

void run_info_init(struct run_info *info, int lab, const struct gpu_info *gpu, uint64_t seed,
                   double ceiling_gbps, int guarded)
{
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    memset(info, 0, sizeof *info);
    info->lab = lab;
    info->gpu = gpu;
    info->seed = seed;
    info->ceiling_copy_gbps = ceiling_gbps;
    info->guarded = guarded;
    info->git = memlab_git;
    info->build = memlab_build;
    strftime(info->date, sizeof info->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

static double gbps_of(const struct row *r)
{
    return r->bytes / (r->ms.median * 1e6);
}

void csv_write_header(FILE *f, const struct run_info *info, const char *extra_columns)
{
    const struct gpu_info *g = info->gpu;
    fprintf(f, "# lab: %d\n# gpu: %s\n", info->lab, g->name);
    fprintf(f, "# cc: %d.%d | sms: %d | l2_bytes: %zu | driver: %d | runtime: %d\n", g->cc_major,
            g->cc_minor, g->sms, g->l2_bytes, g->driver_version, g->runtime_version);
    fprintf(f, "# ceiling_copy_gbps: %.1f | theoretical_dram_gbps: %.1f\n", info->ceiling_copy_gbps,
            g->theoretical_dram_gbps);
    fprintf(f, "# date: %s | git: %s | seed: %llu | build: %s | timing: %s\n", info->date,
            info->git, (unsigned long long)info->seed, info->build,
            info->guarded ? "guarded" : "unguarded");
    fprintf(f,
            "lab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,"
            "pct_of_ceiling,status%s%s\n",
            extra_columns && *extra_columns ? "," : "", extra_columns ? extra_columns : "");
}

void csv_write_row(FILE *f, const struct run_info *info, const struct row *r, const char *extras)
{
    fprintf(f, "%d,%s,%lld,%zu,%.0f,%.0f,", info->lab, r->variant, r->param, r->n, r->bytes,
            r->flops);
    if (r->status == ROW_OK) {
        double gbps = gbps_of(r);
        fprintf(f, "%.6f,%.6f,%.6f,%d,%.2f,", r->ms.median, r->ms.min, r->ms.max, r->ms.count,
                gbps);
        if (r->flops > 0)
            fprintf(f, "%.2f", r->flops / (r->ms.median * 1e6));
        fprintf(f, ",%.2f,", 100.0 * gbps / info->ceiling_copy_gbps);
    } else
        fputs(",,,,,,,", f);
    fputs(row_status_name(r->status), f);
    if (extras && *extras)
        fprintf(f, ",%s", extras);
    fputc('\n', f);
}

static void make_dirs(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    mkdir(path, 0777);
}

/* The lab's own columns, comma-separated, as table cells of 12 characters. */
static void print_fields(const char *fields)
{
    for (const char *p = fields; p && *p;) {
        const char *comma = strchr(p, ',');
        int len = comma ? (int)(comma - p) : (int)strlen(p);
        printf(" %12.*s", len > 12 ? 12 : len, p);
        p = comma ? comma + 1 : NULL;
    }
}

static void print_table_head(const char *param_name, const char *extra_columns)
{
    printf("%-26s %8s %12s %10s %9s %7s", "variant", param_name, "n", "ms", "GB/s", "%ceil");
    print_fields(extra_columns);
    printf("  status\n");
}

void report_open(struct report *rep, const char *dir, const char *experiment,
                 const struct run_info *info, const char *param_name, const char *extra_columns)
{
    make_dirs(dir);
    snprintf(rep->path, sizeof rep->path, "%s/%s.csv", dir, experiment);
    rep->csv = fopen(rep->path, "w");
    if (!rep->csv)
        memlab_die(EXIT_USAGE, "cannot write %s: %s", rep->path, strerror(errno));
    rep->info = info;
    csv_write_header(rep->csv, info, extra_columns);
    printf("\n== %s (%s) ==\n", experiment, rep->path);
    print_table_head(param_name, extra_columns);
}

void report_row(struct report *rep, const struct row *r, const char *extras_fmt, ...)
{
    char extras[512] = "";
    if (extras_fmt) {
        va_list ap;
        va_start(ap, extras_fmt);
        vsnprintf(extras, sizeof extras, extras_fmt, ap);
        va_end(ap);
    }
    csv_write_row(rep->csv, rep->info, r, extras);
    fflush(rep->csv);

    printf("%-26s %8lld %12zu", r->variant, r->param, r->n);
    if (r->status == ROW_OK) {
        double gbps = gbps_of(r);
        printf(" %10.4f %9.1f %6.1f%%", r->ms.median, gbps,
               100.0 * gbps / rep->info->ceiling_copy_gbps);
    } else
        printf(" %10s %9s %7s", "-", "-", "-");
    print_fields(extras);
    printf("  %s\n", row_status_name(r->status));
    fflush(stdout);
}

void report_close(struct report *rep)
{
    if (rep->csv && fclose(rep->csv) != 0)
        memlab_die(EXIT_USAGE, "cannot write %s: %s", rep->path, strerror(errno));
    rep->csv = NULL;
}
