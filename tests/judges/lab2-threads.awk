# lab2-threads.awk - lab 2's phenomenon, from threads.csv (columns 3 param: threads, 11 gbps,
# 18 resident_threads): one warp at least 20x slower than the full GPU (the first thread
# count that fills it), float4 at least 2x float at one warp.
BEGIN { FS = "," }
$2 == "rmw_float" && $3 == 32 { warp = $11 }
$2 == "rmw_float" && $3 >= $18 && full == "" { full = $11; at = $3 }
$2 == "rmw_float4" && $3 == 32 { warp4 = $11 }
END {
    printf "rmw_float: 1 warp %s GB/s, %s threads %s GB/s; rmw_float4: 1 warp %s GB/s\n", warp, at, full, warp4
    exit !(warp > 0 && full >= 20 * warp && warp4 >= 2 * warp)
}
