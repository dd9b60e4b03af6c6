#!/usr/bin/env bash
# gpu_auto.sh OUTDIR [tune|eval|render|partition|all]: on a CUDA machine, the measurements behind
# `auto` and the multi-way partition, each into OUTDIR:
#   tune:      compact bench --tune over n 2^8..2^24 (every 2^2), elements 4/16/64, 1-99 %
#              removed, with and without removal lists, tiles 64/256/1024, median of 21 runs
#              (fewer where they would take over 4 ms): sm_90.json (the table) and tune_fixed.json
#              (every fixed algorithm's times: `compact bench --tune --from tune_fixed.json`
#              derives the table again without a GPU).
#   eval:      auto (with OUTDIR/sm_90.json when the tune wrote one, else the built-in table)
#              and every fixed algorithm in one process, over the target's range (n 2^16..2^28,
#              mostly points the tune did not see; 1, 10, 35, 65, 90, 99 % removed; elements
#              4/16/64; 2^28 at 4 bytes and 1/35/90 % only, where each check moves gigabytes):
#              same_*.json, and compaction/tools/auto_eval.py over all of them.
#              AUTO_EVAL_SMALL_ONLY=1: n 2^16..2^21 only.
#   render:    raycompact bench of every shipped scene at its default size, both modes, every
#              fixed algorithm and auto (graph loop, one sample per wave, depth 16), and the
#              Cornell box at 1920x1080, depth 8, payload: compaction time of auto against
#              single-pass; every scene with and without --sort-materials.
#   partition: compact bench --partition 4 at 2^20 and 2^26, 4- and 16-byte elements.
# Builds into build-gpu (sm_90) with scripts/gpu_deps.sh's packages. Logs: OUTDIR/*.log.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_auto.sh OUTDIR [tune|eval|render|partition|all]}
what=${2:-all}
mkdir -p "$out"
args=()
. scripts/gpu_deps.sh
b=build-gpu
gpu_build "$out/build_auto.log" raycompact compact || exit 1 # nothing to do when up to date
c=$b/bin/compact
rc=$b/bin/raycompact

if [ "$what" = tune ] || [ "$what" = all ]; then
    t=$SECONDS
    timeout 330 $c bench --tune --backend cuda --n 2^8,2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24 \
        --elem 4,16,64 --removed 0.01,0.05,0.2,0.5,0.8,0.99 --tile 64,256,1024 --runs 21 \
        --warmup 2 --budget-ms 4 --quiet --out "$out/sm_90.json" --json "$out/tune_fixed.json" \
        >"$out/tune.log" 2>&1
    echo "== tune rc=$? in $((SECONDS - t)) s"
    tail -3 "$out/tune.log"
fi

if [ "$what" = eval ] || [ "$what" = all ]; then
    policy=()
    [ -s "$out/sm_90.json" ] && policy=(env SC_POLICY="$out/sm_90.json")
    removed=0.01,0.1,0.35,0.65,0.9,0.99
    same() { # NAME SECONDS ARGS...: auto beside every fixed algorithm in one process
        local name=$1 limit=$2 t=$SECONDS
        shift 2
        timeout "$limit" "${policy[@]}" $c bench --backend cuda --algos all --removed $removed \
            --quiet --json "$out/same_$name.json" "$@" >"$out/same_$name.log" 2>&1
        echo "== same_$name rc=$? in $((SECONDS - t)) s: $*"
    }
    same small 200 --n 2^16,2^17,2^19,2^21 --elem 4,16,64 --tile 64,256,1024 --runs 31 --warmup 3
    [ "${AUTO_EVAL_SMALL_ONLY:-0}" = 1 ] || {
        same large23 200 --n 2^23 --elem 4,16,64 --runs 15 --warmup 2
        same large25 250 --n 2^25 --elem 4,16,64 --runs 11 --warmup 2
        removed=0.01,0.35,0.9 same huge 200 --n 2^28 --elem 4 --runs 11 --warmup 2
    }
    python3 - "$out"/same_*.json >"$out/same.json" <<'PY'
import json, sys
docs = [json.load(open(p)) for p in sys.argv[1:]]
docs[0]["records"] = [r for d in docs for r in d["records"]]
json.dump(docs[0], sys.stdout)
PY
    python3 compaction/tools/auto_eval.py "$out/same.json" "$out/same.json" --worst 12
fi

if [ "$what" = render ] || [ "$what" = all ]; then
    bench() {
        local name=$1
        shift
        timeout 200 "$rc" bench --backend cuda "$@" --json "$out/r_$name.json" \
            >"$out/r_$name.log" 2>&1
        echo "== $name rc=$?: raycompact bench $*" >>"$out/render.txt"
        sed -n '/ frame ms /,$p' "$out/r_$name.log" >>"$out/render.txt"
    }
    for s in cornell spheres knot veach_mis many_lights; do
        bench "$s" --scene scenes/$s.json --max-depth 16 --samples-per-wave 1 --frames 24 \
            --warmup 4 --algos all --modes indices,payload
    done
    bench cornell1080_d8 --scene scenes/cornell.json --width 1920 --height 1080 --max-depth 8 \
        --frames 10 --warmup 2 --algos single-pass,redzone,cub,atomic,auto --modes payload,indices
    for s in cornell spheres knot veach_mis many_lights; do
        bench "${s}_sorted" --scene scenes/$s.json --max-depth 16 --samples-per-wave 1 \
            --frames 8 --warmup 2 --algos none,single-pass,auto --modes indices,payload \
            --sort-materials
    done
    python3 scripts/render_digest.py "$out"/r_*.json
fi

if [ "$what" = partition ] || [ "$what" = all ]; then
    $c bench --partition 4 --backend cuda --n 2^20,2^26 --elem 4,16 --quiet \
        >"$out/partition.log" 2>&1
    echo "== compact bench --partition 4 rc=$?"
    cat "$out/partition.log"
fi
