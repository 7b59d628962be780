# lab10-fetches.awk - lab 10's modes.csv and fetches.csv (--modes --dump-fetches), in that
# order: one fetch row for each point the modes counted, every one ok.
BEGIN { FS = "," }
/^#/ { next }
!head[FILENAME]++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
FILENAME ~ /modes.csv$/ { points += $c["points"]; next }
{ n++; if ($c["status"] != "ok") bad = 1 }
END {
    printf "fetches.csv: %d rows for %d points\n", n, points
    exit bad || !n || n != points
}
