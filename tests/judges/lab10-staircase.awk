# lab10-staircase.awk - after columns.awk, on lab 10's staircase.csv (--modes): the 1025
# points of the 8-bit weights' staircase, every one ok.
{ n++; if ($c["status"] != "ok") bad = 1 }
END { exit bad || n != 1025 }
