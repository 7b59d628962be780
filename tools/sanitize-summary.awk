# sanitize-summary.awk - one variant's lines of sanitize.txt, from its compute-sanitizer logs.
#   awk -f tools/sanitize-summary.awk -v variant=NAME DIR/NAME.memcheck.log DIR/NAME.racecheck.log ...
# Each log is what `compute-sanitizer --tool TOOL PROGRAM ... --only NAME` printed (the tool
# is read from the file name, NAME.TOOL.log), and may end with a line that tools/sanitize.sh
# adds: `== sanitize.sh: exit N` (the exit status; 124: the run timed out).
# Prints one line, e.g.
#   copy_strided: memcheck 3 errors (invalid global write, CUDA error cudaErrorLaunchFailure), racecheck 0 hazards, initcheck 0 errors
# then, indented, where each kind of error was first seen (kernel, file:line) and how often,
# and any tool under which the program failed. Exit 1 when something was found, a run
# failed or gave no summary; 0 when every run was clean (or the variant is not implemented).
#
# compute-sanitizer's report (its manual, "Understanding Memcheck Errors", racecheck and
# initcheck examples): every line starts with "========= "; a report starts with a line
# whose text is not indented, e.g.
#   ========= Invalid __global__ write of size 4 bytes
#   =========     at copy_strided_kernel(float *, const float *, unsigned long, int)+0x1b0 in /k/kernels.cu:39
#   =========     by thread (0,0,0) in block (4,0,0)
#   ========= Error: Race reported between Write access at v3_kernel(int *, const int *, unsigned long)+0x2a0 in /k/kernels.cu:141
#   =========     and Read access at v3_kernel(int *, const int *, unsigned long)+0x270 in /k/kernels.cu:141 [1536 hazards]
# (older releases: "at 0x1b0 in /k/kernels.cu:39:copy_strided_kernel(...)", "ERROR: Race ...")
# and the run ends with "========= ERROR SUMMARY: N errors" (racecheck: "RACECHECK SUMMARY:
# N hazards displayed (E errors, W warnings)").
function where(s,    kernel, file) { # "k(...)+0x10 in /a/b.cu:39" or "0x10 in /a/b.cu:39:k(...)"
    if (s ~ /^0x[0-9a-fA-F]+ in /) {
        sub(/^0x[0-9a-fA-F]+ in /, "", s)
        file = s; sub(/:[^:0-9][^:]*\(.*$/, "", file)
        kernel = substr(s, length(file) + 2)
    } else {
        kernel = s
        file = index(s, " in ") ? substr(s, index(s, " in ") + 4) : ""
    }
    sub(/\(.*/, "", kernel); sub(/^void /, "", kernel); sub(/.*\//, "", file); sub(/ .*/, "", file)
    return kernel (file != "" ? ", " file : "")
}
function kind_of(h,    k) {
    if (match(h, /[Rr]ace reported between [A-Za-z]+ access/)) {
        k = substr(h, RSTART + 22, RLENGTH - 29)
        return k "/" (match(h, /and [A-Za-z]+ access/) ? substr(h, RSTART + 4, RLENGTH - 11) : "?") " race"
    }
    if (match(h, /Potential [A-Z]+ hazard/)) return substr(h, RSTART + 10, RLENGTH - 10)
    if (match(h, /^Invalid (__[a-z]+__ )?[a-z]+/)) {
        k = substr(h, 9, RLENGTH - 8); gsub(/_/, "", k)
        return "invalid " k
    }
    if (h ~ /^Uninitialized/) { k = h; sub(/ of size.*/, "", k); gsub(/_/, "", k); return tolower(k) }
    if (h ~ /^Host API uninitialized memory access/) return "uninitialized memory in a host API call"
    if (match(h, /^Program hit cudaError[A-Za-z]+/)) return "CUDA error " substr(h, 13, RLENGTH - 12)
    if (h ~ /^(Leaked|Malloc\/Free|Cuda leak)/) return "leak"
    k = h; gsub(/0x[0-9a-fA-F]+|[0-9]+/, "", k); gsub(/  +/, " ", k)
    return substr(k, 1, 60)
}
function close_report() { if (report) { if (misaligned) sub(/^invalid/, "misaligned", kinds[report]) } report = 0 }
FNR == 1 {
    close_report()
    tool = FILENAME; sub(/.*\//, "", tool); sub(/\.log$/, "", tool); sub(/.*\./, "", tool)
    tools[++ntools] = tool
}
/^== sanitize\.sh: exit [0-9]+/ { exit_status[tool] = $NF; next }
!/^=========/ {
    if ($0 ~ "^" variant "[ \t]+not[ _]implemented") todo = 1
    next
}
{ text = $0; sub(/^========= ?/, "", text) }
text ~ /^ERROR SUMMARY: [0-9]+ error/ { split(text, w, " "); total[tool] = w[3]; summary[tool] = 1; next }
text ~ /^RACECHECK SUMMARY: [0-9]+ hazard/ { split(text, w, " "); displayed[tool] = w[3]; summary[tool] = 1; next }
text ~ /^(COMPUTE-SANITIZER|LEAK SUMMARY|Target application returned an error)/ || text == "" { next }
text ~ /^ / {  # a report's detail line
    if (!report) next
    if (text ~ /misaligned/) misaligned = 1
    if (!(report in at) && match(text, /(^ +| access | Thread \([0-9,]+\) )at /)) at[report] = where(substr(text, RSTART + RLENGTH))
    if (match(text, /\[[0-9]+ hazards?\]/)) hazards[tool] += substr(text, RSTART + 1, RLENGTH - 2) + 0
    if (kinds[report] ~ /\/\? race$/ && match(text, /and [A-Za-z]+ access/))
        sub(/\? race$/, substr(text, RSTART + 4, RLENGTH - 11) " race", kinds[report])
    next
}
{   # a report's first line
    close_report()
    k = kind_of(text)
    report = ++reports; misaligned = 0
    kinds[report] = k; tool_of[report] = tool
    if (match(text, /access at /)) at[report] = where(substr(text, RSTART + RLENGTH))
    if (match(text, /\[[0-9]+ hazards?\]/)) hazards[tool] += substr(text, RSTART + 1, RLENGTH - 2) + 0
    if (k ~ /( race|[A-Z] hazard)$/) races[tool]++
}
END {
    close_report()
    line = ""; details = ""; bad = 0
    for (i = 1; i <= ntools; i++) {
        t = tools[i]
        # kinds of report under this tool, in order of first appearance, with counts
        nk = 0; split("", seen)
        for (r = 1; r <= reports; r++) {
            if (tool_of[r] != t) continue
            k = kinds[r]
            if (!(k in seen)) { seen[k] = 0; first[k] = r; list[++nk] = k }
            seen[k]++
        }
        names = ""; where_text = ""
        for (j = 1; j <= nk; j++) {
            k = list[j]
            names = names (j > 1 ? ", " : "") k
            where_text = where_text (j > 1 ? "; " : "") k " x" seen[k] ((first[k] in at) ? " (first in " at[first[k]] ")" : "")
        }
        if (t == "racecheck") {
            n = hazards[t] ? hazards[t] : races[t] ? races[t] : displayed[t] + 0
            result = "racecheck " n " hazard" (n == 1 ? "" : "s")
        } else {
            n = summary[t] ? total[t] + 0 : nk
            result = t " " n " error" (n == 1 ? "" : "s")
        }
        if (!summary[t]) {
            result = t " no result"
            why = exit_status[t] == 124 ? "timed out" : "no summary from compute-sanitizer"
            details = details "    " t ": " why (exit_status[t] != "" ? ", exit " exit_status[t] : "") ", see its log\n"
            bad = 1
        } else if (n || nk) {
            if (names != "") result = result " (" names ")"
            details = details "    " t ": " where_text "\n"
            bad = 1
        }
        if (summary[t] && exit_status[t] != "" && exit_status[t] != 0) {
            details = details "    " t ": the program exited " exit_status[t] "\n"
            bad = 1
        }
        line = line (i > 1 ? ", " : "") result
    }
    if (todo && !bad) { print variant ": not implemented yet: nothing to check"; exit 0 }
    printf "%s: %s\n%s", variant, line, details
    exit bad
}
