#!/bin/sh
# render-plots.sh LAB_DIR CSV_DIR OUT_DIR [png|pdf|both]
# Render each LAB_DIR/plot-<experiment>.gp from CSV_DIR/<experiment>.csv into
# OUT_DIR/<experiment>.png and .pdf. A CSV that is missing or has no verified ("ok") row is
# skipped with a note (an unfinished student file leaves such CSVs). Without gnuplot it
# says how to plot later and succeeds: the CSVs are the results.
lab_dir=$1 csv_dir=$2 out_dir=$3 formats=${4:-both}
gnuplot=${GNUPLOT:-gnuplot}
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "gnuplot not found: the CSVs are in $csv_dir; install gnuplot, then run 'make plots'"
    exit 0
fi
mkdir -p "$out_dir" || exit 2
status=0
for script in "$lab_dir"/plot-*.gp; do
    [ -e "$script" ] || continue
    experiment=$(basename "$script" .gp | sed 's/^plot-//')
    csv=$csv_dir/$experiment.csv
    if [ ! -f "$csv" ]; then
        echo "plot $experiment: skipped, $csv is missing"
        continue
    fi
    if ! grep -v '^#' "$csv" | grep -q ',ok\(,\|$\)'; then
        echo "plot $experiment: skipped, $csv has no verified rows yet"
        continue
    fi
    if "$gnuplot" -e "csv='$csv'; out='$out_dir/$experiment'; formats='$formats'" "$script"; then
        echo "plot $experiment: $out_dir/$experiment.$([ "$formats" = both ] && echo '{png,pdf}' || echo "$formats")"
    else
        echo "plot $experiment: gnuplot failed on $script"
        status=1
    fi
done
exit $status
