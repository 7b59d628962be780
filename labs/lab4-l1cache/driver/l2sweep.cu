/* l2sweep.cu - lab 4's L2 sweep (see l2sweep.h). */
#include "l2sweep.h"

#include "edges.h"
#include "probes/bandwidth.h"

#define SWEEP_MAX_POINTS 128

struct l2sweep {
    struct lab *lab;
    const void *buf;
    void *sink;
    int every_sm;
    struct report rep;
};

/* One footprint timed and written as a CSV row of kind `sample`: its ns per byte (1 / GB/s);
 * 0 IMPLAUSIBLE, -1 failed. */
static double sweep_ns_per_byte(void *ctx, size_t bytes, const char *sample)
{
    struct l2sweep *s = (struct l2sweep *)ctx;
    struct sweep_point p;
    enum row_status st = lab_sweep_point(s->lab, s->buf, s->sink, bytes, s->every_sm, &p);
    report_row(&s->rep, &p.row, "%lld,%u,%u,%d,%s", p.row.param, p.blocks, p.threads, p.passes,
               sample);
    return st == ROW_OK ? p.row.ms.median * 1e6 / p.row.bytes : st == ROW_IMPLAUSIBLE ? 0 : -1;
}

/* "l2sweep shared: edge (half-way) 50496.0 KiB, -1.4% against the L2 (51200 KiB); plateau ..." */
static void print_fall(const char *mode, const struct fall *f, int found, int count, double cap,
                       const char *name)
{
    printf("l2sweep %s: ", mode);
    if (count < 2 * LEVEL_POINTS)
        printf("no edge (%d footprints timed without a gap)\n", count);
    else if (!found)
        printf("no edge (plateau %.0f GB/s, floor %.0f GB/s: a fall of less than %.0f%%)\n",
               f->plateau, f->floor, 100 * (STEP_RISE - 1));
    else {
        print_against("edge (half-way)", f->half, cap, name);
        printf("; plateau %.0f GB/s, floor %.0f GB/s\n", f->plateau, f->floor);
    }
}

void run_l2sweep(struct lab *lab, const void *buf, size_t buf_bytes, void *sink, int grid_only)
{
    static const char *const modes[2] = {"shared", "every_sm"};
    size_t l2 = lab->gpu.l2_bytes, fp[SWEEP_MAX_POINTS];
    double gbps[SWEEP_MAX_POINTS], caps[2] = {(double)l2, l2 / 2.0};
    static const char *const cap_names[2] = {"the L2", "half the L2"};
    int per = lab->opts.quick ? 4 : lab->opts.full ? 16 : 8;
    int count = footprints(l2 / 8, 4 * l2 < buf_bytes ? 4 * l2 : buf_bytes, per, SWEEP_GRANULE, fp,
                           SWEEP_MAX_POINTS);
    struct l2sweep s = {lab, buf, sink, 0, {NULL, NULL, {0}}};
    struct fall f[2];
    int found[2], done[2] = {0, 0};
    struct progress prog;
    report_open(&s.rep, lab->csv_dir, "l2sweep", &lab->info, "bytes",
                "footprint_bytes,blocks,threads,passes,sample");
    progress_start(&prog, "l2sweep", 2 * count);
    for (s.every_sm = 0; s.every_sm < 2; s.every_sm++) {
        int m = s.every_sm;
        for (int k = 0; k < count; k++) {
            double ns = sweep_ns_per_byte(&s, fp[k], "grid");
            progress_step(&prog, modes[m]);
            gbps[k] = ns > 0 ? 1 / ns : 0;
            done[m] += ns > 0 && done[m] == k; /* the points a curve has without a gap */
        }
        found[m] = find_fall(gbps, done[m], &f[m]);
        if (found[m] && !grid_only)
            refine_fall(fp, &f[m], SWEEP_GRANULE, sweep_ns_per_byte, &s);
    }
    report_close(&s.rep);
    printf("\nl2sweep: all SMs re-reading a buffer with ld.cg; an edge: where the bandwidth first "
           "falls below "
           "halfway between its plateau (the median of the first %d footprints) and its floor (of "
           "the last %d), "
           "refined to %.1f%%:\n",
           LEVEL_POINTS, LEVEL_POINTS, 100 * (REFINE_RATIO - 1));
    for (int m = 0; m < 2; m++)
        print_fall(modes[m], &f[m], found[m], done[m], caps[m], cap_names[m]);
}
