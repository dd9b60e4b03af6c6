#!/usr/bin/env bash
# app_targets.sh RAYCOMPACT OUTDIR: the path tracer's benchmarks on a CUDA GPU, one per target
# of the README's performance table; JSON and logs go to OUTDIR, a summary is printed.
#   spheres 1200x800, 10 spp, depth 50: against the megakernel baseline (no BVH)
#   cornell 1920x1080, depth 8: extension rays per second
#   spheres depth 16: compaction's share of the frame and frames/s against `none`, at one
#   sample per pixel per wave (1200x800 and 1920x1080) and with waves of 2^24 paths
set -uo pipefail
rc=${1:?usage: app_targets.sh RAYCOMPACT OUTDIR}
out=${2:?usage: app_targets.sh RAYCOMPACT OUTDIR}
mkdir -p "$out"
summary() { sed -n '/ frame ms /,$p' "$1"; grep -m3 -E "error|raycompact bench:" "$1"; }
run() {
    local name=$1
    shift
    echo "== $name: raycompact bench $*"
    "$rc" bench --backend cuda "$@" --json "$out/$name.json" >"$out/$name.log" 2>&1
    echo "rc=$?"
    summary "$out/$name.log"
    { echo "== $name: raycompact bench $*"; cat "$out/$name.log"; } >>"$out/bench.log"
    rm -f "$out/$name.log"
}
spheres=scenes/spheres.json cornell=scenes/cornell.json
run mega --scene $spheres --width 1200 --height 800 --max-depth 50 --samples-per-wave 10 \
    --frames 3 --warmup 1 --megakernel objects,flat --algos none,single-pass,cub,redzone \
    --modes indices,payload
run cornell --scene $cornell --width 1920 --height 1080 --max-depth 8 --frames 5 --warmup 1 \
    --algos none,single-pass,cub,scan-scatter --modes indices,payload --samples-per-wave 1
run cornell_wave --scene $cornell --width 1920 --height 1080 --max-depth 8 --frames 3 --warmup 1 \
    --algos none,single-pass,cub --modes indices,payload --samples-per-wave auto
run spheres16 --scene $spheres --width 1200 --height 800 --max-depth 16 --frames 9 --warmup 2 \
    --algos all --modes indices,payload --samples-per-wave 1
run spheres16_1080p --scene $spheres --width 1920 --height 1080 --max-depth 16 --frames 9 \
    --warmup 2 --algos none,single-pass,cub,atomic,billeter --modes indices,payload \
    --samples-per-wave 1
run spheres16_wave --scene $spheres --width 1200 --height 800 --max-depth 16 --frames 5 \
    --warmup 1 --algos all --modes indices,payload --samples-per-wave auto
