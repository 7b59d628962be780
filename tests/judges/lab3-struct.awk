# lab3-struct.awk - lab 3's phenomenon, from struct.csv: SoA faster than AoS at k 2 (column 7,
# ms_median).
BEGIN { FS = "," }
/^3,struct_aos,2,/ { aos = $7 }
/^3,struct_soa,2,/ { soa = $7 }
END {
    printf "k 2: AoS %s ms, SoA %s ms\n", aos, soa
    exit !(soa > 0 && soa < aos)
}
