# mkstudent.awk - make a student kernels.cu from a solution master.
#
#   awk -f tools/mkstudent.awk solutions/lab1-coalescing/kernels.cu > labs/lab1-coalescing/kernels.cu
#
# A solution region is
#       //@begin solution
#       //@todo TODO(1b): what the student has to write      -> kept as "// TODO(1b): ..."
#       ...solution code...                                   -> removed
#       //@student return LAB_NOT_IMPLEMENTED;                -> kept as "return LAB_NOT_IMPLEMENTED;"
#       //@end solution
# Marker lines keep their indentation. Everything outside regions is copied as it is.
# Nested, unclosed or stray markers are errors (exit 1, with the line number).

function fail(msg) {
    printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
    exit 1
}

function indent_of(line) {
    match(line, /^[ \t]*/)
    return substr(line, 1, RLENGTH)
}

/^[ \t]*\/\/@begin solution[ \t]*$/ {
    if (inside) fail("solution region opened inside another (opened at line " start ")")
    inside = 1; start = FNR
    next
}
/^[ \t]*\/\/@end solution[ \t]*$/ {
    if (!inside) fail("'//@end solution' without a region open")
    inside = 0
    next
}
/^[ \t]*\/\/@todo( |$)/ {
    if (!inside) fail("'//@todo' outside a solution region")
    line = $0; ind = indent_of(line)
    text = substr(line, length(ind) + 1); sub(/^\/\/@todo ?/, "", text)
    print ind "// " text
    next
}
/^[ \t]*\/\/@student( |$)/ {
    if (!inside) fail("'//@student' outside a solution region")
    line = $0; ind = indent_of(line)
    text = substr(line, length(ind) + 1); sub(/^\/\/@student ?/, "", text)
    print ind text
    next
}
/\/\/@/ { fail("unknown marker: " $0) }
{ if (!inside) print }
END {
    if (!failed && inside) { FNR = start; fail("solution region opened here is never closed") }
}
