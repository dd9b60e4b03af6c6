#!/usr/bin/env bash
# demo.sh: set up (install, configure, build) and run the main job: with a display, the
# interactive viewer on the Cornell box; without one, a headless render of it (PNG and
# per-phase statistics), a render of the generated glTF demo scene (tools/gen_demo: 32
# materials over 1 M triangles, lit by tools/gen_env's sky, both written into BUILD_DIR/demo on
# the first run) and the
# compaction library's algorithm table.
# Installs and builds only what that needs (scripts/setup.sh demo). On a machine where no GPU
# answers nvidia-smi a new build folder is configured without the CUDA backend, which could
# not run there and whose fat binary takes long to compile.
# Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
if [ ! -f "$build/CMakeCache.txt" ] && ! nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then
    echo "demo: no GPU here: $build is configured for the CPU backend (-DRAYCOMPACT_CUDA=OFF)" >&2
    export RAYCOMPACT_CMAKE_ARGS="-DRAYCOMPACT_CUDA=OFF ${RAYCOMPACT_CMAKE_ARGS:-}"
fi
scripts/setup.sh demo "$build" >&2
rc="$build/bin/raycompact"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && "$rc" view --help >/dev/null 2>&1; then
    exec "$rc" view --scene scenes/cornell.json
fi
mkdir -p out "$build/demo"
"$rc" render --scene scenes/cornell.json --width 384 --height 384 --spp 32 \
    --samples-per-wave auto --out out/cornell.png --stats
echo "wrote out/cornell.png"
[ -f "$build/demo/demo.glb" ] || "$build"/bin/gen_demo --out "$build/demo/demo.glb"
[ -f "$build/demo/sky.hdr" ] || "$build"/bin/gen_env "$build/demo/sky.hdr" 1024
"$rc" render --scene "$build/demo/demo.glb" --env "$build/demo/sky.hdr" --width 480 --height 270 \
    --spp 16 --tonemap aces --out out/demo.png --stats
echo "wrote out/demo.png"
echo
"$build"/bin/compact list
