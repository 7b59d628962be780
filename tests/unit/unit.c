/* unit.c - unit tests of the harness's host code and lab models; no GPU needed.
 * Prints "unit <name>: OK" or "unit <name>: FAIL (...)" per case; exit 1 if any failed. */
#define _GNU_SOURCE /* fmemopen, mkdtemp, MAP_ANONYMOUS */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plausible.h"
#include "lockdown.h"
#include "proof.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "vary.h"
#include "verify.h"
#include "../../labs/lab1-coalescing/driver/sector_model.h"
#include "capture.h"

const char memlab_git[] = "abc1234";
const char memlab_build[] = "-O3 -arch=sm_90";

static int failures;
static const char *current;
static int current_failed;

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (!current_failed)                                                                   \
                printf("unit %s: FAIL (%s, line %d)\n", current, #cond, __LINE__);                 \
            current_failed = 1;                                                                    \
        }                                                                                          \
    } while (0)

static void run(const char *name, void (*test)(void))
{
    current = name;
    current_failed = 0;
    test();
    if (current_failed)
        failures++;
    else
        printf("unit %s: OK\n", name);
}

/* ---- stats ---- */
static void stats_odd_count(void)
{
    double s[] = {5, 1, 3, 9, 2};
    struct summary r = summarize(s, 5);
    EXPECT(r.median == 3 && r.min == 1 && r.max == 9 && r.count == 5);
    EXPECT(s[0] == 5 && s[4] == 2); /* input untouched */
}
static void stats_even_count(void)
{
    double s[] = {4, 1, 3, 2};
    struct summary r = summarize(s, 4);
    EXPECT(r.median == 2.5 && r.min == 1 && r.max == 4);
}
static void stats_single_and_empty(void)
{
    double s[] = {7};
    struct summary r = summarize(s, 1);
    EXPECT(r.median == 7 && r.min == 7 && r.max == 7);
    r = summarize(s, 0);
    EXPECT(isnan(r.median) && r.count == 0);
}

/* ---- tolerance ---- */
static void tolerance_basic(void)
{
    struct tolerance t = {1e-6, 1e-3};
    EXPECT(values_close(1.0, 1.0, t));
    EXPECT(values_close(1.0005, 1.0, t));
    EXPECT(!values_close(1.002, 1.0, t));
    EXPECT(values_close(1000.5, 1000.0, t)); /* rtol scales with the reference */
    EXPECT(!values_close(1e-5, 0.0, t));     /* atol alone near zero */
}
static void tolerance_nan_never_passes(void)
{
    struct tolerance wide = {1e30, 1e30};
    EXPECT(!values_close(NAN, 1.0, wide));
    EXPECT(!values_close(1.0, NAN, wide));
    EXPECT(!values_close(NAN, NAN, wide));
}
static void tolerance_infinities(void)
{
    struct tolerance wide = {1e30, 1e30};
    EXPECT(values_close(INFINITY, INFINITY, wide));
    EXPECT(!values_close(-INFINITY, INFINITY, wide));
    EXPECT(!values_close(INFINITY, 1.0, wide));
    EXPECT(!values_close(1.0, INFINITY, wide));
}
static void tolerance_scales_with_length(void)
{
    struct tolerance a = tolerance_for_sum(100, 1.0), b = tolerance_for_sum(1000000, 1.0);
    EXPECT(b.rtol > a.rtol && b.atol > a.atol);
    EXPECT(a.rtol > 0 && b.rtol < 1e-2);
}
static void verify_counts_mismatches(void)
{
    float got[4] = {1, 2, NAN, 4.5f};
    double ref[4] = {1, 2, 3, 4};
    struct tolerance t = {0, 1e-6};
    EXPECT(verify_floats("unit", got, ref, 4, t) == 2);
    uint32_t w[3] = {1, 2, 3}, e[3] = {1, 0, 3};
    EXPECT(verify_words("unit", w, e, 3) == 1);
    EXPECT(verify_words("unit", w, w, 3) == 0);
}

/* Mismatches far apart in a long array (the count runs on every core): the report names the
 * first VERIFY_REPORT_CAP in index order, then the total. */
