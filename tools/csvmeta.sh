#!/bin/sh
# csvmeta.sh FILE KEY - print the value of KEY from a results CSV's comment header
# ("# gpu: NVIDIA H100 80GB HBM3", "# cc: 9.0 | sms: 132 | ..."). Plot scripts use it to
# title figures with the GPU's name and to draw the ceiling measured in the same run.
awk -v key="$2" '
    /^#/ {
        line = substr($0, 2)
        n = split(line, fields, "|")
        for (i = 1; i <= n; i++) {
            f = fields[i]
            sub(/^ +/, "", f); sub(/ +$/, "", f)
            colon = index(f, ": ")
            if (colon && substr(f, 1, colon - 1) == key) { print substr(f, colon + 2); exit }
        }
    }' "$1"
