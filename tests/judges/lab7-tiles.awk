# lab7-tiles.awk - lab 7's phenomenon, from tiles.csv: the better of the two 16x16 tiled
# kernels beats the untiled one (column 12, gflops).
BEGIN { FS = "," }
/^7,untiled,/ { u = $12 }
/^7,tiled_16(_unrolled)?,/ && $12 > t { t = $12 }
END {
    printf "untiled: %s GFLOP/s, best 16x16: %s GFLOP/s\n", u, t
    exit !(u > 0 && t > u)
}
