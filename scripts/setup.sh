#!/usr/bin/env bash
# setup.sh: install the Debian packages a profile needs (when missing), configure and build.
# Usage: scripts/setup.sh [demo|test] [BUILD_DIR]   (default: test, build)
#   demo: the compiler, CMake, cJSON, stb and zlib; SDL2 and libepoxy (the viewer) only where a
#         display is set (DISPLAY or WAYLAND_DISPLAY). Builds the programs: raycompact and compact.
#   test: what every test needs as well: the viewer's libraries, Xvfb and Mesa (the viewer's test
#         in a virtual X server), Python with pytest and matplotlib (the report's tests and
#         plots), Open MPI (render and bench over ranks), the Khronos glTF samples of
#         assimp-testmodels (the glTF reader's test). Builds everything.
# Packages come without their recommendations (apt-get --no-install-recommends).
# Environment: RAYCOMPACT_CMAKE_ARGS adds CMake arguments (e.g. -DRAYCOMPACT_CUDA=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
profile="test"
case "${1:-}" in
demo | test) profile=$1 && shift ;;
esac
build=${1:-build}

# Tools by command, libraries by package name.
pkgs=()
command -v cmake >/dev/null || pkgs+=(cmake)
command -v ninja >/dev/null || pkgs+=(ninja-build)
command -v pkg-config >/dev/null || pkgs+=(pkg-config)
command -v cc >/dev/null || pkgs+=(gcc)
command -v c++ >/dev/null || pkgs+=(g++)
libs=(libcjson-dev libstb-dev zlib1g-dev)
if [ "$profile" = test ]; then
    command -v python3 >/dev/null || pkgs+=(python3)
    libs+=(libsdl2-dev libepoxy-dev xvfb xauth libgl1-mesa-dri python3-matplotlib python3-pytest
        libopenmpi-dev openmpi-bin assimp-testmodels)
elif [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    libs+=(libsdl2-dev libepoxy-dev)
fi
for p in "${libs[@]}"; do
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
targets=()
[ "$profile" = demo ] && targets=(--target raycompact compact gen_demo gen_env)
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
