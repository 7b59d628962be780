# lab9-model.awk - after columns.awk, lab 9's phenomenon on model.csv: the seed's bandwidth
# model is a lower bound (no point more than 15% faster than it predicts), and for each of
# the 3 codes the lab's model at edge 512 is within 25% on average, and closer than the seed's.
$c["status"] == "ok" { n++; e = $c["seed_error_pct"] + 0; if (n == 1 || e > worst) worst = e }
$c["status"] == "ok" && $c["edge"] == 512 {
    v = $c["variant"]
    m[v] += sqrt($c["error_pct"] ^ 2)
    s[v] += sqrt($c["seed_error_pct"] ^ 2)
    codes += !k[v]++
}
END {
    printf "%d points, largest (seed - meas) / meas: %.1f%%\n", n, worst
    bad = !(n > 0 && worst <= 15)
    for (v in k) {
        printf "%s at 512: mean |error| %.1f%%, the seed %.1f%%\n", v, m[v] / k[v], s[v] / k[v]
        bad = bad || m[v] / k[v] > 25 || m[v] >= s[v]
    }
    exit bad || codes != 3
}
