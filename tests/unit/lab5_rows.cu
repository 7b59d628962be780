/* lab5_rows.cu - CPU tests of what lab 5's check reads (wave_check.h, through grid3d.h): the
 * rows wave_reference picks on the awkward grids and on the cubes of --n (every row up to
 * 161^3, sampled rows from 162^3: the lists below are those lab 5 checked before it used
 * grid3d), and input_changed on lab 5's three inputs (a timed pattern counted from each
 * input's own word, a changed word named by its input).
 * One line per test, "unit lab5 ...: OK" or ": FAIL why"; exit 1 on a failure.
 * Built by make ($(OUT)/tests/lab5_rows) and run by tests/lab5.sh (host code only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "wave_check.h"

static int failures;

static void expect(const char *name, int ok, const char *why)
{
    printf("unit lab5 %s: %s%s\n", name, ok ? "OK" : "FAIL ", ok ? "" : why);
    failures += !ok;
}

/* Inputs for grids of up to `points` points, all zero (calloc: untouched pages cost nothing),
 * laid out as wave_data_init lays them; no device memory. */
static struct wave_data host_data(size_t points)
{
    struct wave_data d;
    memset(&d, 0, sizeof d);
    d.capacity = (points + 63) / 64 * 64;
    struct wave_stencil stencil = {{R, {LAB5_C0, LAB5_C1, LAB5_C2, LAB5_C3, LAB5_C4}}, d.capacity};
    d.stencil = stencil;
    d.host_in = (float *)calloc(3 * d.capacity, sizeof(float));
    if (!d.host_in) {
        perror("lab5_rows: calloc");
        exit(1);
    }
    return d;
}

/* Every (y, z) row of g, y fastest. */
static void expect_all_rows(struct grid g)
{
    struct wave_data d = host_data(grid_points(g));
    struct reference ref;
    wave_reference(&ref, &d, g);
    int ok = ref.rows.count == g.ny * g.nz;
    for (int k = 0; ok && k < ref.rows.count; k++)
        ok = ref.rows.y[k] == k % g.ny && ref.rows.z[k] == k / g.ny;
    char name[96], why[96];
    snprintf(name, sizeof name, "checks every row of %dx%dx%d", g.nx, g.ny, g.nz);
    snprintf(why, sizeof why, "%d rows, not the %d rows in order", ref.rows.count, g.ny * g.nz);
    expect(name, ok, why);
    reference_free(&ref);
    free(d.host_in);
}

/* The 12 x 12 sampled rows of an edge^3 cube: every y of `ys` in each z of `zs`. */
static void expect_sampled(int edge, const int ys[12], const int zs[12])
{
    struct grid g = {edge, edge, edge};
    struct wave_data d = host_data(grid_points(g));
    struct reference ref;
    wave_reference(&ref, &d, g);
    int ok = ref.rows.count == 144;
    for (int k = 0; ok && k < ref.rows.count; k++)
        ok = ref.rows.y[k] == ys[k % 12] && ref.rows.z[k] == zs[k / 12];
    char name[96], why[96];
    snprintf(name, sizeof name, "checks the sampled rows of %d^3 it always did", edge);
    snprintf(why, sizeof why, "%d rows, or another row among them", ref.rows.count);
    expect(name, ok, why);
    reference_free(&ref);
    free(d.host_in);
}

/* input_changed over prev's rows of an awkward grid, with timed pattern `key`. */
static void expect_prev_check(void)
{
    struct grid g = {11, 12, 13};
    struct wave_data d = host_data(grid_points(g));
    for (size_t i = 0; i < 3 * d.capacity; i++) /* cur, prev and vsq hold the same values */
        d.host_in[i] = 0.5f + (float)(i % d.capacity % 97) / 97.0f;
    struct reference ref;
    wave_reference(&ref, &d, g);
    uint64_t key = 0x9e3779b97f4a7c15ull;
    reference_values(&ref, d.host_in, key);
    ptrdiff_t prev = (ptrdiff_t)d.capacity;
    size_t n = grid_points(g);
    float *got = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) /* prev as the timed repetition left it on the device */
        got[i] = vary_float(d.host_in[prev + i], prev + i, key);
    char text[512];
    struct captured log = capture_stderr();
    size_t same = input_changed("v", "prev", &ref, got, d.host_in, prev);
    size_t from_zero = input_changed("v", "prev", &ref, got, d.host_in, 0);
    got[5 * g.nx + 3] = -got[5 * g.nx + 3];
    size_t one = input_changed("v", "prev", &ref, got, d.host_in, prev);
    captured_text(&log, text, sizeof text);
    char why[640];
    snprintf(why, sizeof why,
             "rows changed: %zu unchanged, %zu counted from word 0, %zu with one "
             "word flipped; stderr: %s",
             same, from_zero, one, text);
    expect("input_changed counts prev's pattern from prev's words and names prev",
           same == 0 && from_zero > 0 && one == 1 &&
               strstr(text, "v modified its input prev (1 rows changed)"),
           why);
    free(got);
    reference_free(&ref);
    free(d.host_in);
}

int main(void)
{
    static const int awkward[][3] = {{1, 1, 1},    {9, 9, 9},     {11, 12, 13},
                                     {67, 45, 29}, {37, 29, 151}, {131, 19, 47}};
    for (int a = 0; a < 6; a++) {
        struct grid g = {awkward[a][0], awkward[a][1], awkward[a][2]};
        expect_all_rows(g);
    }
    struct grid largest_all = {161, 161, 161};
    expect_all_rows(largest_all);
    static const int y162[12] = {0, 3, 4, 5, 19, 20, 81, 142, 156, 157, 158, 161};
    static const int z162[12] = {0, 3, 4, 5, 67, 68, 81, 94, 156, 157, 158, 161};
    static const int y256[12] = {0, 3, 4, 5, 19, 20, 128, 236, 250, 251, 252, 255};
    static const int z256[12] = {0, 3, 4, 5, 67, 68, 128, 188, 250, 251, 252, 255};
    static const int y384[12] = {0, 3, 4, 5, 19, 20, 192, 364, 378, 379, 380, 383};
    static const int z384[12] = {0, 3, 4, 5, 67, 68, 192, 316, 378, 379, 380, 383};
    static const int y512[12] = {0, 3, 4, 5, 19, 20, 256, 492, 506, 507, 508, 511};
    static const int z512[12] = {0, 3, 4, 5, 67, 68, 256, 444, 506, 507, 508, 511};
    expect_sampled(162, y162, z162);
    expect_sampled(256, y256, z256);
    expect_sampled(384, y384, z384);
    expect_sampled(512, y512, z512);
    expect_prev_check();
    return failures != 0;
}
