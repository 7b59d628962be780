#!/bin/sh
# readme-labs.sh - check the README's lab table against the tree: one row per lab folder
# (labs/labN-*), and each row's status what the tree holds:
#   ready                               labs/labN-* and handouts/reference/labN/ are there
#   built; no reference results yet     the lab, but no reference run committed
#   not built yet                       no labs/labN-* folder
# A lab's targets and how the reference GPU met them belong in its handout, which the
# reference results come with; the README makes no claim that could drift from them.
# Prints one line per wrong row; exit 1 when any, 0 when the table agrees.
readme=${1:-README.md}
status=0
rows=$(awk -F'|' '/^## The labs/ { t = 1; next } t && /^## / { t = 0 }
    t && $2 ~ /^ *[0-9]+ *$/ { n = $2; s = $5; gsub(/^ +| +$/, "", n); gsub(/^ +| +$/, "", s); print n "|" s }' "$readme")
for dir in labs/lab[0-9]*-*; do
    n=$(basename "$dir" | sed 's/^lab\([0-9]*\)-.*/\1/')
    echo "$rows" | grep -q "^$n|" || { echo "README: no row for lab $n ($dir)"; status=1; }
done
echo "$rows" | {
    bad=0
    while IFS='|' read -r n said; do
        [ -n "$n" ] || continue
        if ls -d "labs/lab$n-"* >/dev/null 2>&1; then
            if [ -d "handouts/reference/lab$n" ]; then want="ready"; else want="built; no reference results yet"; fi
        else
            want="not built yet"
        fi
        [ "$said" = "$want" ] || { echo "README: lab $n says '$said'; the tree says '$want'"; bad=1; }
    done
    exit $bad
} || status=1
exit $status
