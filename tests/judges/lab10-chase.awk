# lab10-chase.awk - after columns.awk, lab 10's phenomenon on constant.csv (param: k, the
# addresses a warp reads): chase_constant's slowdown at k 32 within 15% of the serialisation
# model (32x k 1), the read-only path's under half of it.
$c["status"] == "ok" && $3 == 32 { slow[$2] = $c["slowdown"]; err[$2] = $c["model_error_pct"] }
END {
    printf "k 32: constant %sx (model error %s%%), global %sx, read-only %sx\n", slow["chase_constant"],
           err["chase_constant"], slow["chase_global"], slow["chase_readonly"]
    e = err["chase_constant"] + 0
    exit !(slow["chase_constant"] != "" && e <= 15 && e >= -15 && slow["chase_readonly"] != "" &&
           slow["chase_readonly"] < slow["chase_constant"] / 2)
}