static void verify_reports_first_in_order(void)
{
    enum { N = 1 << 20 };
    static uint32_t w[N], e[N];
    static const size_t wrong[] = {N - 1, 600000, 7, 3, 123456, 3000, 42};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        w[wrong[i]] = 1;
    char text[1024];
    struct captured c = capture_stderr();
    size_t bad = verify_words("unit", w, e, N);
    captured_text(&c, text, sizeof text);
    EXPECT(bad == 7);
    static const char *const lines[] = {"index 3: expected 0x00000000, got 0x00000001",
                                        "index 7:",
                                        "index 42:",
                                        "index 3000:",
                                        "index 123456:",
                                        "... 7 of 1048576 values wrong in all"};
    const char *at = text;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        at = at ? strstr(at, lines[i]) : NULL;
        EXPECT(at != NULL);
    }
    int count = 0;
    for (const char *c = text; *c; c++)
        count += *c == '\n';
    EXPECT(count == 6);
}

/* ---- command line ---- */
static enum cli_result parse(struct options *o, const char *line)
{
    static char buf[256]; /* --only and --csv point into it after parse returns */
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "prog %s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
        argv[argc++] = t;
    char why[256];
    return cli_parse(argc, argv, o, NULL, 0, why, sizeof why);
}
static void cli_defaults_and_values(void)
{
    struct options o;
    EXPECT(parse(&o, "") == CLI_RUN && o.seed == 1 && o.reps == 0 && !o.only && !o.n);
    EXPECT(parse(&o, "--seed 42 --reps 7 --csv out --n 2^20 --only a,b --quick") == CLI_RUN);
    EXPECT(o.seed == 42 && o.reps == 7 && !strcmp(o.csv_dir, "out") && o.n == 1u << 20 && o.quick);
    EXPECT(cli_selects(&o, "a") && cli_selects(&o, "b") && !cli_selects(&o, "ab"));
    EXPECT(parse(&o, "--help") == CLI_HELP);
}
static void cli_bad_values(void)
{
    struct options o;
    const char *bad[] = {"--reps 0",
                         "--reps -3",
                         "--reps abc",
                         "--reps 1x",
                         "--seed -1",
                         "--seed",
                         "--n 0",
                         "--n 12Q",
                         "--n -5",
                         "--only ,a",
                         "--only a,,b",
                         "--bogus",
                         "stray",
                         "--quick --full",
                         "--n 2^99",
                         "--n 7,4099",
                         "--check --n 7,,9",
                         "--check --n 7,",
                         "--check --n ,7",
                         "--check --n 7,0",
                         "--check --n 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rejected = parse(&o, bad[i]) == CLI_ERROR;
        if (!rejected)
            printf("  not rejected: %s\n", bad[i]);
        EXPECT(rejected);
    }
}
static void cli_sizes(void)
{
    EXPECT(cli_parse_size("1000003") == 1000003);
    EXPECT(cli_parse_size("64M") == (size_t)64 << 20);
    EXPECT(cli_parse_size("3K") == 3072);
    EXPECT(cli_parse_size("2^28") == (size_t)1 << 28);
    EXPECT(cli_parse_size("") == 0 && cli_parse_size("M") == 0 && cli_parse_size("5MB") == 0);
}
static void cli_size_lists(void)
{
    struct options o;
    EXPECT(parse(&o, "--n 4099") == CLI_RUN && o.n == 4099 && o.size_count == 1);
    EXPECT(parse(&o, "--check --n 7,4K,2^20") == CLI_RUN && o.size_count == 3 && o.n == 7);
    EXPECT(o.sizes[0] == 7 && o.sizes[1] == 4096 && o.sizes[2] == (size_t)1 << 20);
    EXPECT(parse(&o, "--check") == CLI_RUN && o.size_count == 0 && o.n == 0);
}
static void cli_extra_options(void)
{
    long long flag = 0, level = 5;
    struct cli_extra x[] = {{"ncu", NULL, "profile", &flag, 0, 1},
                            {"level", "L", "level", &level, 1, 9}};
    char *ok[] = {"prog", "--ncu", "--level", "3"};
    char *bad[] = {"prog", "--level", "10"};
    struct options o;
    char why[128];
    EXPECT(cli_parse(4, ok, &o, x, 2, why, sizeof why) == CLI_RUN && flag == 1 && level == 3);
    EXPECT(cli_parse(3, bad, &o, x, 2, why, sizeof why) == CLI_ERROR);
}
static void cli_unknown_variants(void)
{
    struct options o;
    const char *names[] = {"copy_a", "copy_b"};
    parse(&o, "--only copy_a,copy_c");
    const char *u = cli_unknown_variant(&o, names, 2);
    EXPECT(u && !strcmp(u, "copy_c"));
    parse(&o, "--only copy_b");
    EXPECT(cli_unknown_variant(&o, names, 2) == NULL);
}

