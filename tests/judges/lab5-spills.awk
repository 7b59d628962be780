# lab5-spills.awk - after columns.awk, on the spills.csv of lab 5's --spills run: at cap 24
# fwd_o8_queue executes local loads and local stores (its spill code), uncapped none; every
# share is the local instructions over all instructions, in percent.
$c["status"] == "ok" && $c["instructions"] != "" {
    spills = $c["local_ld_instructions"] + $c["local_st_instructions"]
    share = 100 * spills / $c["instructions"]
    if (share - $c["spill_share_pct"] > 0.01 || $c["spill_share_pct"] - share > 0.01) bad = 1
    if ($c["variant"] == "fwd_o8_queue" && ($3 == 24 || $3 == 0)) {
        printf "cap %s: %s local loads, %s local stores, %s%% of %s instructions\n", $3,
            $c["local_ld_instructions"], $c["local_st_instructions"], $c["spill_share_pct"],
            $c["instructions"]
        if (($3 == 24) != ($c["local_ld_instructions"] > 0 && $c["local_st_instructions"] > 0)) bad = 1
        n++
    }
}
END { exit bad || n != 2 }
