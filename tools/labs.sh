#!/bin/sh
# labs.sh - the list of labs, from its one source, labs/labs.table, to where it is shown.
#
#   sh tools/labs.sh help           the labs for `make help`, in the order of their numbers
#   sh tools/labs.sh write [FILE...] rewrite the generated blocks of FILE (default: every file
#                                   below that is there)
#   sh tools/labs.sh check [FILE...] exit 1, with a line per difference, when the table and the
#                                   tree disagree (a lab folder without a row or a row without
#                                   its folder, a handout whose first line is not `# Lab N:
#                                   title`) or a generated block is not what `write` makes
#
# A generated block lies between the lines `<!-- labs:KIND ... -->` and `<!-- labs:end -->`;
# KIND says what it holds:
#   readme    README.md's table: lab, topic, source, status (what the tree holds; the
#             statuses are those of tools/maint/readme-labs.sh)
#   student   the student copy's README (grading/student-README.md): lab, handout and title,
#             topic, the figures for the report (the lab's plot-NAME.gp scripts), hours
#   design    docs/DESIGN.md's numbered list
#   rubrics   grading/README.md's list: each lab's rubric (grading/rubrics/labN.ini), its
#             tests and points, or none yet
# Generating every list from the table (rather than only testing that hand-kept lists agree)
# means one edit, in the table, and `write`; the check in `make test` catches a hand edit of a
# block or a table that no longer matches the tree.
set -u
table=labs/labs.table
files="README.md grading/README.md docs/DESIGN.md grading/student-README.md"

rows() { # number|folder|title|topic|source|hours, blanks trimmed, in the order of the numbers
    awk -F'|' '/^[ \t]*#/ || !NF { next }
        { s = ""; for (i = 1; i <= NF; i++) { f = $i; gsub(/^[ \t]+|[ \t]+$/, "", f); s = s (i > 1 ? "|" : "") f }; print s }' \
        "$table" | sort -t'|' -k1,1n
}

status() { # the README's status of lab $1 (tools/maint/readme-labs.sh)
    if [ -d "handouts/reference/lab$1" ]; then echo "ready"; else echo "built; no reference results yet"; fi
}

block() { # the generated lines of block kind $1
    case $1 in
    readme)
        echo "| lab | topic | source | status |"
        echo "| --- | --- | --- | --- |"
        rows | while IFS='|' read -r n folder title topic source hours; do
            echo "| $n | $topic | $source | $(status "$n") |"
        done ;;
    student)
        echo "| lab | handout | what you measure | figures for the report (\`plots/labN/\`) | plan for |"
        echo "| --- | --- | --- | --- | --- |"
        rows | while IFS='|' read -r n folder title topic source hours; do
            # shellcheck disable=SC2016 # the backquotes are Markdown's
            figures=$(for g in labs/"$folder"/plot-*.gp; do [ -e "$g" ] && g=${g##*/plot-} && printf '`%s.pdf` ' "${g%.gp}"; done)
            echo "| $n | [$title](handouts/$folder.md) | $topic | $(echo "${figures% }" | sed 's/ /, /g') | $hours hours |"
        done ;;
    design)
        rows | while IFS='|' read -r n folder title topic source hours; do
            echo "$n. $title (\`labs/$folder/\`): $topic."
        done ;;
    rubrics)
        echo "| lab | rubric | tests | points |"
        echo "| --- | --- | --- | --- |"
        rows | while IFS='|' read -r n folder title topic source hours; do
            r=grading/rubrics/lab$n.ini
            if [ -f "$r" ]; then
                awk -v n="$n" -v r="rubrics/lab$n.ini" '/^\[test / { t++ } /^points *=/ { sub(/^points *= */, ""); p += $0 }
                    END { printf "| %s | `%s` | %d | %g |\n", n, r, t, p }' "$r"
            else
                echo "| $n | none yet | | |"
            fi
        done ;;
    *) return 1 ;;
    esac
}

# generate FILE: FILE with every generated block as `write` makes it, on stdout.
generate() {
    grep -o '^<!-- labs:[a-z]*' "$1" | sed 's/^<!-- labs://' | sort -u | grep -v '^end$' | while read -r kind; do
        block "$kind" >"$work/$kind" || { echo "labs.sh: $1: unknown block kind '$kind'" >&2; exit 1; }
    done || return 1
    awk -v work="$work" '
        /^<!-- labs:end -->/ { inside = 0 }
        inside { next }
        { print }
        /^<!-- labs:[a-z]+ / { kind = $0; sub(/^<!-- labs:/, "", kind); sub(/ .*/, "", kind)
            if (kind != "end") { f = work "/" kind; while ((getline line < f) > 0) print line; close(f); inside = 1 } }
        END { if (inside) { print "labs.sh: a block with no <!-- labs:end -->" > "/dev/stderr"; exit 1 } }' "$1"
}

# tree: the table against the lab folders and the handouts' first lines.
tree() {
    bad=0
    for dir in labs/lab[0-9]*-*/; do
        [ -d "$dir" ] || continue
        folder=$(basename "$dir")
        rows | grep -q "^[0-9]*|$folder|" || { echo "$table: no row for $dir"; bad=1; }
    done
    rows | {
        bad=0
        while IFS='|' read -r n folder title topic source hours; do
            case $folder in "lab$n-"*) ;; *) echo "$table: lab $n's folder is $folder, not lab$n-..."; bad=1 ;; esac
            [ -d "labs/$folder" ] || { echo "$table: lab $n: no folder labs/$folder"; bad=1; }
            [ -n "$title" ] && [ -n "$topic" ] && [ -n "$hours" ] || { echo "$table: lab $n: a field is empty"; bad=1; }
            first=$(head -n 1 "handouts/$folder.md" 2>/dev/null)
            [ "$first" = "# Lab $n: $title" ] ||
                { echo "handouts/$folder.md: first line '$first', the table says '# Lab $n: $title'"; bad=1; }
        done
        exit $bad
    } || bad=1
    [ -z "$(rows | cut -d'|' -f1 | uniq -d)" ] || { echo "$table: a lab number twice"; bad=1; }
    return $bad
}

cd "$(dirname "$0")/.." || exit 2
what=${1:-}
[ $# -gt 0 ] && shift
# shellcheck disable=SC2046 # the files that are there, one argument each (their names have no blanks)
[ $# -gt 0 ] || set -- $(for f in $files; do [ -f "$f" ] && echo "$f"; done)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $what in
help)
    rows | while IFS='|' read -r n folder title topic source hours; do
        printf '  make lab%-4s Lab %s: %s\n' "$n" "$n" "$title"
    done ;;
write)
    for f in "$@"; do
        generate "$f" >"$work/new" || exit 1
        cmp -s "$work/new" "$f" || { cat "$work/new" >"$f" && echo "wrote $f"; }
    done ;;
check)
    status=0
    tree || status=1
    for f in "$@"; do
        grep -q '^<!-- labs:[a-z]* ' "$f" || { echo "$f: no generated list of the labs (<!-- labs:KIND ... -->)"; status=1; continue; }
        generate "$f" >"$work/new" || { status=1; continue; }
        cmp -s "$work/new" "$f" ||
            { echo "$f: the list of labs differs from labs/labs.table (sh tools/labs.sh write):"; diff "$f" "$work/new" | head -n 10; status=1; }
    done
    exit $status ;;
*)
    echo "usage: sh tools/labs.sh help | write [FILE...] | check [FILE...]" >&2
    exit 2 ;;
esac