/* ---- CSV ---- */
static void csv_header_and_rows(void)
{
    struct gpu_info g;
    memset(&g, 0, sizeof g);
    strcpy(g.name, "Test GPU");
    g.cc_major = 9;
    g.sms = 132;
    g.l2_bytes = 52428800;
    g.theoretical_dram_gbps = 3352.3;
    g.driver_version = g.runtime_version = 13000;
    struct run_info info;
    run_info_init(&info, 6, &g, 7, 2993.7, 1);
    char buf[2048] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    csv_write_header(f, &info, "extra_a,extra_b");
    struct row ok = {"v1", 4, 100, 800, 0, {0.5, 0.4, 0.6, 20}, ROW_OK};
    struct row ni = {"v2", 4, 100, 800, 0, {0, 0, 0, 0}, ROW_NOT_IMPLEMENTED};
    csv_write_row(f, &info, &ok, "1,2");
    csv_write_row(f, &info, &ni, ",");
    fclose(f);
    EXPECT(strstr(buf, "# lab: 6\n# gpu: Test GPU\n"));
    EXPECT(strstr(buf,
                  "# cc: 9.0 | sms: 132 | l2_bytes: 52428800 | driver: 13000 | runtime: 13000\n"));
    EXPECT(strstr(buf, "# ceiling_copy_gbps: 2993.7 | theoretical_dram_gbps: 3352.3\n"));
    EXPECT(strstr(buf, "| git: abc1234 | seed: 7 | build: -O3 -arch=sm_90 | timing: guarded\n"));
    EXPECT(strstr(buf, "\nlab,variant,param,n,bytes,flops,ms_median,ms_min,ms_max,reps,gbps,gflops,"
                       "pct_of_ceiling,status,extra_a,extra_b\n"));
    /* 800 bytes in 0.5 ms = 0.0016 GB/s */
    EXPECT(strstr(buf, "\n6,v1,4,100,800,0,0.500000,0.400000,0.600000,20,0.00,,0.00,ok,1,2\n"));
    EXPECT(strstr(buf, "\n6,v2,4,100,800,0,,,,,,,,not_implemented,,\n"));
    /* every data line has as many fields as the header */
    int lines = 0;
    for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
        if (l[0] == '#')
            continue;
        int commas = 0;
        for (char *c = l; *c; c++)
            commas += *c == ',';
        EXPECT(commas == 15);
        lines++;
    }
    EXPECT(lines == 3);
}

static void report_table_and_file(void)
{
    struct gpu_info g;
    memset(&g, 0, sizeof g);
    strcpy(g.name, "Test GPU");
    struct run_info info;
    run_info_init(&info, 1, &g, 1, 1000.0, 1);
    char dir[] = "/tmp/memlab-unit-XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char sub[64];
    snprintf(sub, sizeof sub, "%s/a/b", dir); /* nested folders are created */
    struct report rep;
    report_open(&rep, sub, "exp", &info, "stride", "x,y,z");
    struct row ok = {"v1", 1, 8, 64, 0, {0.001, 0.001, 0.002, 3}, ROW_OK};
    struct row wrong = {"v1", 2, 8, 64, 0, {0, 0, 0, 0}, ROW_WRONG};
    report_row(&rep, &ok, "%d,%d,%d", 1, 2, 3); /* the last field ends the string */
    report_row(&rep, &wrong, "%d,,", 4);
    report_close(&rep);
    char path[128], line[512];
    snprintf(path, sizeof path, "%s/exp.csv", sub);
    FILE *f = fopen(path, "r");
    EXPECT(f != NULL);
    int rows = 0;
    while (f && fgets(line, sizeof line, f))
        rows += line[0] != '#';
    if (f)
        fclose(f);
    EXPECT(rows == 3);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    EXPECT(system(cmd) == 0);
}

