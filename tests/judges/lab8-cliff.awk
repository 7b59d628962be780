# lab8-cliff.awk - lab 8's phenomenon, from cliff.csv (columns 3 param: X, 14 status, 18
# gstencil_s, 19 cliff_nx: the X of the predicted L2 cliff): v1_base's best speed from the
# predicted cliff on is below 85% of its best well before it (X at most 0.3 of the prediction).
BEGIN { FS = "," }
/^8,v1_base,/ && $14 == "ok" {
    if ($3 <= 0.3 * $19) { before = $18 > before ? $18 : before }
    if ($3 >= $19) { after = $18 > after ? $18 : after }
}
END {
    printf "before the cliff: %s Gpoints/s, from the predicted cliff on: %s Gpoints/s\n", before, after
    exit !(before > 0 && after > 0 && after < 0.85 * before)
}
