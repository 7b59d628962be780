# lab6-steps.awk - lab 6's phenomenon, from steps.csv: step 7 at least 5x faster than step 1
# (column 7, ms_median).
BEGIN { FS = "," }
/^6,v1_interleaved_divergent,/ { t1 = $7 }
/^6,v7_multiple_elements,/ { t7 = $7 }
END {
    printf "step 1: %s ms, step 7: %s ms\n", t1, t7
    exit !(t1 > 0 && t7 > 0 && t1 >= 5 * t7)
}
