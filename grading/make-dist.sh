#!/bin/sh
# make-dist.sh TARBALL - the student copy of the kit (`make dist` calls this).
#
# Takes the checkout's files (tracked, or new and not ignored), leaves out what students
# must not have - solutions/ (masters and answer keys), grading/private/ (secret seeds and
# sizes), tests/fixtures/ (planted bugs written against the solutions) - and what is for
# the kit's maintainers (CONTRIBUTING.md: how a lab is made from its solution), and packs the
# rest as gpu-memlab-student/ in TARBALL. The copy's README.md is grading/student-README.md
# (what a student does, hands in and checks), in place of the instructors'. In that copy each
# tests/labN.sh starts with a guard: a lab's own checks compare against solutions/, so there
# they are skipped with one line. The copy's Makefile finds no solutions/ and offers no
# instructors' target (make help; each says so in one line). Fails if a solution marker is
# left in the copy's labs/ or handouts/.
set -eu
tarball=$1
name=$(basename "$tarball" .tar.gz)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
copy=$stage/$name
mkdir -p "$copy" "$(dirname "$tarball")"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard
else
    find . -type f ! -path './.git/*' ! -path './build*' ! -path './results/*' ! -path './dist/*' \
        ! -path './plots/lab*' | sed 's|^\./||'
fi | grep -v -E '^(solutions/|grading/private/|tests/fixtures/|dist/|CONTRIBUTING\.md$|grading/student-README\.md$|README\.md$)' |
    grep -v '__pycache__' |
    while IFS= read -r f; do
        [ -f "$f" ] || continue # tracked but deleted in the working tree
        mkdir -p "$copy/$(dirname "$f")"
        cp -p "$f" "$copy/$f"
    done

cp grading/student-README.md "$copy/README.md"

for t in "$copy"/tests/lab[0-9]*.sh; do
    [ -e "$t" ] || continue
    n=$(basename "$t" .sh)
    { printf '# Student copy (make dist): the checks below compare against solutions/, which this\n'
      printf '# copy does not have; the instructors run them.\n'
      printf 'if [ ! -d solutions ]; then skip "%s checks that need the solution" "student copy"; return 0; fi\n' "$n"
      cat "$t"; } >"$t.new"
    mv "$t.new" "$t"
done

if grep -rl -e '//@begin solution' -e '//@student' "$copy/labs" "$copy/handouts" >"$stage/leaks" 2>/dev/null; then
    echo "make dist: solution markers in the student copy:" >&2
    cat "$stage/leaks" >&2
    exit 1
fi
tar -C "$stage" -czf "$tarball" "$name"
echo "wrote $tarball ($(find "$copy" -type f | wc -l) files; no solutions/, grading/private/ or tests/fixtures/)"