/* ---- random inputs ---- */
static void rng_reproducible_and_varied(void)
{
    struct rng a = rng_seeded(5), b = rng_seeded(5), c = rng_seeded(6);
    float x[64], y[64], z[64];
    rng_fill_floats(&a, x, 64, -1, 1);
    rng_fill_floats(&b, y, 64, -1, 1);
    rng_fill_floats(&c, z, 64, -1, 1);
    EXPECT(!memcmp(x, y, sizeof x) && memcmp(x, z, sizeof x));
    int distinct = 0;
    for (int i = 1; i < 64; i++)
        distinct += x[i] != x[0];
    EXPECT(distinct > 60);
    for (int i = 0; i < 64; i++)
        EXPECT(x[i] >= -1 && x[i] < 1 && x[i] != 0);
    int v[1000];
    rng_fill_ints(&a, v, 1000, -3, 3);
    int seen_lo = 0, seen_hi = 0;
    for (int i = 0; i < 1000; i++) {
        EXPECT(v[i] >= -3 && v[i] <= 3);
        seen_lo |= v[i] == -3;
        seen_hi |= v[i] == 3;
    }
    EXPECT(seen_lo && seen_hi);

    /* A fill on every core (above the parallel threshold) draws what one call after another
     * would, and leaves the generator where they would: --seed reproduces the references. */
    enum { BIG = 100003 };
    static float fast[BIG];
    static int fast_ints[BIG];
    struct rng d = rng_seeded(7), e = rng_seeded(7);
    rng_fill_floats(&d, fast, BIG, -1, 1);
    int same = 1;
    for (int i = 0; i < BIG; i++)
        same &= fast[i] == (float)rng_uniform(&e, -1, 1);
    rng_fill_ints(&d, fast_ints, BIG, 1, 7);
    for (int i = 0; i < BIG; i++)
        same &= fast_ints[i] == 1 + (int)(rng_next(&e) % 7);
    static uint32_t words[BIG];
    rng_fill_below(&d, words, BIG, 1000003);
    for (int i = 0; i < BIG; i++)
        same &=
            words[i] == (uint32_t)(((rng_next(&e) >> 32) * 1000003) >> 32) && words[i] < 1000003;
    EXPECT(same && rng_next(&d) == rng_next(&e));
    EXPECT(rng_ahead(&d, 2) == (rng_next(&e), rng_next(&e), rng_next(&e)));
}

/* ---- lab 1's sector model ---- */
static void sector_model_lab1(void)
{
    EXPECT(warp_sectors(0, 32, 4, 4) == 4);    /* 128 contiguous aligned bytes */
    EXPECT(warp_sectors(4, 32, 4, 4) == 5);    /* misaligned by one float */
    EXPECT(warp_sectors(0, 32, 8, 4) == 8);    /* stride 2 */
    EXPECT(warp_sectors(0, 32, 32, 4) == 32);  /* stride 8: a sector per thread */
    EXPECT(warp_sectors(0, 32, 512, 4) == 32); /* stride 128 */
    EXPECT(warp_sectors(0, 32, 16, 16) == 16); /* float4: 512 bytes */
    EXPECT(warp_sectors(0, 0, 4, 4) == 0);
    /* a full stride-1 copy moves exactly its bytes; stride >= 8 moves 32 per 4 used */
    EXPECT(copy_sector_bytes(0, 1024, 1, 4) == 2.0 * 4096);
    EXPECT(copy_sector_bytes(0, 128, 8, 4) == 2.0 * 32 * 128);
    EXPECT(copy_sector_bytes(0, 128, 64, 4) == 2.0 * 32 * 128);
    /* a partial last warp: 33 threads at stride 1 = 4 sectors + 1 sector */
    EXPECT(copy_sector_bytes(0, 33, 1, 4) == 2.0 * 32 * 5);
}

