#!/usr/bin/env bash
# claims.sh: the per-phase comparison of the wavefront with the persistent megakernel
# (docs/claims.md) in one command: for each scene, `raycompact bench` of `auto` (indices, the
# graph loop, --samples-per-frame auto) beside the persistent megakernel for the same samples,
# its JSON into OUT/SCENE.json, then scripts/claims_table.py writes the table (ms a frame per
# phase, the megakernel's ms, the speed-up, the stream bytes a live path) to OUT/claims.md and
# prints it.
#   scripts/claims.sh [--build DIR] [--out DIR] [--backend cuda|cpu] [--frames N]
#                     [--size WxH] [--scenes LIST] [-- BENCH_ARGS...]
# Defaults: build, out/claims, cuda, 8 frames, each scene's own size, the shipped scenes, the
# RTIOW final scene (spheres.json, which tools/gen_spheres writes, at 1200x800 and depth 50) and
# the glTF demo scene under a sky (tools/gen_demo, tools/gen_env, 1280x720), which the build's
# tools write into OUT. LIST: comma-separated names
# of shipped scenes, `rtiow` and `demo`. On the CPU (a check of the pipeline, not a figure)
# there is no megakernel. BENCH_ARGS go to every bench (e.g. -- --shadows stream).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build out=out/claims backend=cuda frames=8 size="" scenes="cornell,spheres,knot,veach_mis,many_lights,rtiow,demo"
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2 && shift 2 ;;
    --out) out=$2 && shift 2 ;;
    --backend) backend=$2 && shift 2 ;;
    --frames) frames=$2 && shift 2 ;;
    --size) size=$2 && shift 2 ;;
    --scenes) scenes=$2 && shift 2 ;;
    --help | -h) usage && exit 0 ;;
    --) shift && break ;;
    *) echo "claims.sh: unknown option '$1' (see --help)" >&2 && exit 2 ;;
    esac
done
case $backend in cuda | cpu) ;; *) echo "claims.sh: --backend: '$backend' is not one of: cuda, cpu" >&2 && exit 2 ;; esac
exe=$build/bin/raycompact
[ -x "$exe" ] || { echo "claims.sh: no $exe: build first (scripts/setup.sh)" >&2 && exit 1; }
mkdir -p "$out"
extra=()
if [ -n "$size" ]; then
    extra+=(--width "${size%x*}" --height "${size#*x}")
fi
mk=()
[ "$backend" = cuda ] && mk=(--megakernel persistent)
IFS=, read -ra list <<<"$scenes"
for s in "${list[@]}"; do
    args=()
    case $s in
    rtiow) # the RTIOW final scene as docs/claims.md renders it: spheres.json, larger and deeper
        args=(--scene scenes/spheres.json --max-depth 50)
        [ -n "$size" ] || args+=(--width 1200 --height 800)
        ;;
    demo)
        [ -f "$out/demo.glb" ] || "$build/bin/gen_demo" --out "$out/demo.glb" >/dev/null
        [ -f "$out/sky.hdr" ] || "$build/bin/gen_env" "$out/sky.hdr" 1024 >/dev/null
        args=(--scene "$out/demo.glb" --env "$out/sky.hdr")
        [ -n "$size" ] || args+=(--width 1280 --height 720)
        ;;
    *)
        [ -f "scenes/$s.json" ] || { echo "claims.sh: no scene '$s' (scenes/$s.json)" >&2 && exit 2; }
        args=(--scene "scenes/$s.json")
        ;;
    esac
    echo "claims.sh: $s" >&2
    "$exe" bench "${args[@]}" "${extra[@]}" --backend "$backend" --algos auto --modes indices \
        --samples-per-frame auto --frames "$frames" --warmup 1 "${mk[@]}" "$@" --json "$out/$s.json" \
        >"$out/$s.log" 2>&1 || { echo "claims.sh: bench on $s failed:" >&2 && tail -3 "$out/$s.log" >&2 && exit 1; }
done
python3 scripts/claims_table.py "$out" "${list[@]}" >"$out/claims.md.tmp"
mv "$out/claims.md.tmp" "$out/claims.md"
cat "$out/claims.md"
