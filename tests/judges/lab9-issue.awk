# lab9-issue.awk - lab 9's machine probe, from issue.csv (14 status; last column
# inst_per_clk_per_sm): an SM issues 2.5 to 4.2 warp instructions a clock.
BEGIN { FS = "," }
$14 == "ok" && $2 == "ffma_chains" && $NF >= 2.5 && $NF <= 4.2 { n++ }
END { exit !n }
