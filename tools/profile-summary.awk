# profile-summary.awk - one variant's part of profile.txt, from the tidy CSV that
# tools/ncu-counters.sh wrote for it ([point,]kernel,launch,grid,block,<ncu metrics>).
#   awk -f tools/profile-summary.awk -v variant=NAME -v figures="$(lab-table.awk ... figures)" \
#       [-v names=RUN.log] FILE.csv
# figures: one line per figure, name|label|unit|expression|part (an ncu metric, or A / B; a
# kernel whose name contains a part shows that part's figures, any other the figures of no
# part). names: the profiled run's output, whose lines `profile point N: WHAT` name the points.
# Launches are grouped by point where the CSV has one (labs that number their points with a
# marker kernel: every point is shown, in order), or else by kernel and launch shape (grid x
# block). A lab program checks its awkward sizes first and the profiled size last, the
# largest shape being among the latter: the shapes launched from the first launch of the
# largest shape on are shown, largest first; the others are counted in one line. A shape's
# figures are those of its longest launches (kernel time at least half the longest's), as
# the awkward sizes may share it; where those launches differ, the range is shown.
function number(v) { return v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
function value(row, e,    part) { # an expression's value for one launch, "" if ncu gave none
    if (split(e, part, /[ \t]*\/[ \t]*/) == 2) {
        if (!number(cell[row, part[1]]) || !number(cell[row, part[2]]) || cell[row, part[2]] == 0) return ""
        return cell[row, part[1]] / cell[row, part[2]]
    }
    return number(cell[row, e]) ? cell[row, e] + 0 : ""
}
function scaled(v, units, step,    i, n, u) { # 1234567 -> "1.23 M" with units "|k|M|G"
    n = split(units, u, "|")
    for (i = 1; i < n && (v >= step || v <= -step); i++) v /= step
    return sprintf(v == int(v) ? "%.0f%s%s" : "%.3g%s%s", v, u[i] == "" ? "" : " ", u[i])
}
function show(v, unit) {
    if (v == "") return "n/a"
    if (unit == "ratio") return sprintf("%.2f", v)
    if (unit == "pct") return sprintf("%.1f%%", v)
    if (unit == "share") return sprintf("%.1f%%", 100 * v)
    if (unit == "bytes") return scaled(v, "B|kB|MB|GB|TB", 1000)
    if (unit == "Bps") return sprintf("%.1f GB/s", v / 1e9)
    if (unit == "ns") return v >= 1e6 ? sprintf("%.2f ms", v / 1e6) : sprintf("%.1f us", v / 1e3)
    return scaled(v, "|k|M|G|T", 1000)
}
function figure_part(kernel,    f) { # the part of the figures this kernel shows
    for (f = 1; f <= nfig; f++) if (part[f] != "" && index(kernel, part[f])) return part[f]
    return ""
}
BEGIN {
    FS = ","
    nfig = split(figures, line, "\n")
    for (f = 1; f <= nfig; f++) { split(line[f], field, "|"); label[f] = field[2]; unit[f] = field[3]; expr[f] = field[4]; part[f] = field[5] }
    while (names != "" && (getline text < names) > 0)
        if (match(text, /^profile point [0-9]+: /)) point_name[substr(text, 15, RLENGTH - 16)] = substr(text, RLENGTH + 1)
}
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; has_point = ("point" in col); next }
{
    rows++
    for (name in col) cell[rows, name] = $col[name]
    key = (has_point ? $col["point"] : "") SUBSEP $col["kernel"] SUBSEP $col["grid"] SUBSEP $col["block"]
    if (!(key in count)) {
        order[++groups] = key
        split($col["grid"], g, "x"); split($col["block"], b, "x")
        threads[key] = g[1] * g[2] * g[3] * b[1] * b[2] * b[3]
        point[key] = has_point ? $col["point"] : ""
    }
    member[key, ++count[key]] = rows
    last[key] = rows
    if (threads[key] > most) { most = threads[key]; tail = rows }
    t = value(rows, "gpu__time_duration.sum")
    if (t != "" && t > longest[key]) longest[key] = t
}
END {
    print variant
    if (!groups) { print "  no launch of the lab's kernels was profiled (a TODO left open?)"; exit 0 }
    # order: by point, or largest shape first; ties keep launch order
    for (i = 2; i <= groups; i++)
        for (j = i; j > 1; j--) {
            a = order[j - 1]; c = order[j]
            later = has_point ? (point[c] != "" && (point[a] == "" || point[c] + 0 < point[a] + 0)) : threads[c] > threads[a]
            if (!later) break
            order[j - 1] = c; order[j] = a
        }
    for (i = 1; i <= groups; i++) { key = order[i]; if (has_point || last[key] >= tail) list[++shown] = key; else rest += count[key] }
    for (i = 1; i <= shown; i++) {
        key = list[i]
        split(key, k, SUBSEP)
        used = 0
        for (m = 1; m <= count[key]; m++) {
            r = member[key, m]
            t = value(r, "gpu__time_duration.sum")
            if (longest[key] == "" || (t != "" && t >= 0.5 * longest[key])) pick[++used] = r
        }
        printf "  %s%s  grid %s  block %s  (%d launch%s%s)\n",
            k[1] == "" ? "" : "point " k[1] (k[1] in point_name ? " (" point_name[k[1]] ")" : "") ": ", k[2], k[3], k[4],
            count[key], count[key] == 1 ? "" : "es", used < count[key] ? ", figures of the " used " longest" : ""
        text = ""
        own = figure_part(k[2])
        for (f = 1; f <= nfig; f++) {
            if (part[f] != own) continue
            lo = hi = ""
            for (m = 1; m <= used; m++) {
                v = value(pick[m], expr[f])
                if (v == "") continue
                if (lo == "" || v < lo) lo = v
                if (hi == "" || v > hi) hi = v
            }
            s = show(lo, unit[f])
            if (show(hi, unit[f]) != s) s = s " .. " show(hi, unit[f])
            s = label[f] " " s
            if (text == "") text = "    " s
            else if (length(text) + length(s) + 2 > 96) { print text ","; text = "    " s }
            else text = text ", " s
        }
        print text
    }
    if (groups > shown)
        printf "  + %d launch shape%s of the checks before (%d launch%s), not shown\n", groups - shown,
            groups - shown == 1 ? "" : "s", rest, rest == 1 ? "" : "es"
}
