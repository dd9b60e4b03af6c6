#!/usr/bin/env bash
# gpu_check.sh OUTDIR [quick|app|fat]: on a machine with a CUDA GPU, configure and build (sm_90),
# run the GPU tests, compute-sanitizer on the removal-list and context tests' quick cases, and the
# benchmarks behind the CUDA backend's targets. `app`: the path tracer's GPU tests and the
# benchmarks behind its targets instead (scripts/app_targets.sh). `fat`: the library alone
# (cmake -S compaction) as the fat binary a machine without a GPU builds by default, and its GPU
# tests on this GPU. Logs and JSON go to OUTDIR; a summary is printed.
# Debian -dev packages unpacked with `dpkg -x` under .deps/root are used when present (for
# machines without them; scripts/setup.sh installs them the usual way).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_check.sh OUTDIR}
mkdir -p "$out"
args=()
. scripts/gpu_deps.sh
if [ "${2:-}" = fat ]; then
    f=build-gpu-fat
    cmake -S compaction -B $f -G Ninja -DCMAKE_BUILD_TYPE=Release -DRAYCOMPACT_WERROR=ON \
        -DCMAKE_CUDA_ARCHITECTURES="75-real;80-real;86-real;89-real;90-real;90-virtual" \
        >"$out/configure_fat.log" 2>&1 || { tail -30 "$out/configure_fat.log"; exit 1; }
    cmake --build $f -j "$(nproc)" >"$out/build_fat.log" 2>&1 ||
        { grep -B2 -A8 error "$out/build_fat.log" | head -60; exit 1; }
    ctest --test-dir $f -L gpu --output-on-failure >"$out/ctest_fat.log" 2>&1
    echo "ctest (fat binary) rc=$?"; grep -E "tests passed|failed out of|\(Failed\)" "$out/ctest_fat.log"
    exit 0
fi
b=build-gpu
gpu_build "$out/build.log" || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
if [ "${2:-}" = app ]; then
    rm -f "$out/configure.log" "$out/build.log" # built: keep the file slots for results
    ctest --test-dir $b -L gpu -R '^app' --output-on-failure >"$out/ctest_app.log" 2>&1
    echo "ctest app rc=$?"; grep -E "tests passed|failed out of|\(Failed\)|megakernel:|identical with|check failed" "$out/ctest_app.log"
    san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    "$san" --tool memcheck --error-exitcode 1 $b/tests/test_gpu_agree scenes/cornell.json 16 16 4 1 \
        --algorithms >"$out/san_app.log" 2>&1
    echo "memcheck test_gpu_agree cornell 16x16 --algorithms rc=$? $(tail -1 "$out/san_app.log")"
    cat "$out/san_app.log" >>"$out/ctest_app.log"
    "$san" --tool memcheck --error-exitcode 1 $b/tests/test_gpu_agree scenes/spheres.json 24 16 4 1 \
        >"$out/san_app.log" 2>&1
    echo "memcheck test_gpu_agree spheres 24x16 rc=$? $(tail -1 "$out/san_app.log")"
    cat "$out/san_app.log" >>"$out/ctest_app.log"
    rm -f "$out/san_app.log" # its logs are in ctest_app.log
    exec bash scripts/app_targets.sh $b/bin/raycompact "$out"
fi
echo "== ctest -L gpu"
ctest --test-dir $b -L gpu --output-on-failure >"$out/ctest_gpu.log" 2>&1
echo "ctest rc=$?"; grep -E "tests passed|Failed|failed out of|\(Failed\)|Skipped" "$out/ctest_gpu.log"
grep -hE "passed, [0-9]+ failed" "$out/ctest_gpu.log" | sort | uniq -c | head -30
echo "== sanitizer (remove + context, quick)"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in test_remove test_gpu_context; do
    a="--quick"
    [ $t = test_remove ] && a="--backend cuda --quick"
    for tool in memcheck racecheck; do
        # shellcheck disable=SC2086
        "$san" --tool $tool --error-exitcode 1 $b/compaction/tests/$t $a >"$out/san_${t}_$tool.log" 2>&1
        echo "$tool $t rc=$? $(tail -1 "$out/san_${t}_$tool.log")"
    done
done
[ "${2:-}" = quick ] && exit 0
echo "== bench"
c=$b/bin/compact
$c bench --backend cuda --algos cub,single-pass --n 2^20,2^24,2^26,2^28 --removed 0.02,0.1,0.5,0.9 \
    --elem 4 --json "$out/bench_4b.json" --quiet 2>/dev/null | tail -60
$c bench --backend cuda --algos cub,single-pass --n 2^21,2^23,2^25 --removed 0.1,0.5,0.9 \
    --elem 32 --json "$out/bench_32b.json" --quiet 2>/dev/null | tail -40
$c bench --backend cuda --algos cub,horn,jumping-jack,rlz,binary-tree,spataro,billeter,scan-scatter,atomic \
    --n 2^26 --removed 0.1,0.5,0.9 --tile 256,1024 --scan hillis-steele --json "$out/bench_tiles.json" \
    --quiet 2>/dev/null | tail -60
$c bench --backend cuda --algos redzone --n 2^28 --removed 0.02,0.1,0.5 --order random,slot \
    --json "$out/bench_redzone.json" --quiet 2>/dev/null | tail -30
# Per call inside a captured CUDA graph, n read from the device (target: single-pass on 2^20
# 4-byte elements <= 5 us per call).
$c bench --backend cuda --algos cub,single-pass,redzone --n 2^20 --removed 0.1,0.5 --graph \
    --json "$out/bench_graph.json" --quiet 2>/dev/null | tail -30
