# lab10-zoom.awk - after columns.awk, lab 10's phenomenon on zoom.csv (param: the zoom in %):
# at 137% the texture's error against exact weights is at least 100x the float version's.
$c["status"] == "ok" && $3 == 137 { err[$2] = $c["max_err"]; ulp[$2] = $c["model_max_ulp"] }
END {
    printf "max error: texture %s (%s ulp from the 8-bit model), global %s\n", err["zoom_texture"],
           ulp["zoom_texture"], err["zoom_global"]
    exit !(err["zoom_texture"] > 0 && err["zoom_texture"] >= 100 * err["zoom_global"])
}
