# lab5-counters-caps.awk - after columns.awk, on the caps.csv of lab 5's --counters run: local
# loads (ncu's sectors) at cap 24, none uncapped.
$c["status"] == "ok" && ($3 == 24 || $3 == 0) {
    printf "cap %s: %s local load sectors\n", $3, $c["ncu_local_ld_sectors"]
    if ($c["ncu_local_ld_sectors"] == "" || ($3 == 24) != ($c["ncu_local_ld_sectors"] > 0)) bad = 1
    n++
}
END { exit bad || n != 2 }
