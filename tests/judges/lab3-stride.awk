# lab3-stride.awk - lab 3's phenomenon, from stride.csv: with 4-byte words, stride 32 at least
# 8x slower than stride 1 (column 7, ms_median).
BEGIN { FS = "," }
/^3,stride_4byte,1,/ { s1 = $7 }
/^3,stride_4byte,32,/ { s32 = $7 }
END {
    printf "stride 1: %s ms, stride 32: %s ms\n", s1, s32
    exit !(s1 > 0 && s32 >= 8 * s1)
}
