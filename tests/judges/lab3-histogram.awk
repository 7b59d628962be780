# lab3-histogram.awk - lab 3's histogram phenomenon, from histogram.csv (after columns.awk): on
# the hot1 input the privatised histogram is at least 3x faster than global atomics at every
# bin count, and at 4096 bins on the uniform input it reaches at least half of CUB's speed.
$c["status"] != "ok" { next }
$c["variant"] == "hist_global_atomics" && $c["input"] == "hot1" { global[$c["param"]] = $c["ms_median"] }
$c["variant"] == "hist_shared_privatised" && $c["input"] == "hot1" { shared[$c["param"]] = $c["ms_median"] }
$c["variant"] == "hist_shared_privatised" && $c["input"] == "uniform" && $c["param"] == 4096 { pct = $c["pct_of_cub"] }
END {
    for (b in global) {
        seen++
        printf "hot1, %s bins: global atomics %s ms, privatised %s ms\n", b, global[b], shared[b]
        if (!(shared[b] > 0 && global[b] >= 3 * shared[b])) bad = 1
    }
    printf "uniform, 4096 bins: privatised at %s%% of CUB\n", pct
    exit bad || !seen || !(pct >= 50)
}
