# lab-table.awk - reads tools/lab-tools.table for tools/profile.sh and tools/sanitize.sh.
#   awk -f tools/lab-table.awk -v lab=N -v want=WHAT tools/lab-tools.table
# WHAT: profile_args, sanitize_args, kernels (an ncu --kernel-name regex: A|B|...),
# ncu_metrics (every ncu metric the lab's figures need, comma-separated, with the kernel
# time always among them), figures (one line per figure: name|label|unit|expression|part,
# part empty for the lab row's figures, else the name part of the `kernel` row that shows
# it), skipped (the kernels the profile leaves out, `skip` rows: one a line, "N NAME" or
# "* NAME" where the row is every lab's).
# Exit 1 with nothing printed when the table has no row for lab N, or names an unknown metric.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function check_known(list,    n, f, i) {
    n = split(list, f, /[ \t]+/)
    for (i = 1; i <= n; i++) if (!(f[i] in expr)) { print "lab-tools.table: lab " lab " names an unknown metric " f[i] > "/dev/stderr"; bad = 1 }
}
function print_figures(list, part,    n, f, i) {
    n = split(list, f, /[ \t]+/)
    for (i = 1; i <= n; i++) print f[i] "|" label[f[i]] "|" unit[f[i]] "|" expr[f[i]] "|" part
}
function add_metrics(list,    n, f, i, m, part, j) {
    n = split(list, f, /[ \t]+/)
    for (i = 1; i <= n; i++) {
        m = split(expr[f[i]], part, /[ \t]*\/[ \t]*/)
        for (j = 1; j <= m; j++) if (!(part[j] in seen)) { seen[part[j]] = 1; metrics = metrics "," part[j] }
    }
}
BEGIN { FS = "|" }
/^[ \t]*#/ || !NF { next }
{ for (i = 1; i <= NF; i++) $i = trim($i) }
$1 == "metric" { label[$2] = $3; unit[$2] = $4; expr[$2] = $5; next }
$1 == "lab" && $2 == lab { row = 1; args = $3; kernels = $4; figures = $5; sanitize = $6 }
$1 == "kernel" && $2 == lab { part[++parts] = $3; part_figures[parts] = $4 }
$1 == "skip" && ($2 == lab || $2 == "*") { skipped = skipped $2 " " $3 "\n" }
END {
    if (!row) exit 1
    if (want == "profile_args") { print args; exit 0 }
    if (want == "sanitize_args") { print sanitize; exit 0 }
    if (want == "kernels") { n = split(kernels, k, /[ \t]+/); s = k[1]; for (i = 2; i <= n; i++) s = s "|" k[i]; print s; exit 0 }
    if (want == "skipped") { printf "%s", skipped; exit 0 }
    check_known(figures)
    for (p = 1; p <= parts; p++) check_known(part_figures[p])
    if (bad) exit 1
    if (want == "figures") {
        print_figures(figures, "")
        for (p = 1; p <= parts; p++) print_figures(part_figures[p], part[p])
        exit 0
    }
    if (want == "ncu_metrics") {
        metrics = "gpu__time_duration.sum"; seen[metrics] = 1
        add_metrics(figures)
        for (p = 1; p <= parts; p++) add_metrics(part_figures[p])
        print metrics; exit 0
    }
    exit 1
}
