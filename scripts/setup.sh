#!/usr/bin/env bash
# setup.sh: install the Debian packages the build needs (when missing), configure and build.
# Usage: scripts/setup.sh [BUILD_DIR]   (default: build)
# Environment: RAYCOMPACT_CMAKE_ARGS adds CMake arguments (e.g. -DRAYCOMPACT_CUDA=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

# Tools by command, libraries by package name.
pkgs=()
command -v cmake >/dev/null || pkgs+=(cmake)
command -v ninja >/dev/null || pkgs+=(ninja-build)
command -v pkg-config >/dev/null || pkgs+=(pkg-config)
command -v python3 >/dev/null || pkgs+=(python3)
command -v cc >/dev/null || pkgs+=(gcc)
command -v c++ >/dev/null || pkgs+=(g++)
for p in libcjson-dev libstb-dev libsdl2-dev libepoxy-dev xvfb xauth libgl1-mesa-dri \
    python3-matplotlib python3-pytest libopenmpi-dev openmpi-bin; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || pkgs+=("$p")
done
if [ ${#pkgs[@]} -gt 0 ]; then
    echo "setup: installing ${pkgs[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
fi

# nvcc is optional: the CUDA backend is built when it is found (also in /usr/local/cuda).
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"

# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRAYCOMPACT_WERROR=ON \
    ${RAYCOMPACT_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
