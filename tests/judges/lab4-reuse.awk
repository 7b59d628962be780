# lab4-reuse.awk - lab 4's phenomenon, from reuse.csv (columns 3 radius, 7 ms_median, 15
# build): the stencil of radius 8 slower under cg than under ca (by 5% or more).
BEGIN { FS = "," }
$2 == "stencil_1d" && $3 == 8 { ms[$15] = $7 }
END {
    printf "stencil r 8: ca %s ms, cg %s ms\n", ms["ca"], ms["cg"]
    exit !(ms["ca"] > 0 && ms["cg"] > 1.05 * ms["ca"])
}
