# lab1-stride.awk - lab 1's phenomenon, from stride.csv: stride 32 gives at most a quarter of
# stride 1's useful bandwidth (column 11, gbps).
BEGIN { FS = "," }
/^1,copy_strided,1,/ { s1 = $11 }
/^1,copy_strided,32,/ { s32 = $11 }
END {
    printf "stride 1: %s GB/s, stride 32: %s GB/s\n", s1, s32
    exit !(s1 > 0 && s32 > 0 && s1 >= 4 * s32)
}
