# lab9-latency.awk - lab 9's machine probe, from latency.csv (14 status; next to last column
# ns_per_hop): a DRAM load takes 200 to 1000 ns.
BEGIN { FS = "," }
$14 == "ok" && $2 == "chase_page_by_page" && $(NF - 1) >= 200 && $(NF - 1) <= 1000 { n++ }
END { exit !n }
