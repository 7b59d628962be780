/* profile_test.cu - common/probes/profile.cu's --counters join, without a GPU. Run from the kit's
 * root: the test profiles itself through tools/ncu-counters.sh with tests/fake-ncu as ncu,
 * which replays the details-page rows written below. They hold a kernel before the first
 * mark (no point), marks of points 0, 2 and 5, a metric ncu left empty, and a point beyond
 * the three the test asks for. Prints "unit profile <case>: OK" or "...: FAIL (why)".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/profile.h"

#define POINTS 3

struct point_seen {
    int kernels;
    double a, b; /* summed over the point's kernels */
    int b_missing;
};

static int keep(void *ctx, int point, const double *v)
{
    struct point_seen *p = (struct point_seen *)ctx + point;
    p->kernels++;
    p->a += v[0];
    if (isnan(v[1]))
        p->b_missing++;
    else
        p->b += v[1];
    return 1;
}

/* One launch's rows as ncu's details page has them: one per metric, empty b where b < 0. */
static void launch(FILE *f, int id, const char *kernel, int grid, double a, double b)
{
    const char *head =
        "\"%d\",\"9\",\"profile_test\",\"h\",\"%s\",\"1\",\"7\",\"(32, 1, 1)\",\"(%d, 1, 1)\","
        "\"0\",\"9.0\",\"Command line profiler metrics\",";
    fprintf(f, head, id, kernel, grid);
    fprintf(f, "\"m_a\",\"\",\"%g\"\n", a);
    fprintf(f, head, id, kernel, grid);
    if (b < 0)
        fprintf(f, "\"m_b\",\"\",\"\"\n");
    else
        fprintf(f, "\"m_b\",\"\",\"%g\"\n", b);
}

static int failed;

static void expect(const char *name, int ok, const char *why)
{
    printf("unit profile %s: %s%s%s\n", name, ok ? "OK" : "FAIL (", ok ? "" : why, ok ? "" : ")");
    failed += !ok;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--profile-once"))
        return 0; /* the profiled run: the stand-in ncu replays its launches */
    char rows[] = "/tmp/memlab-profile-test-XXXXXX";
    int fd = mkstemp(rows);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return 1;
    launch(f, 1, "void before_any_mark(float *)", 8, 100, 100);
    launch(f, 2, "memlab_profile_marker()", 1, 0, 0);
    launch(f, 3, "void copy(float *)", 8, 1.5, 2);
    launch(f, 4, "memlab_profile_marker()", 3, 0, 0);
    launch(f, 5, "void copy(float *)", 8, 10, 20);
    launch(f, 6, "void copy(float *)", 8, 30, -1);
    launch(f, 7, "memlab_profile_marker()", 6, 0, 0);
    launch(f, 8, "void copy(float *)", 8, 1000, 1000);
    fclose(f);
    setenv("NCU", "tests/fake-ncu", 1);
    setenv("FAKE_NCU_OUTPUT", rows, 1);

    static const char *const metrics[] = {"m_a", "m_b"};
    struct point_seen seen[POINTS] = {};
    int joined = profile_self(metrics, 2, POINTS, "--profile-once", keep, seen, "nothing joined");
    remove(rows);
    expect("joins the kernels after a mark to its point, no others", joined == 3,
           "not 3 kernels joined");
    expect("point 0: its one kernel's metrics",
           seen[0].kernels == 1 && seen[0].a == 1.5 && seen[0].b == 2, "not 1.5 and 2");
    expect("point 1: no mark, no kernel", seen[1].kernels == 0, "a kernel joined");
    expect("point 2: two kernels, the empty metric NAN",
           seen[2].kernels == 2 && seen[2].a == 40 && seen[2].b == 20 && seen[2].b_missing == 1,
           "not 40, 20 and one NAN");
    return failed != 0;
}
