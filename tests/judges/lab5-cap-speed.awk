# lab5-cap-speed.awk - after columns.awk, lab 5's phenomenon on caps.csv: fwd_o8_queue at cap
# 24 (64 B of spills) at least 1.5x slower than at cap 32 (column 7, ms_median).
$2 == "fwd_o8_queue" && $c["status"] == "ok" { ms[$3] = $7 }
END {
    printf "cap 24: %s ms, cap 32: %s ms\n", ms[24], ms[32]
    exit !(ms[32] > 0 && ms[24] >= 1.5 * ms[32])
}
