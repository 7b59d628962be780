#!/usr/bin/env bash
# setup.sh - Gradescope runs this once, as root, when it builds the autograder's image (the
# bundle is unpacked in /autograder/source; `make gradescope LAB=N` wrote it for lab @LAB@).
# Installs what grading needs without a GPU - make, a C compiler, python3 and the CUDA 13
# compiler with the headers and libraries the labs link, and cuobjdump, which the static test
# reads the device code with (NVIDIA's apt repository for this Ubuntu) - then builds the kit's trusted objects once, so that each submission costs one
# compile. Where nvcc is already on the PATH, nothing is installed (how tests/class.sh runs it).
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends ca-certificates wget make gcc g++ python3
    . /etc/os-release
    wget -q "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu${VERSION_ID//./}/x86_64/cuda-keyring_1.1-1_all.deb"
    dpkg -i cuda-keyring_1.1-1_all.deb
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends cuda-nvcc-13-0 cuda-cudart-dev-13-0 cuda-cccl-13-0 \
        cuda-driver-dev-13-0 libcublas-dev-13-0 cuda-cuobjdump-13-0
fi
cd "$root/source/kit"
# The kit's own student file, graded once: the trusted build lands in build-grading/.
python3 grading/grade @LAB@ labs/lab@LAB@-*/kernels.cu --no-gpu --work "$root/source/build-grading" \
    --out "$root/source/setup-check"
