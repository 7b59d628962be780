#!/bin/sh
# lint.sh [LINTER...] - the house style, checked (`make lint`; make test runs each linter as a
# test of its own). LINTER: clang-format, ruff, shellcheck (default: all three).
#   - clang-format: the C and CUDA files against .clang-format, as a dry run (nothing
#     changes); not the generated labs/*/kernels.cu (a test compares them with their masters)
#     nor tests/generator/ (the generator's inputs and its expected output)
#   - ruff: the Python against ruff.toml (.py files and python3 scripts)
#   - ShellCheck: the shell scripts (.sh files and sh or bash scripts), with .shellcheckrc,
#     following the files they source
# Prints what each linter found, then "lint LINTER: OK" or "lint LINTER: FAIL (...)". A linter
# that is not installed fails, with a line saying how to install it. Exit 1 if any failed.
#   sh tools/maint/lint.sh --files c|python|shell    the files a linter reads, one a line
# `make format` applies the C and CUDA style (clang-format -i over these files).
cd "$(dirname "$0")/../.." || exit 2

# every file of the kit: tracked or new in a git checkout, else the folder's own
kit_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . -type f ! -path './.git/*' ! -path './build*' ! -path './results/*' ! -path './dist/*' \
            ! -path './plots/lab*' | sed 's|^\./||'
    fi
}

# files c|python|shell: the files of that kind, one a line, sorted
files() {
    kit_files | sort | while IFS= read -r f; do
        [ -f "$f" ] || continue # tracked, but deleted in the working tree
        case $f in labs/*/kernels.cu | tests/generator/*) [ "$1" = c ] && continue ;; esac
        case $1:${f##*/} in
        c:*.c | c:*.h | c:*.cu | c:*.cuh | python:*.py | shell:*.sh) echo "$f" ;;
        python:*.* | shell:*.*) ;;
        python:*) head -n 1 "$f" | grep -q '^#!.*python' && echo "$f" ;;
        shell:*) head -n 1 "$f" | grep -Eq '^#!(/bin/|/usr/bin/env )(ba)?sh *$' && echo "$f" ;;
        esac
    done
}

# installed NAME HOW: 0 where NAME is on the PATH, else its FAIL line, saying how to get it
installed() {
    command -v "$1" >/dev/null 2>&1 && return 0
    echo "lint $1: FAIL ($1 is not installed: $2)"
    return 1
}

lint_clang_format() {
    installed clang-format "apt-get install clang-format" || return 1
    # clang-format names a place it would change on a line "FILE:LINE:COL: ...": count them
    files c | xargs clang-format --dry-run 2>&1 | awk -F: '
        / code should be clang-formatted / { n[$1]++; total++ }
        END { for (f in n) printf "%s: %d place(s) to format\n", f, n[f] | "sort"
              close("sort"); exit total > 0 }' && { echo "lint clang-format: OK"; return 0; }
    echo "lint clang-format: FAIL (the files above break .clang-format; make format applies it)"
    return 1
}

lint_ruff() {
    installed ruff "python3 -m pip install ruff" || return 1
    files python | xargs ruff check --quiet --output-format concise && { echo "lint ruff: OK"; return 0; }
    echo "lint ruff: FAIL (the findings above; ruff.toml holds the settings)"
    return 1
}

lint_shellcheck() {
    installed shellcheck "apt-get install shellcheck" || return 1
    files shell | xargs shellcheck --external-sources --format gcc && { echo "lint shellcheck: OK"; return 0; }
    echo "lint shellcheck: FAIL (the findings above; a disable comment only with its reason)"
    return 1
}

if [ "${1:-}" = --files ]; then
    case ${2:-} in c | python | shell) files "$2"; exit 0 ;; esac
    echo "usage: lint.sh --files c|python|shell" >&2
    exit 2
fi
[ $# -gt 0 ] || set -- clang-format ruff shellcheck
status=0
for linter in "$@"; do
    case $linter in
    clang-format) lint_clang_format || status=1 ;;
    ruff) lint_ruff || status=1 ;;
    shellcheck) lint_shellcheck || status=1 ;;
    *) echo "usage: lint.sh [clang-format|ruff|shellcheck]... | --files c|python|shell" >&2; exit 2 ;;
    esac
done
exit $status
