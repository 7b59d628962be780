# lab5-caps.awk - after columns.awk, on lab 5's caps.csv (param: the register cap, 0 uncapped):
# each of fwd_o8_queue's 8 caps runs with no more registers than its cap, caps 24 and 32 with
# local memory (stack and spill stores), the uncapped kernel without.
$2 == "fwd_o8_queue" && $c["status"] == "ok" {
    if ($3 > 0 && $c["regs"] > $3) { print "cap", $3, "runs with", $c["regs"], "registers"; bad = 1 }
    if (($3 == 24 || $3 == 32) && !($c["stack_bytes"] > 0 && $c["spill_store_bytes"] > 0)) {
        print "cap", $3, "has no local memory"; bad = 1
    }
    if ($3 == 0 && $c["stack_bytes"] != 0) { print "uncapped has local memory"; bad = 1 }
    n++
}
END { exit bad || n != 8 }
