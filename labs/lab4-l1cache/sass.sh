#!/bin/sh
# sass.sh [DIR]      the global loads of every kernel in DIR/kernels_ca.o and DIR/kernels_cg.o
# sass.sh --trap     the same for trap.cu (const __restrict__), compiled here both ways
#
# What -dlcm changed, in the machine code (SASS) the GPU runs: one line per build and kernel,
#     ca  stencil_1d_kernel  LDG.E.STRONG.SM x31
# DIR defaults to the solution's build folder (make lab4-build SOLUTION=1), else the student's.
# ARCH=sm_90 picks one architecture's code in a portable (fat) build; NVCC for --trap.
# Needs cuobjdump and nvdisasm (CUDA toolkit; or `pip install nvidia-cuda-cuobjdump
# nvidia-cuda-nvdisasm`, which this script also finds). Without them: one line, exit 0.
set -u
here=$(dirname "$0")
found_tools() {
    command -v cuobjdump >/dev/null 2>&1 && command -v nvdisasm >/dev/null 2>&1 && return 0
    for d in $(python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null); do
        for b in "$d"/cu*/bin; do
            if [ -x "$b/cuobjdump" ] && [ -x "$b/nvdisasm" ]; then PATH=$b:$PATH; export PATH; return 0; fi
        done
    done
    return 1
}
if ! found_tools; then
    echo "sass: cuobjdump/nvdisasm not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm): no SASS shown"
    exit 0
fi
arch=${ARCH:-}
case $arch in sm_*) ;; *) arch=sm_90 ;; esac # a fat build holds sm_90 among others

# loads BUILD OBJECT: "BUILD KERNEL OPCODE xCOUNT" for every global load opcode of every kernel
loads() {
    cuobjdump -sass -arch "$arch" "$2" 2>/dev/null | awk -v build="$1" '
        /Function :/ {
            name = $3; sub(/^_ZL?/, "", name)
            if (match(name, /^[0-9]+/)) name = substr(name, RLENGTH + 1, substr(name, 1, RLENGTH) + 0)
            kernel = name; next
        }
        kernel != "" && match($0, /LDG(\.[A-Z0-9_]+)*/) { count[kernel " " substr($0, RSTART, RLENGTH)]++ }
        END { for (k in count) print build, k, "x" count[k] }' | sort -k2,2 -k3,3
}

if [ "${1:-}" = "--trap" ]; then
    tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
    for b in ca cg; do
        ${NVCC:-nvcc} -O3 -arch="$arch" -Xptxas -dlcm=$b -c "$here/trap.cu" -o "$tmp/trap_$b.o" || exit 1
        loads $b "$tmp/trap_$b.o"
    done
    exit 0
fi
dir=${1:-$(ls -d build/*/solution/lab4 2>/dev/null | head -n 1)}
[ -n "$dir" ] || dir=$(ls -d build/*/student/lab4 2>/dev/null | head -n 1)
if [ -z "$dir" ] || [ ! -f "$dir/kernels_ca.o" ] || [ ! -f "$dir/kernels_cg.o" ]; then
    echo "sass: no kernels_ca.o and kernels_cg.o in '${dir:-build/*/*/lab4}': run make lab4-build first" >&2
    exit 2
fi
for b in ca cg; do
    loads $b "$dir/kernels_$b.o"
done
