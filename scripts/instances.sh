#!/usr/bin/env bash
# instances.sh: render the scene of 10^9 instanced triangles: 1000 instances (a 10 x 10 x 10
# grid, tools/gen_instances) of a knot of 1024000 triangles (tools/gen_knot 10240 50), both
# written into BUILD_DIR/instances on the first run (never committed), then rendered with
# --stats (load, instances, memory). Build first (scripts/setup.sh or cmake --build).
# Usage: scripts/instances.sh [BUILD_DIR [render options...]]   (default: build, --backend cuda)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
dir="$build/instances"
mkdir -p "$dir" out

[ -f "$dir/knot.glb" ] || "$build/bin/gen_knot" 10240 50 --glb "$dir/knot.glb"
[ -f "$dir/instances.json" ] || "$build/bin/gen_instances" --mesh knot.glb --out "$dir/instances.json"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--backend cuda)
"$build/bin/raycompact" render --scene "$dir/instances.json" --out out/instances.png --stats \
    "${args[@]}"
echo "wrote out/instances.png"