static void dram_model_lab1(void)
{
    const double n = 1024; /* floats in the array; a copy of all of it moves 8n bytes */
    EXPECT(copy_dram_bytes(0, 1024, 1, 4) == 8 * n); /* read, write, nothing partial */
    EXPECT(copy_dram_bytes(0, 512, 2, 4) == 12 * n); /* stride 2: every sector filled first */
    EXPECT(copy_dram_bytes(0, 128, 8, 4) == 12 * n); /* stride 8: still every 64-byte pair */
    EXPECT(copy_dram_bytes(0, 64, 16, 4) == 8 * n);  /* stride 16: pairs still all read */
    EXPECT(copy_dram_bytes(0, 32, 32, 4) == 4 * n);  /* stride 32: a pair + a fill per float */
    EXPECT(copy_dram_bytes(0, 256, 1, 16) == 8 * n); /* float4 */
    /* misaligned by one float: one more pair, one more sector, two partial ends */
    EXPECT(copy_dram_bytes(1, 1024, 1, 4) == 8 * n + 64 + 32 + 2 * 32);
    EXPECT(copy_dram_bytes(3, 1, 1, 4) == 64 + 32 + 32); /* one float: a pair, a fill, a write */
    EXPECT(copy_dram_bytes(0, 0, 1, 4) == 0);
}

/* ---- timing integrity: input variation, the physical floor, the clock check ---- */
static void vary_patterns(void)
{
    uint64_t keys[] = {0x123456789abcdefull, 2, 1ull << 63, ~0ull, 0x5555};
    for (int k = 0; k < 5; k++) {
        int flipped = 0, run = 0, longest = 0, prev = -1;
        for (uint64_t i = 0; i < 100000; i++) {
            int f = vary_flips(i, keys[k]);
            flipped += f;
            run = f == prev ? run + 1 : 1;
            longest = run > longest ? run : longest;
            prev = f;
        }
        EXPECT(flipped > 48000 && flipped < 52000); /* about half, whatever the key */
        EXPECT(longest < 40);                       /* no long stretch left alone */
    }
    int differ = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        EXPECT(!vary_flips(i, 0)); /* key 0: the input as written */
        differ += vary_flips(i, keys[0]) != vary_flips(i, keys[0] + 1);
    }
    EXPECT(differ > 400); /* neighbouring keys give unrelated patterns */
    EXPECT(vary_float(1.5f, 3, 0) == 1.5f && vary_int(7, 3, 0) == 7);
    for (uint64_t i = 0; i < 64; i++) {
        float f = vary_float(2.0f, i, keys[0]);
        uint32_t bits;
        memcpy(&bits, &f, 4);
        EXPECT(bits == vary_word(0x40000000u, i, keys[0])); /* the float and its bits agree */
        EXPECT(vary_int(vary_int(-5, i, keys[1]), i, keys[1]) == -5); /* its own inverse */
    }
    EXPECT(rng_unpredictable() != 0 && rng_unpredictable() != rng_unpredictable());
}

