/* counters.cu - lab 5's --counters (see counters.h). */
#include "counters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/profile.h"

/* One profiled kernel's metrics, for its point. */
static int keep_counters(void *ctx, int point, const double *v)
{
    struct counters *c = (struct counters *)ctx + point;
    memcpy(c->value, v, sizeof c->value);
    c->seen = 1;
    return 1;
}

void collect_counters(const char *args, struct counters *c, int points)
{
    profile_self(metrics, METRICS, points, args, keep_counters, c, "the ncu_* columns stay empty");
}

const char *ncu_columns(const struct counters *c, char *text, size_t len)
{
    const double *v = c->value;
    double out[9] = {v[0],
                     100.0 * v[1] / v[0],
                     v[2],
                     100.0 * v[3] / v[2],
                     32.0 * (v[4] + v[5]),
                     v[6] + v[7],
                     v[8],
                     v[9],
                     v[10]};
    size_t used = 0;
    text[0] = '\0';
    for (int k = 0; k < 9 && used < len; k++) {
        int digits = k == 1 || k == 3 ? 2 : k == 6 ? 1 : 0;
        if (c->seen && isfinite(out[k]))
            used += snprintf(text + used, len - used, "%s%.*f", k ? "," : "", digits, out[k]);
        else
            used += snprintf(text + used, len - used, "%s", k ? "," : "");
    }
    return text;
}

/* What --spills asks ncu for, in the order of struct spill_counts. */
static const char *const spill_metrics[] = {"smsp__inst_executed.sum",
                                            "smsp__inst_executed_op_local_ld.sum",
                                            "smsp__inst_executed_op_local_st.sum"};

static int keep_spill_counts(void *ctx, int point, const double *v)
{
    struct spill_counts *s = (struct spill_counts *)ctx + point;
    s->instructions = v[0];
    s->local_loads = v[1];
    s->local_stores = v[2];
    s->seen = 1;
    return 1;
}

void collect_spill_counts(const char *args, struct spill_counts *s, int points)
{
    profile_self(spill_metrics, 3, points, args, keep_spill_counts, s,
                 "the spill columns stay empty");
}

const char *spill_columns(const struct spill_counts *s, char *text, size_t len)
{
    double spills = s->local_loads + s->local_stores;
    if (!s->seen || !isfinite(spills) || !(s->instructions > 0))
        snprintf(text, len, ",,,");
    else
        snprintf(text, len, "%.0f,%.0f,%.0f,%.2f", s->instructions, s->local_loads, s->local_stores,
                 100.0 * spills / s->instructions);
    return text;
}
