# lab5-report.awk - the compiler's report of lab 5's solution, as tools/resource-table.py --csv
# writes it (kernel,arch,registers,stack,smem,spill_stores,spill_loads; a kernel's name ends in
# _capN, _capnone or _smemN): no capped kernel uses more registers than its cap,
# fwd_o8_queue spills at caps 24 and 32 and not uncapped, fwd_o8_ring keeps at most 16 bytes
# in local memory at cap 32.
BEGIN { FS = "," }
NR > 1 {
    cap = $1; sub(/.*_(cap|smem)/, "", cap)
    if (cap != "none" && $3 + 0 > cap + 0) { print $1, $2, "uses", $3, "registers"; bad = 1 }
    if ($1 ~ /^fwd_o8_queue_cap(24|32)$/) {
        spilled++
        if (!($6 > 0 && $7 > 0 && $4 > 0)) { print $0, "does not spill"; bad = 1 }
    }
    if ($1 == "fwd_o8_queue_capnone") {
        seen++
        if ($4 != 0 || $6 != 0 || $7 != 0) { print $0, "spills"; bad = 1 }
    }
    if ($1 == "fwd_o8_ring_cap32" && $6 > 16) { print $0, "spills more than 16 bytes"; bad = 1 }
}
END {
    printf "%d spilling entries, %d uncapped\n", spilled, seen
    exit bad || !spilled || !seen
}
