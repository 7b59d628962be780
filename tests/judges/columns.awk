# columns.awk - loaded before a judge of a results CSV: fields split at commas, comment lines
# skipped, and c[NAME] the column of each name in the header line (lab,variant,param,...).
#   awk -f tests/judges/columns.awk -f tests/judges/JUDGE.awk FILE.csv
BEGIN { FS = "," }
/^#/ { next }
!header_seen { for (i = 1; i <= NF; i++) c[$i] = i; header_seen = 1; next }
