# lab4-staircase.awk - lab 4's phenomenon, from staircase.csv (columns 3 param: footprint,
# 14 status, 15 build, 20 ns_per_hop; the grid's points): at the smallest footprint an L1 step
# in the ca build only (ca under 0.6 of cg), and DRAM slower than L2 (the largest footprint
# over 1.5x the 1 MiB one).
BEGIN { FS = "," }
$2 == "chase" && $14 == "ok" && $NF == "grid" {
    ns[$15, $3] = $20
    if (!first || $3 < first) first = $3
    if ($3 > last) last = $3
}
$2 == "chase" && $3 == 1048576 { mid = $3 }
END {
    printf "4 KiB: ca %s ns, cg %s ns; 1 MiB: ca %s ns; %s bytes: ca %s ns\n", ns["ca", first],
           ns["cg", first], ns["ca", mid], last, ns["ca", last]
    exit !(ns["ca", first] > 0 && ns["ca", first] < 0.6 * ns["cg", first] &&
           ns["ca", last] > 1.5 * ns["ca", mid])
}