static void floor_dram_flops_and_peaks(void)
{
    char why[256];
    struct machine_limits h100 = {3000.0, 50e6, 66900.0, 0};
    struct work copy = {8 * 50e6, 0, 0, 0, 0, 0, 0}; /* 400 MB through DRAM, 8x the L2 */
    /* honest: at the ceiling (0.1333 ms) and a little above it */
    EXPECT(!implausible_rate(&copy, &h100, 0.1333, why, sizeof why));
    EXPECT(
        !implausible_rate(&copy, &h100, 0.125, why, sizeof why)); /* 3200 GB/s: L2 may hold 1/8 */
    /* a launch that did a tenth of the work */
    EXPECT(implausible_rate(&copy, &h100, 0.0133, why, sizeof why) && strstr(why, "copy ceiling"));
    struct machine_limits cold = h100;
    cold.cold_l2 = 1;
    EXPECT(implausible_rate(&copy, &cold, 0.115, why, sizeof why)); /* 3478 GB/s > 1.1 x 3000 */
    /* under the L2: no DRAM floor at all */
    struct work small = {40e6, 0, 0, 0, 0, 0, 0};
    EXPECT(!implausible_rate(&small, &h100, 0.0001, why, sizeof why));
    /* FLOPs: 4096^3 x 2 in 1 ms is 137 TFLOP/s, twice the peak */
    struct work gemm = {3 * 4 * 4096.0 * 4096, 2.0 * 4096 * 4096 * 4096, 0, 0, 0, 0, 0};
    EXPECT(implausible_rate(&gemm, &h100, 1.0, why, sizeof why) && strstr(why, "FP32 peak"));
    EXPECT(!implausible_rate(&gemm, &h100, 2.7, why, sizeof why));
    /* a level with a known peak (shared memory) */
    struct work smem = {0, 0, 1e9, 30000.0, 0, 0, 0};
    EXPECT(implausible_rate(&smem, &h100, 0.02, why, sizeof why) && strstr(why, "peak"));
    EXPECT(!implausible_rate(&smem, &h100, 0.04, why, sizeof why));
    EXPECT(implausible_rate(&small, &h100, 0.0, why, sizeof why)); /* no launch takes 0 ms */
    /* a pointer chase: 10,000 dependent loads, none faster than 8 ns */
    struct work chase = {0, 0, 0, 0, 10000, 8.0, 0};
    EXPECT(!implausible_rate(&chase, &h100, 0.2, why, sizeof why)); /* 20 ns a load: an L1 hit */
    EXPECT(implausible_rate(&chase, &h100, 0.05, why, sizeof why) && strstr(why, "dependent load"));
}

static void clock_sees_hidden_work(void)
{
    char why[256];
    EXPECT(!clock_missed_work(1.0, 1.02, 0.03, why, sizeof why));    /* launch latency */
    EXPECT(!clock_missed_work(0.005, 0.030, 0.03, why, sizeof why)); /* a tiny kernel */
    EXPECT(clock_missed_work(0.01, 1.0, 0.03, why, sizeof why) &&
           strstr(why, "outside the stream"));
    EXPECT(clock_missed_work(1.0, 1.5, 0.03, why, sizeof why)); /* half the work hidden */
}

static void cli_unguarded_and_implausible_status(void)
{
    struct options o;
    EXPECT(parse(&o, "--unguarded --quick") == CLI_RUN && o.unguarded && o.quick);
    EXPECT(parse(&o, "--quick") == CLI_RUN && !o.unguarded);
    EXPECT(!strcmp(row_status_name(ROW_IMPLAUSIBLE), "IMPLAUSIBLE"));
}

/* ---- proof of work ---- */
/* The records of a run: a verified point's digest depends on the expected values its checks
 * compared with (not on what the kernel wrote), is the same in another run with the same
 * values, and a failed point or a timed point's checks leave no digest behind. */
static void proof_records(void)
{
    char dir[] = "/tmp/memlab-unit-XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char path[128], line[128], lines[6][128] = {{0}}, said[512];
    snprintf(path, sizeof path, "%s/proof.txt", dir);
    uint32_t expected[3] = {1, 2, 3}, other[3] = {1, 2, 4}, got[3] = {1, 2, 3};
    struct captured c = capture_stderr();
    proof_open(path);
    proof_forget(); /* the earlier tests' checks */
    verify_words("a", got, expected, 3);
    proof_verified("v1 (n 3)", 1);
    verify_words("b", got, expected, 3);
    proof_verified("v2 (n 3)", 1); /* the same values: the same digest */
    verify_words("c", got, other, 3);
    proof_verified("v3 (n 3)", 1);
    verify_words("d", got, other, 3);
    proof_verified("v4 (n 3)", 0); /* failed: no record */
    verify_words("e", got, other, 3);
    proof_forget();
    proof_timed("v1 (n 9)", 1);
    proof_verified("v5 (n 3)", 1); /* nothing checked since the timed point: the empty digest */
    proof_end(0, 0, 0);
    captured_text(&c, said, sizeof said);
    EXPECT(strstr(said, "d: index 2: expected 0x00000004, got 0x00000003") != NULL);
    FILE *f = fopen(path, "r");
    EXPECT(f != NULL);
    int count = 0;
    while (f && count < 6 && fgets(line, sizeof line, f))
        memcpy(lines[count++], line, sizeof line);
    if (f)
        fclose(f);
    EXPECT(count == 6);
    EXPECT(strncmp(lines[0], "verified ", 9) == 0 && strstr(lines[0], " v1 (n 3)\n"));
    EXPECT(strncmp(lines[0] + 9, lines[1] + 9, 16) == 0);
    EXPECT(strncmp(lines[0] + 9, lines[2] + 9, 16) != 0 && strstr(lines[2], " v3 (n 3)"));
    EXPECT(strcmp(lines[3], "timed v1 (n 9)\n") == 0);
    EXPECT(strcmp(lines[4], "verified 0000000000000000 v5 (n 3)\n") == 0);
    EXPECT(strcmp(lines[5], "end 0 0 0\n") == 0);
    remove(path);
    remove(dir);
}

