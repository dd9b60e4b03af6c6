#!/usr/bin/env bash
# gpu_frame.sh OUTDIR [tests|bench|all]: on a machine with a CUDA GPU, build (sm_90) and check the
# device-resident frame loop: the app's GPU tests, the library's graph-capture and quick GPU tests,
# compute-sanitizer on the new kernels, then the frame-loop benchmarks (host against graph in one
# run, every shipped scene at one sample per wave, the megakernel baselines, compact bench --graph).
# Logs and JSON go to OUTDIR; a summary is printed. Unpacked Debian packages under .deps/root are
# used when present (see gpu_check.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_frame.sh OUTDIR [tests|bench|all]}
what=${2:-all}
mkdir -p "$out"
args=()
. scripts/gpu_deps.sh
b=build-gpu
gpu_build "$out/build.log" || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
log=$out/tests.log
if [ "$what" != bench ]; then
    echo "== tests"
    # the new GPU code: frame loops (every algorithm, mode and loop), graphs, partition, auto,
    # the probe; each test at most 150 s (compaction.flagged.cuda.* hold streams of 2^27 + 13
    # elements: CUDA against the CPU specification runs below, on the quick matrix)
    timeout 330 ctest --test-dir $b -L gpu --timeout 150 --output-on-failure \
        -R "${GPU_TESTS:-app\.|gpu_graph|partition\.cuda|auto\.cuda|probe|gpu_context}" >"$log" 2>&1
    echo "ctest rc=$?"
    grep -E "tests passed|failed out of|\(Failed\)|\(Timeout\)|\(Not Run\)|check failed|differs" "$log" | head -30
    grep -hE "^[a-z_]+( --backend [a-z]+)?: [0-9]+ passed, [0-9]+ failed" "$log" | sort | uniq -c |
        head -40
    for t in test_flagged test_remove; do
        timeout 60 $b/compaction/tests/$t --backend cuda --quick >>"$log" 2>&1
        echo "$t --backend cuda --quick rc=$? $(tail -1 "$log")"
    done
    for t in "test_gpu_graph --quick" "test_partition --backend cuda --quick"; do
        for tool in memcheck racecheck; do
            # shellcheck disable=SC2086
            timeout 60 "$san" --tool $tool --error-exitcode 1 $b/compaction/tests/$t \
                >"$out/san.log" 2>&1
            echo "$tool $t rc=$? $(tail -1 "$out/san.log")"
            cat "$out/san.log" >>"$log"
        done
    done
    timeout 100 $b/tests/test_gpu_agree scenes/cornell.json 64 64 64 0.012 --algorithms \
        >"$out/agree.log" 2>&1
    echo "test_gpu_agree cornell --algorithms rc=$? $(tail -1 "$out/agree.log")"
    timeout 90 "$san" --tool memcheck --error-exitcode 1 $b/tests/test_gpu_agree \
        scenes/cornell.json 16 16 2 1 >"$out/san.log" 2>&1
    echo "memcheck test_gpu_agree cornell 16x16 rc=$? $(tail -1 "$out/san.log")"
    cat "$out/san.log" >>"$log"
    rm -f "$out/san.log"
fi
[ "$what" = tests ] && exit 0
rc=$b/bin/raycompact
bench() {
    local name=$1
    shift
    timeout 150 "$rc" bench --backend cuda "$@" --json "$out/$name.json" >"$out/$name.log" 2>&1
    echo "== $name rc=$?: raycompact bench $*"
    sed -n '/ frame ms /,$p' "$out/$name.log"
    cat "$out/$name.log" >>"$out/bench.log"
    rm -f "$out/$name.log"
}
algos=none,single-pass,cub,atomic,redzone,horn,auto
for s in knot spheres cornell; do
    bench "${s}_1spp" --scene scenes/$s.json --max-depth 16 --samples-per-wave 1 --frames 15 \
        --warmup 3 --algos $algos --modes indices,payload --frame-loop host,stream,graph
    bench "${s}_nospread" --scene scenes/$s.json --max-depth 16 --samples-per-wave 1 \
        --frames 15 --warmup 3 --algos none,single-pass,atomic --modes indices \
        --frame-loop host,graph --spread off
done
bench cornell_bsdf --scene scenes/cornell.json --max-depth 16 --samples-per-wave 1 --frames 15 \
    --warmup 3 --algos none,single-pass,atomic --modes indices --frame-loop host,graph \
    --light-sampling bsdf
bench spheres_720p --scene scenes/spheres.json --width 1280 --height 720 --max-depth 16 \
    --samples-per-wave 1 --frames 15 --warmup 3 --algos none,single-pass,atomic,auto \
    --modes indices --frame-loop host,graph
bench mega --scene scenes/spheres.json --width 1200 --height 800 --max-depth 50 \
    --samples-per-wave 10 --frames 3 --warmup 1 --megakernel objects,flat \
    --algos none,single-pass,atomic --modes indices --frame-loop host,graph
# --sort-materials: every shipped scene with and without the partition by material before shade
for s in cornell spheres knot veach_mis many_lights; do
    for sort in unsorted sorted; do
        bench "${s}_$sort" --scene scenes/$s.json --max-depth 16 --samples-per-wave 1 --frames 15 \
            --warmup 3 --algos none,single-pass,auto --modes indices,payload --frame-loop host,graph \
            $([ $sort = sorted ] && echo --sort-materials)
    done
done
c=$b/bin/compact
if $c bench --help 2>&1 | grep -q -- --graph; then
    $c bench --backend cuda --algos cub,single-pass,scan-scatter,redzone --n 2^20 --elem 4 \
        --removed 0.1,0.5 --graph --json "$out/compact_graph.json" >"$out/compact_graph.log" 2>&1
    echo "== compact bench --graph rc=$?"
    tail -20 "$out/compact_graph.log"
fi
# at most a few files come back from a GPU machine: the JSON of every run in one archive
if ls "$out"/*.json >/dev/null 2>&1; then
    tar czf "$out/bench_json.tgz" -C "$out" $(cd "$out" && ls *.json) && rm -f "$out"/*.json
fi
