# lab5-counters-arms.awk - after columns.awk, on the arms.csv of lab 5's --counters run: at cap
# 24 the local loads hit the L1 more often with the largest L1 than with the smallest.
$3 == 24 && $c["status"] == "ok" { hit[$c["arm"]] = $c["ncu_local_ld_hit_pct"] }
END {
    printf "cap 24 local-load L1 hits: %s%% smallest L1, %s%% largest\n", hit["local/max_shared"], hit["local/most_l1"]
    exit !(hit["local/most_l1"] != "" && hit["local/most_l1"] + 0 > hit["local/max_shared"] + 0)
}