/* ---- lockdown ---- */
static void *thread_body(void *arg)
{
    return arg;
}

/* In a child (the filter stays with the process): after lab_lockdown, threads and memory
 * work, new executable memory, processes and exec do not. Each failed step is a bit of the
 * child's exit status. */
static int locked_child(void)
{
    int bad = 0;
    if (!lab_lockdown())
        return 1;
    pthread_t t;
    void *back = NULL;
    bad |= (pthread_create(&t, NULL, thread_body, &bad) || pthread_join(t, &back) || back != &bad)
           << 1;
    char *data = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bad |= (data == MAP_FAILED) << 2;
    bad |= (mprotect(data, 4096, PROT_READ | PROT_EXEC) == 0) << 3;
    bad |=
        (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
        << 4;
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    bad |= (pid >= 0) << 5;
    char *argv[] = {(char *)"/bin/true", NULL};
    execv("/bin/true", argv); /* refused: the child goes on here */
    bad |= (errno != EPERM) << 6;
    return bad;
}

static void lockdown_refuses_exec_memory_and_processes(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(locked_child());
    int status = -1;
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
    EXPECT(WIFEXITED(status));
    EXPECT(WEXITSTATUS(status) == 0);
    if (WIFEXITED(status) && WEXITSTATUS(status))
        printf("unit lockdown: the child's failed steps: 0x%x\n", WEXITSTATUS(status));
}

int main(void)
{
    run("stats_odd_count", stats_odd_count);
    run("stats_even_count", stats_even_count);
    run("stats_single_and_empty", stats_single_and_empty);
    run("tolerance_basic", tolerance_basic);
    run("tolerance_nan_never_passes", tolerance_nan_never_passes);
    run("tolerance_infinities", tolerance_infinities);
    run("tolerance_scales_with_length", tolerance_scales_with_length);
    run("verify_counts_mismatches", verify_counts_mismatches);
    run("verify_reports_first_in_order", verify_reports_first_in_order);
    run("cli_defaults_and_values", cli_defaults_and_values);
    run("cli_bad_values", cli_bad_values);
    run("cli_sizes", cli_sizes);
    run("cli_size_lists", cli_size_lists);
    run("cli_extra_options", cli_extra_options);
    run("cli_unknown_variants", cli_unknown_variants);
    run("csv_header_and_rows", csv_header_and_rows);
    run("report_table_and_file", report_table_and_file);
    run("rng_reproducible_and_varied", rng_reproducible_and_varied);
    run("sector_model_lab1", sector_model_lab1);
    run("dram_model_lab1", dram_model_lab1);
    run("vary_patterns", vary_patterns);
    run("floor_dram_flops_and_peaks", floor_dram_flops_and_peaks);
    run("clock_sees_hidden_work", clock_sees_hidden_work);
    run("cli_unguarded_and_implausible_status", cli_unguarded_and_implausible_status);
    run("proof_records", proof_records);
    run("lockdown_refuses_exec_memory_and_processes", lockdown_refuses_exec_memory_and_processes);
    return failures ? 1 : 0;
}
