# lab10-modes.awk - after columns.awk, on lab 10's modes.csv (--modes): each of the 20 texture
# modes verified against the CPU model on at least 2048 points, with its figures printed.
{
    n++
    if ($c["status"] != "ok" || $c["points"] < 2048) bad = 1
    printf "%s %s %s: %s points, %s exact (guide: %s), max %s ulp, %s ties (%s up), %s product ties (%s up)\n",
           $2, $c["texture"], $c["coords"], $c["points"], $c["exact"], $c["guide_exact"],
           $c["max_ulp"], $c["ties"], $c["ties_up"], $c["product_ties"], $c["product_ties_up"]
}
END { exit bad || n != 20 }
