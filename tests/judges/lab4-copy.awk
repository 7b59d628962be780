# lab4-copy.awk - lab 4's control, from copy.csv (columns 7 ms_median, 15 build): a streaming
# copy, which reuses nothing, takes the same time (within 10%) under ca and cg.
BEGIN { FS = "," }
$2 == "copy_stream" { ms[$15] = $7 }
END {
    printf "copy: ca %s ms, cg %s ms\n", ms["ca"], ms["cg"]
    exit !(ms["ca"] > 0 && ms["cg"] < 1.1 * ms["ca"] && ms["ca"] < 1.1 * ms["cg"])
}
