#!/usr/bin/env bash
# gpu.sh SUITE [OUTDIR] [ARGS...]: the runs on a machine with a CUDA GPU. Each suite builds what
# it needs for that GPU (build-gpu, sm_90, unless it says otherwise), runs its tests and
# benchmarks, writes logs and JSON to OUTDIR (default out/gpu/SUITE) and prints a summary.
# `scripts/gpu.sh --help` lists the suites.
# Debian -dev packages unpacked with `dpkg -x` under .deps/root are used when present (for
# machines without them; scripts/setup.sh installs them the usual way).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

usage() {
    cat <<'EOF'
usage: scripts/gpu.sh SUITE [OUTDIR] [ARGS...]   (OUTDIR default: out/gpu/SUITE)
suites:
  check            build (sm_90), the GPU tests, compute-sanitizer on the removal-list and
                   context tests' quick cases, the benchmarks behind the CUDA backend's targets
  quick            check without the benchmarks
  tests [full]     build (sm_90, the viewer too where its packages are there) and run the GPU
                   tests (ctest -L gpu, one after another where they share the GPU), printing
                   each test's time and the total; `full` adds the exhaustive matrices
                   (label cuda-full: minutes per algorithm); RC_CTEST_ARGS adds ctest
                   arguments (e.g. "-R ^app" or "-E ^compaction")
  app              the path tracer's GPU tests, memcheck on test_gpu_agree, and the benchmarks
                   behind its targets (scripts/app_targets.sh)
  fat              the library alone (cmake -S compaction) as the fat binary a machine without
                   a GPU builds by default, and its GPU tests on this GPU
  kernels [tests|bench|all]
                   the compaction kernels: the library's GPU tests, compute-sanitizer on every
                   flag algorithm, the renderer's agreement test; compact bench of every
                   algorithm at 2^20 and 2^26 (before/after when .old/compaction holds the
                   sources of an earlier version)
  auto [tune|eval|render|partition|all]
                   the measurements behind `auto` and the multi-way partition: the tune
                   (sm_90.json), auto beside every fixed algorithm, the renderer per scene and
                   algorithm, compact bench --partition
  frame [tests|bench|all]
                   the device-resident frame loop: its GPU tests and sanitizers, then host
                   against graph loops, --spread, megakernels, compact bench --graph
  megakernels      the wavefront against the bvh and persistent megakernels on every shipped
                   scene at 1, 8, 64 and auto samples a frame; a table and a plot
  claims [ARGS]    docs/claims.md's per-phase table: `auto` against the persistent megakernel
                   on every shipped scene, RTIOW and the demo scene (scripts/claims.sh ARGS)
  geometry         the knot at 0.1, 1, 4 and 16 M triangles (OBJ and .glb) and the demo scene
                   at three detail levels per BVH layout: read, BVH and upload ms, SAH cost,
                   bytes per triangle, peak memory, Mrays/s (scripts/bench_geometry.sh)
  mpi [SPP]        render over 1-3 ranks byte for byte (CUDA), 1, 2 and 4 GPUs on spheres
                   3840x2160 (SPP, default 1024): render and wall time (scaling.txt),
                   bench --per-rank
  gpus [SPP...]    several GPUs from one process: whether one process's threads create their
                   CUDA contexts in parallel (tools/cuda_contexts.cu), --gpus 0,0 / 1 / all
                   against one GPU byte for byte, then spheres 3840x2160 depth 16 (SPP, default
                   1024 and 4096) on 1, 2 and 4 GPUs with --gpus beside mpirun -n N: wall time,
                   render time, fixed cost (gpus.txt, copied to docs/bench/gpus.txt); counts
                   the machine lacks are skipped with a message
  profile [BUILD]  Nsight Compute on the kernels furthest from their traffic floor at 2^26
                   (BUILD default build-gpu)
  view             `raycompact view` with SDL2's offscreen driver (EGL, no X server), from the
                   packages scripts/fetch_view_deps.sh downloaded; its frame times
  report           the suites whose output forms docs/bench's report, each into OUTDIR/SUITE:
                   app, kernels bench, profile, auto all, frame bench, megakernels,
                   geometry, view, mpi, gpus
EOF
}

# ---- helpers ----

# use_deps: on a GPU machine without Debian's -dev packages, use the ones unpacked with `dpkg -x`
# under .deps/root (scripts/setup.sh installs them the usual way elsewhere; on a Debian 12 machine
# `apt-get download libcjson-dev libcjson1 libstb-dev zlib1g-dev zlib1g` into .deps/, then
# `for f in .deps/*.deb; do dpkg -x "$f" .deps/root; done`): appends their prefix to the array
# `args` (CMake arguments) and exports the include and library paths.
use_deps() {
    root=$PWD/.deps/root/usr
    if [ -d "$root" ]; then
        # the unpacked cJSON package names /usr/include: point it at the unpacked tree instead
        sed -i "s|\"/usr|\"$root|g" "$root"/lib/x86_64-linux-gnu/cmake/cJSON/*.cmake
        export CPATH="$root/include${CPATH:+:$CPATH}"
        export LD_LIBRARY_PATH="$root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        args+=(-DCMAKE_PREFIX_PATH="$root")
        zlib_lib "$root"
    fi
}

# zlib_lib ROOT: zlib1g-dev's libz.so links to /lib/x86_64-linux-gnu/libz.so.1.2.13 by its absolute
# name, which a machine with another zlib lacks, and CMake then takes the static libz.a, which
# cannot go into a shared library: name the machine's libz.so.1 instead (or zlib1g's, unpacked
# beside it). Appends to the array `args`.
zlib_lib() {
    [ -e "$1/lib/x86_64-linux-gnu/libz.so" ] && return 0
    local z
    for z in /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 \
        "$1/../lib/x86_64-linux-gnu/libz.so.1"; do
        if [ -e "$z" ]; then
            args+=(-DZLIB_LIBRARY="$z")
            return 0
        fi
    done
}

# use_mpi_deps: on a GPU machine without Open MPI, use Debian's Open MPI packages unpacked with
# `dpkg -x` under .deps/mpiroot (download them on a Debian 12 machine with:  apt-get download
# openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libevent-core-2.1-7
# libevent-pthreads-2.1-7 libfabric1 libhwloc15 libibverbs1 libmunge2 libnl-3-200
# libnl-route-3-200 libpsm-infinipath1 libpsm2-2 libucx0 librdmacm1 libxnvctrl0 libltdl7
# libgfortran5 libquadmath0 libnuma1 libudev1  into .deps/mpi/, then
# `for f in .deps/mpi/*.deb; do dpkg -x "$f" .deps/mpiroot; done`: 36 MB; 20 MB without
# usr/share/doc, usr/share/man, the Fortran modules and libraries and openmpi/include/openmpi,
# which a C build and mpirun do not need; keep the .deb files out of .deps to carry less).
# Open MPI is relocatable: OPAL_PREFIX moves its compiled-in /usr; PMIx's plugins are found
# through PMIX_INSTALL_PREFIX and PMIX_MCA_mca_base_component_path. Appends CMake arguments that
# name mpi.h and libmpi directly (no compiler wrapper) to the array `args`. Used when no mpirun
# is installed, or when RC_MPI_DEPS is set.
use_mpi_deps() {
    mpiroot=$PWD/.deps/mpiroot/usr
    if [ -d "$mpiroot" ] && { [ -n "${RC_MPI_DEPS:-}" ] || ! command -v mpirun >/dev/null 2>&1; }; then
        lib=$mpiroot/lib/x86_64-linux-gnu
        mkdir -p "$PWD/.deps/mpibin"
        for t in mpirun mpiexec; do ln -sf "$mpiroot/bin/orterun" "$PWD/.deps/mpibin/$t"; done
        export PATH="$PWD/.deps/mpibin:$mpiroot/bin:$PATH"
        export OPAL_PREFIX=$mpiroot
        export PMIX_INSTALL_PREFIX=$lib/pmix2 PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
        export LD_LIBRARY_PATH="$lib/openmpi/lib:$lib/pmix2/lib:$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        args+=(-DMPI_C_HEADER_DIR="$lib/openmpi/include" -DMPI_C_LIB_NAMES=mpi
            -DMPI_mpi_LIBRARY="$lib/openmpi/lib/libmpi.so" -DMPI_SKIP_COMPILER_WRAPPER=ON)
    fi
}

# median X...: the median of the numbers given (the lower middle one of an even count).
median() {
    printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# gpu_build LOG [TARGET...]: configure build-gpu for sm_90 with the CUDA backend, warnings as
# errors and the packages above (plus what the caller appended to `args`), then build the
# targets (every target when none is named); the output goes to LOG. Prints the build time;
# on failure prints the errors from LOG and returns 1.
gpu_build() {
    local log=$1 t0=$SECONDS
    shift
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DRAYCOMPACT_CUDA=ON -DRAYCOMPACT_WERROR=ON "${args[@]}" >"$log" 2>&1 &&
        cmake --build build-gpu -j "$(nproc)" "${targets[@]}" >>"$log" 2>&1 ||
        { grep -B2 -A12 -E "error|Error" "$log" | head -80; return 1; }
    echo "built in $((SECONDS - t0)) s"
}

# ctest_timed LOG ARGS...: ctest --test-dir build-gpu ARGS into LOG; prints its summary, each
# test's time (slowest first) and the wall time. Returns ctest's exit status.
ctest_timed() {
    local log=$1 t0=$SECONDS rc
    shift
    ctest --test-dir build-gpu --output-on-failure "$@" >"$log" 2>&1
    rc=$?
    grep -E "tests passed|failed out of|\(Failed\)|\(Timeout\)|Skipped" "$log"
    sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) [ .*]+([A-Za-z*]+[A-Za-z ]*) +([0-9.]+) sec$/\3 \1 \2/p' \
        "$log" | sort -rg | awk '{printf "  %8.2f s  %-50s %s\n", $1, $2, $3}'
    echo "ctest $* rc=$rc, wall $((SECONDS - t0)) s"
    return $rc
}

# ---- suites: each runs in a process of its own (scripts/gpu.sh SUITE), `out` is its OUTDIR ----

# check [quick]: the library's GPU tests, compute-sanitizer, its benchmarks.
suite_check() {
    b=build-gpu
    gpu_build "$out/build.log" || exit 1
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "== ctest -L gpu"
    ctest_timed "$out/ctest_gpu.log" -L gpu -j 8
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
    [ "${1:-}" = quick ] && exit 0
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
}

suite_quick() { suite_check quick; }

# tests [full]: the GPU tests with their times; full: the exhaustive matrices after them.
suite_tests() {
    local log=$out/build.log with_view=0
    : >"$log"
    die() {
        echo "gpu.sh tests: $*"
        tail -40 "$log"
        exit 1
    }
    if [ -n "$(ls .deps/view/*.deb 2>/dev/null)" ]; then
        view_setup
        with_view=1
    else
        echo "gpu.sh tests: no packages in .deps/view (scripts/fetch_view_deps.sh): no viewer"
    fi
    gpu_build "$log.build" || exit 1
    cat "$log.build" >>"$log" && rm -f "$log.build"
    if [ $with_view = 1 ]; then
        grep -q "raycompact: viewer ON" "$log" || die "the viewer is not built"
        view_run_env
    fi
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    local rc=0
    echo "== ctest -L gpu ${RC_CTEST_ARGS:-}"
    # shellcheck disable=SC2086
    ctest_timed "$out/ctest_gpu.log" -L gpu -j 8 ${RC_CTEST_ARGS:-} || rc=1
    if [ "${1:-}" = full ]; then
        echo "== ctest -L cuda-full"
        ctest_timed "$out/ctest_full.log" -L cuda-full || rc=1
    fi
    exit $rc
}

# app: the path tracer's GPU tests and the benchmarks behind its targets.
suite_app() {
    b=build-gpu
    gpu_build "$out/build.log" || exit 1
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
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
}

# fat: the library alone as the fat binary a machine without a GPU builds by default.
suite_fat() {
    f=build-gpu-fat
    cmake -S compaction -B $f -G Ninja -DCMAKE_BUILD_TYPE=Release -DRAYCOMPACT_WERROR=ON \
        -DCMAKE_CUDA_ARCHITECTURES="75-real;80-real;86-real;89-real;90-real;90-virtual" \
        >"$out/configure_fat.log" 2>&1 || { tail -30 "$out/configure_fat.log"; exit 1; }
    cmake --build $f -j "$(nproc)" >"$out/build_fat.log" 2>&1 ||
        { grep -B2 -A8 error "$out/build_fat.log" | head -60; exit 1; }
    ctest --test-dir $f -L gpu --output-on-failure >"$out/ctest_fat.log" 2>&1
    echo "ctest (fat binary) rc=$?"; grep -E "tests passed|failed out of|\(Failed\)" "$out/ctest_fat.log"
    exit 0
}

# kernels [tests|bench|all]: the compaction kernels on a CUDA machine.
#   tests: the library's GPU tests (every algorithm's CUDA output against the serial reference
#          and the CPU specification, --quick; removal lists, partition, auto, graphs, probe),
#          compute-sanitizer memcheck and racecheck on every flag algorithm (--quick), and the
#          renderer's agreement test over every algorithm.
#   bench: compact bench of every algorithm at n 2^20 and 2^26, 4- and 16-byte elements,
#          10/50/90 % removed (the x CUB and % floor columns), and, when the sources of an
#          earlier version are unpacked in .old/compaction (git archive REF compaction | tar -x
#          -C .old), the same sweep with that version's compact in the same run: before/after.
#   Logs and JSON in OUTDIR (bench JSON tarred into kernels_json.tgz).
suite_kernels() {
    what=${1:-all}
    b=build-gpu
    gpu_build "$out/build.log" || exit 1
    if [ -d .old/compaction ] && [ "$what" != tests ]; then
        t0=$SECONDS
        cmake -S .old/compaction -B build-old -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CUDA_ARCHITECTURES=90 "${args[@]}" >"$out/build_old.log" 2>&1 &&
            cmake --build build-old -j "$(nproc)" --target compact >>"$out/build_old.log" 2>&1 ||
            { grep -B2 -A8 error "$out/build_old.log" | head -30; }
        echo "old compact built in $((SECONDS - t0)) s"
    fi
    t=$b/compaction/tests
    c=$b/bin/compact
    san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    flag_algos=$($c list --names --backend cuda --input flags 2>/dev/null | tr '\n' ' ')
    [ -n "$flag_algos" ] || flag_algos="scan-scatter horn jumping-jack rlz binary-tree spataro billeter atomic cub single-pass"

    if [ "$what" != bench ]; then
        log=$out/tests.log
        : >"$log"
        run() { # NAME TIMEOUT CMD...: one line with the exit code and the last line of output
            local name=$1 limit=$2
            shift 2
            timeout "$limit" "$@" >"$out/one.log" 2>&1
            local rc=$?
            echo "$name rc=$rc: $(grep -v '^$' "$out/one.log" | tail -1 | cut -c1-150)"
            { echo "== $name rc=$rc"; cat "$out/one.log"; } >>"$log"
        }
        for a in $flag_algos; do run "flagged.cuda $a --quick" 120 $t/test_flagged --backend cuda --quick "$a"; done
        run "remove.cuda --quick" 200 $t/test_remove --backend cuda --quick
        run "partition.cuda" 200 $t/test_partition --backend cuda
        run "auto.cuda" 200 $t/test_auto --backend cuda
        for p in test_gpu_graph test_gpu_context test_gpu_probe test_count; do
            [ -x $t/$p ] && run "$p" 200 $t/$p
        done
        # The sanitizers on a small sweep of every changed kernel: odd and even n, the generic
        # (3-byte) and vector (4, 16) paths, three tiles, sparse and dense removal.
        small=(bench --backend cuda --n 1000,100003 --elem 3,4,16 --removed 0.1,0.9
            --tile 64,256,1024 --runs 1 --warmup 0 --quiet)
        changed=scan-scatter,horn,jumping-jack,rlz,binary-tree,spataro,billeter,atomic,single-pass
        for tool in memcheck racecheck; do
            run "$tool compact bench ($changed)" 240 "$san" --tool $tool --error-exitcode 1 \
                $c "${small[@]}" --algos $changed
        done
        run "memcheck graph" 200 "$san" --tool memcheck --error-exitcode 1 $t/test_gpu_graph --quick
        run "gpu_agree cornell --algorithms" 150 $b/tests/test_gpu_agree scenes/cornell.json 64 64 64 \
            0.012 --algorithms
        rm -f "$out/one.log"
    fi

    if [ "$what" != tests ]; then
        sweep=(bench --backend cuda --algos all --n 2^20,2^26 --elem 4,16 --removed 0.1,0.5,0.9
            --runs 10 --warmup 2 --quiet)
        # the earlier version's compact: in bin/ from this layout on, in tools/ before it
        old=build-old/bin/compact
        [ -x $old ] || old=build-old/tools/compact
        if [ -x $old ]; then
            $old "${sweep[@]}" --json "$out/before.json" >"$out/before.txt" 2>&1
            echo "== before rc=$?"
        fi
        $c "${sweep[@]}" --json "$out/after.json" >"$out/after.txt" 2>&1
        echo "== after rc=$?"
        python3 - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name)
    if not os.path.exists(p):
        return {}
    recs = json.load(open(p))["records"]
    return {(r["algorithm"], r["n"], r["elem_size"], r["removed"], r.get("tile"), r.get("scan")): r
            for r in recs if r.get("median_ms") is not None}
before, after = load("before.json"), load("after.json")
keys = sorted({(k[1], k[2], k[3]) for k in after})
algos = []
for k in after:
    if k[0] not in algos:
        algos.append(k[0])
print("x CUB (higher is better), after [before]; n elem removed")
print("%-14s" % "algorithm" + "".join("%15s" % ("2^%d/%d/%d%%" % (n.bit_length() - 1, e, round(f * 100))) for n, e, f in keys))
for a in algos:
    row = "%-14s" % a
    for n, e, f in keys:
        def x(d):
            r = [v for k, v in d.items() if k[0] == a and k[1] == n and k[2] == e and k[3] == f]
            return r[0].get("x_cub") if r else None
        xa, xb = x(after), x(before)
        row += "%15s" % (("%.2f" % xa if xa else "-") + (" [%.2f]" % xb if xb else ""))
    print(row)
print("%% of floor (after): %s" % ", ".join(
    "%s %.0f" % (k[0], v["pct_floor"]) for k, v in after.items()
    if k[1] == 1 << 26 and k[2] == 4 and k[3] == 0.5 and v.get("pct_floor")))
EOF
        # shellcheck disable=SC2046
        tar czf "$out/kernels_json.tgz" -C "$out" $(cd "$out" && ls *.json *.txt 2>/dev/null) &&
            rm -f "$out"/*.json
    fi
}

# auto [tune|eval|render|partition|all]: the measurements behind `auto` and the multi-way
# partition, each into OUTDIR:
#   tune:      compact tune over n 2^8..2^24 (every 2^2), elements 4/16/64, 1-99 %
#              removed, with and without removal lists, tiles 64/256/1024, median of 21 runs
#              (fewer where they would take over 4 ms): sm_90.json (the table) and tune_fixed.json
#              (every fixed algorithm's times: `compact tune --from tune_fixed.json`
#              derives the table again without a GPU).
#   eval:      auto (with OUTDIR/sm_90.json when the tune wrote one, else the built-in table)
#              and every fixed algorithm in one process, over the target's range (n 2^16..2^28,
#              mostly points the tune did not see; 1, 10, 35, 65, 90, 99 % removed; elements
#              4/16/64; 2^28 at 4 bytes and 1/35/90 % only, where each check moves gigabytes):
#              same_*.json, and compaction/bench/auto_eval.py over all of them.
#              AUTO_EVAL_SMALL_ONLY=1: n 2^16..2^21 only.
#   render:    raycompact bench of every shipped scene at its default size, both modes, every
#              fixed algorithm and auto (graph loop, one sample per wave, depth 16), and the
#              Cornell box at 1920x1080, depth 8, payload: compaction time of auto against
#              single-pass; every scene with and without --sort-materials.
#   partition: compact bench --partition 4 at 2^20 and 2^26, 4- and 16-byte elements.
# Logs: OUTDIR/*.log.
suite_auto() {
    what=${1:-all}
    b=build-gpu
    gpu_build "$out/build_auto.log" raycompact compact || exit 1 # nothing to do when up to date
    c=$b/bin/compact
    rc=$b/bin/raycompact

    if [ "$what" = tune ] || [ "$what" = all ]; then
        t=$SECONDS
        timeout 330 $c tune --backend cuda --n 2^8,2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24 \
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
        python3 compaction/bench/auto_eval.py "$out/same.json" "$out/same.json" --worst 12
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
}

# frame [tests|bench|all]: build (sm_90) and check the device-resident frame loop: the app's GPU
# tests, the library's graph-capture and quick GPU tests, compute-sanitizer on the new kernels,
# then the frame-loop benchmarks (host against graph in one run, every shipped scene at one
# sample per wave, the megakernel baselines, compact bench --graph).
suite_frame() {
    what=${1:-all}
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
            # shellcheck disable=SC2046
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
        # shellcheck disable=SC2046
        tar czf "$out/bench_json.tgz" -C "$out" $(cd "$out" && ls *.json) && rm -f "$out"/*.json
    fi
}

# mpi [SPP]: on a machine with CUDA GPUs and Open MPI (Debian/Ubuntu openmpi-bin,
# libopenmpi-dev, or the packages under .deps/mpiroot): build with MPI (sm_90), check that
# `render` over 1, 2 and 3 ranks on the CUDA backend writes the single-process image byte for
# byte, then time the multi-GPU target: spheres 3840x2160, SPP (default 1024) spp, depth 16, on
# 1, 2 and 4 ranks, one GPU each (as many as the machine has); the images must be identical. On a
# machine of one GPU the second run puts 2 ranks on it (a check, not a scaling figure). Also
# `bench --per-rank`: every GPU times the same runs. Each timed count runs RC_MPI_REPEAT times
# (default 3; the table gives medians). RC_MPIRUN_ARGS: the timed mpirun commands'
# options (default "--bind-to none", as docs/renderer.md advises; e.g. add "--mca pml ob1
# --mca btl self,vader" on one machine).
# megakernels: the wavefront (none, single-pass, auto) against the bvh and persistent megakernels
# on every shipped scene at 1, 8, 64 and `auto` samples per frame; the table and
# OUTDIR/frame_time_vs_spp.png (scripts/plot_megakernels.py).
suite_megakernels() {
    gpu_build "$out/build.log" raycompact || exit 1
    rm -f "$out/build.log"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$out/gpu.txt"
    for s in cornell spheres knot veach_mis many_lights; do
        for w in 1 8 64 auto; do
            build-gpu/bin/raycompact bench --backend cuda --scene scenes/$s.json --modes indices \
                --algos none,auto,single-pass --samples-per-wave $w --frames 2 --warmup 1 \
                --megakernel bvh,persistent --json "$out/${s}_$w.json" >/dev/null ||
                echo "megakernels: $s at $w samples a frame failed"
        done
    done
    python3 scripts/plot_megakernels.py "$out"
}

# claims: docs/claims.md's per-phase comparison with the persistent megakernel, every shipped
# scene, the RTIOW final scene and the demo scene (scripts/claims.sh): OUTDIR/claims.md and the
# bench JSON it comes from.
suite_claims() {
    gpu_build "$out/build.log" raycompact gen_demo gen_env || exit 1
    rm -f "$out/build.log"
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$out/gpu.txt"
    scripts/claims.sh --build build-gpu --out "$out" "$@"
}

# geometry: scripts/bench_geometry.sh on the CUDA backend at every size (0.1-16 M triangles),
# its cached models, per-run JSON, OUTDIR/geometry.md and geometry.png in OUTDIR.
suite_geometry() {
    gpu_build "$out/build.log" raycompact gen_knot gen_demo || exit 1
    rm -f "$out/build.log"
    scripts/bench_geometry.sh --backend cuda --sizes 0.1,1,4,16 --build build-gpu --out "$out"
}

suite_mpi() {
    spp=${1:-1024}
    reps=${RC_MPI_REPEAT:-3}
    use_mpi_deps
    b=build-gpu
    args+=(-DRAYCOMPACT_MPI=ON)
    gpu_build "$out/build.log" raycompact || exit 1
    rm -f "$out/build.log"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    exe=$b/bin/raycompact
    ngpu=$(nvidia-smi -L | wc -l)
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    fail=0

    echo "== identical images, CUDA backend"
    small=(render --scene scenes/spheres.json --width 640 --height 360 --spp 24 --max-depth 16
        --backend cuda --samples-per-wave 5)
    $exe "${small[@]}" --out "$out/one.pfm" 2>&1 | tail -1
    for n in 1 2 3; do
        mpirun -n $n --oversubscribe $exe "${small[@]}" --out "$out/ranks$n.pfm" 2>&1 | tail -1
        if cmp -s "$out/one.pfm" "$out/ranks$n.pfm"; then echo "$n ranks: identical"; else
            echo "$n ranks: DIFFERS"; fail=1; fi
    done
    rm -f "$out"/*.pfm

    echo "== spheres 3840x2160, $spp spp, depth 16 (median of $reps runs each)"
    big=(render --scene scenes/spheres.json --width 3840 --height 2160 --spp "$spp" --max-depth 16
        --backend cuda --samples-per-wave auto --stats)
    counts=(1)
    for n in 2 4; do [ "$n" -le "$ngpu" ] && counts+=("$n"); done
    [ "$ngpu" -eq 1 ] && counts+=(2) # a check of 2 ranks on one GPU, not a scaling figure
    table=$out/scaling.txt
    printf '%-6s %-5s %9s %8s %9s %8s %10s %s\n' ranks GPUs render_s speedup wall_s speedup \
        mpirun_s image >"$table"
    # the single GPU as a user runs it, without a launcher: its wall time against mpirun -n 1's
    plain=()
    for i in $(seq "$reps"); do
        t0=$(date +%s.%N)
        $exe "${big[@]}" --out "$out/big0.png" >"$out/stats_plain.txt" 2>&1 ||
            { echo "the run without mpirun failed:"; tail -3 "$out/stats_plain.txt"; fail=1; }
        t1=$(date +%s.%N)
        plain+=("$(python3 -c "print($t1 - $t0)")")
    done
    r1='' w1=''
    for n in "${counts[@]}"; do
        renders=() walls=() floors=()
        for i in $(seq "$reps"); do
            # the launcher's own start and end: the part of the wall no rank can shorten
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086 # RC_MPIRUN_ARGS: extra mpirun options, word-split
            mpirun -n "$n" --oversubscribe ${RC_MPIRUN_ARGS---bind-to none} true
            t1=$(date +%s.%N)
            floors+=("$(python3 -c "print($t1 - $t0)")")
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086
            mpirun -n "$n" --oversubscribe ${RC_MPIRUN_ARGS---bind-to none} $exe "${big[@]}" \
                --out "$out/big$n.png" >"$out/stats_$n.txt" 2>&1
            t1=$(date +%s.%N)
            walls+=("$(python3 -c "print($t1 - $t0)")")
            line=$(grep 'raycompact: wrote' "$out/stats_$n.txt" | tail -1)
            renders+=("$(sed -n 's/.* spp, \([0-9.]*\) s.*/\1/p' <<<"$line")")
        done
        echo "$n rank(s): $line"
        render=$(median "${renders[@]}") wall=$(median "${walls[@]}") floor=$(median "${floors[@]}")
        [ -n "$r1" ] || { r1=$render w1=$wall; }
        same=identical
        cmp -s "$out/big1.png" "$out/big$n.png" || { same=DIFFERS; fail=1; }
        gpus=$((n < ngpu ? n : ngpu))
        python3 -c "r, w, r1, w1, f = float('${render:-0}' or 0), $wall, float('${r1:-0}' or 0), $w1, $floor
print(f'{$n:<6} {$gpus:<5} {r:9.2f} {(r1 / r if r else 0):7.2f}x {w:9.2f} {w1 / w:7.2f}x {f:10.2f} $same')" \
            >>"$table"
    done
    cmp -s "$out/big0.png" "$out/big1.png" || { echo "the run without mpirun DIFFERS"; fail=1; }
    echo "1 GPU without mpirun: wall $(median "${plain[@]}") s" >>"$table"
    echo "mpirun_s: 'mpirun -n N true', the launcher's own time; options: ${RC_MPIRUN_ARGS---bind-to none}" >>"$table"
    echo "GPU persistence mode: $(nvidia-smi --query-gpu=persistence_mode --format=csv,noheader | sort | uniq -c | xargs)" >>"$table"
    cat "$table"
    rm -f "$out"/big*.png

    echo "== bench --per-rank"
    mpirun -n "$ngpu" $exe bench --scene scenes/spheres.json --width 1920 --height 1080 \
        --algos single-pass,redzone --modes indices --frames 4 --samples-per-wave 4 --per-rank \
        --json "$out/bench_per_rank.json" | tail -$((3 + 4 * ngpu))
    exit $fail
}

# gpus [SPP...]: --gpus (one process, a worker thread per GPU) beside mpirun (a process per GPU).
# The contexts first: whether threads of one process create them in parallel (the design rests
# on it; across processes the driver created them one after the other). Then the image bytes of
# --gpus 0,0 (two workers sharing a GPU: what a one-GPU machine can check), 1 and all against a
# plain single-GPU render, and the wall time of the whole command on 1, 2 and 4 GPUs (those the
# machine has) at each SPP, with the fixed cost of --gpus (start, contexts, scene, renderers,
# film sum, image write: the --stats line) beside it. The table goes to OUTDIR/gpus.txt and
# docs/bench/gpus.txt.
suite_gpus() {
    local spps=("$@")
    [ ${#spps[@]} -gt 0 ] || spps=(1024 4096)
    reps=${RC_GPUS_REPEAT:-3}
    use_mpi_deps
    b=build-gpu
    local have_mpi=0
    if command -v mpirun >/dev/null 2>&1; then have_mpi=1; args+=(-DRAYCOMPACT_MPI=ON); fi
    gpu_build "$out/build.log" raycompact cuda_contexts || exit 1
    rm -f "$out/build.log"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    exe=$b/bin/raycompact
    ngpu=$(nvidia-smi -L | wc -l)
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    fail=0

    echo "== CUDA contexts created by the threads of one process"
    $b/bin/cuda_contexts --repeat 3 | tee "$out/contexts.txt"

    echo "== identical images: --gpus against one GPU"
    small=(render --scene scenes/spheres.json --width 640 --height 360 --spp 24 --max-depth 16
        --backend cuda --samples-per-wave 5)
    $exe "${small[@]}" --out "$out/one.pfm" 2>&1 | tail -1
    for g in 0,0 1 all 0,0,0; do
        $exe "${small[@]}" --gpus "$g" --out "$out/gpus.pfm" 2>&1 | tail -1
        if cmp -s "$out/one.pfm" "$out/gpus.pfm"; then echo "--gpus $g: identical"; else
            echo "--gpus $g: DIFFERS"; fail=1; fi
    done
    rm -f "$out"/*.pfm

    counts=(1)
    for n in 2 4; do
        if [ "$n" -le "$ngpu" ]; then counts+=("$n"); else
            echo "gpus: $n GPUs skipped: this machine has $ngpu"; fi
    done
    [ "$have_mpi" = 1 ] || echo "gpus: mpirun not found: the mpirun rows are skipped"
    table=$out/gpus.txt
    {
        echo "$gpu x $ngpu, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown);" \
            "spheres 3840x2160, depth 16, --samples-per-wave auto; median of $reps runs"
        printf '%-5s %-5s %-7s %8s %8s %9s %8s %s\n' spp GPUs how wall_s speedup render_s \
            fixed_s image
    } >"$table"
    for spp in "${spps[@]}"; do
        big=(render --scene scenes/spheres.json --width 3840 --height 2160 --spp "$spp"
            --max-depth 16 --backend cuda --samples-per-wave auto --stats)
        w1=''
        for n in "${counts[@]}"; do
            for how in gpus mpirun; do
                [ "$how" = mpirun ] && { [ "$have_mpi" = 1 ] || continue; }
                walls=() renders=() fixeds=()
                for _ in $(seq "$reps"); do
                    t0=$(date +%s.%N)
                    if [ "$how" = gpus ]; then
                        $exe "${big[@]}" --gpus "$n" --out "$out/big_$how$n.png" \
                            >"$out/stats_${spp}_$how$n.txt" 2>&1
                    else
                        # shellcheck disable=SC2086 # RC_MPIRUN_ARGS: extra options, word-split
                        mpirun -n "$n" --oversubscribe ${RC_MPIRUN_ARGS---bind-to none} $exe \
                            "${big[@]}" --out "$out/big_$how$n.png" >"$out/stats_${spp}_$how$n.txt" 2>&1
                    fi || { echo "$how $n at $spp spp failed:"; tail -3 "$out/stats_${spp}_$how$n.txt"; fail=1; }
                    t1=$(date +%s.%N)
                    walls+=("$(python3 -c "print($t1 - $t0)")")
                    line=$(grep 'raycompact: wrote' "$out/stats_${spp}_$how$n.txt" | tail -1)
                    renders+=("$(sed -n 's/.* spp, \([0-9.]*\) s.*/\1/p' <<<"$line")")
                    f=$(sed -n 's/^fixed cost (ms) \([0-9.]*\):.*/\1/p' "$out/stats_${spp}_$how$n.txt" | head -1)
                    fixeds+=("${f:-0}")
                done
                wall=$(median "${walls[@]}") render=$(median "${renders[@]:-0}") fixed=$(median "${fixeds[@]}")
                [ -n "$w1" ] || w1=$wall
                same=identical
                cmp -s "$out/big_gpus1.png" "$out/big_$how$n.png" || { same=DIFFERS; fail=1; }
                fx=$([ "$how" = gpus ] && python3 -c "print(f'{$fixed / 1e3:.2f}')" || echo -)
                python3 -c "w, w1 = $wall, $w1
print(f'{$spp:<5} {$n:<5} {\"$how\":<7} {w:8.2f} {w1 / w:7.2f}x {float(\"${render:-0}\" or 0):9.2f} {\"$fx\":>8} $same')" >>"$table"
            done
        done
        rm -f "$out"/big_*.png
    done
    echo "wall_s: the whole command; speedup: against --gpus 1; fixed_s: the --stats line 'fixed cost'" >>"$table"
    echo "GPU persistence mode: $(nvidia-smi --query-gpu=persistence_mode --format=csv,noheader | sort | uniq -c | xargs)" >>"$table"
    cat "$table"
    mkdir -p docs/bench
    { cat "$table"; echo; cat "$out/contexts.txt"; } >docs/bench/gpus.txt
    exit $fail
}

# profile [BUILD]: Nsight Compute profiles of the compaction kernels that stay furthest from
# their traffic floor at 2^26 (compact bench, one run each), for the report's limiter column:
# per kernel the speed-of-light throughputs (DRAM, L1/shared, SM), the DRAM bytes, occupancy and
# the warp stall reasons. Full text per case in OUTDIR/ncu_NAME.txt; a digest on stdout.
suite_profile() {
    b=${1:-build-gpu}
    c=$b/bin/compact
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    # NAME ALGO REMOVED KERNEL-REGEX [ELEM]: the sections above, and the DRAM bytes read and
    # written (set against each algorithm's traffic model: `compact list --models`)
    prof() {
        local elem=${5:-4}
        timeout 120 "$ncu" --section SpeedOfLight --section Occupancy --section WarpStateStats \
            --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum \
            -k "regex:$4" --launch-count 2 \
            "$c" bench --backend cuda --algos "$2" --n 2^26 --elem "$elem" --removed "$3" --runs 1 \
            --warmup 0 --quiet >"$out/ncu_$1.txt" 2>&1
        echo "== ncu $1 ($2, 2^26, $elem bytes, $3 removed) rc=$?"
        grep -E "^  [A-Za-z_].*\(|DRAM Throughput|dram__bytes|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Duration|Achieved Occupancy|Registers Per Thread|Warp Cycles Per Issued|^    (OPT|INF) +.*(stall|Stall|bound|latency|occupancy)" \
            "$out/ncu_$1.txt" | head -28
    }
    # the runs furthest from their floor at 2^26 (docs/bench/h100.md)
    prof scan_scatter_90 scan-scatter 0.9 "scan_lookback_kernel|scatter_kernel"
    prof jumping_jack_50 jumping-jack 0.5 "jj_kernel"
    prof jumping_jack_90 jumping-jack 0.9 "jj_kernel"
    prof rlz_50 rlz 0.5 "rlz_kernel"
    prof rlz_90 rlz 0.9 "rlz_kernel"
    prof horn_90 horn 0.9 "horn_kernel"
    prof binary_tree_10 binary-tree 0.1 "bt_kernel"
    prof spataro_90 spataro 0.9 "count_kernel|move_kernel"
    prof single_pass_90 single-pass 0.9 "single_pass_kernel"
    prof billeter_90_16 billeter 0.9 "count_kernel|move_kernel" 16
}

# view: build `raycompact view` on a GPU machine that has no display, no X server and no SDL2
# or libepoxy, and run it there with SDL2's offscreen video driver: an EGL pbuffer on the GPU,
# no window system. It needs the packages scripts/fetch_view_deps.sh downloaded:
#   .gl/*.deb        the glvnd loaders, unpacked into / where they are missing;
#   .deps/*.deb      cJSON, stb and zlib (unpacked into .deps/root, as use_deps finds them);
#   .deps/view/*.deb SDL2, libepoxy, pkgconf and the libraries libSDL2 links, unpacked into
#                    .deps/viewroot and found through pkg-config and LD_LIBRARY_PATH.
# Runs, each with its log in OUTDIR:
#   view_gpu.log           tests/data/view_gpu.txt on the CUDA backend (CUDA-GL interop where it
#                          works); its three screenshots view_gpu_*.png;
#   view_gpu_hostcopy.log  the same with --no-interop (frames through host memory);
#   view_cpu.log           tests/data/view_all.txt on the CPU backend, checked by test_view_check
#                          as the Xvfb test does (screenshots, algorithms in the log).
# build.log holds the configure and build output and the libraries the viewer loads.
# VIEW_BACKEND=cpu runs the first session on the CPU backend and builds without CUDA, so the
# suite can be tried on a machine with no GPU (then __EGL_VENDOR_LIBRARY_FILENAMES, if set,
# picks the EGL driver).
# view_setup: what the viewer needs on a GPU machine without a display or its libraries (see
# suite_view): the glvnd loaders into / where missing, cJSON/stb/zlib from .deps/root, SDL2,
# epoxy and pkgconf from .deps/view into .deps/viewroot; appends their CMake arguments to `args`
# and exports the build's environment (view_run_env: the run's). Sets repo, root, vr, vlibs and pkgconf;
# calls die (defined by the caller) on failure. Writes to $log.
view_setup() {
    repo=$PWD
    arch=x86_64-linux-gnu
    # ---- the glvnd loaders: into / (the README's way), only where they are missing ----
    glvnd_missing() {
        for so in libEGL.so.1 libOpenGL.so.0 libGLX.so.0 libGLdispatch.so.0; do
            ldconfig -p | grep -q "$so " || return 0
        done
        return 1
    }
    if glvnd_missing; then
        [ -n "$(ls .gl/*.deb 2>/dev/null)" ] || die "no glvnd loaders here and none in .gl/"
        for f in .gl/*.deb; do dpkg -x "$f" / || die "dpkg -x $f failed"; done
        ldconfig
        echo "gpu_view: glvnd loaders unpacked into /"
    fi
    nv_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
    if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$nv_egl" ]; then
        export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
    fi

    # ---- cJSON, stb and zlib, as use_deps finds them ----
    root=$repo/.deps/root/usr
    if [ ! -d "$root" ]; then
        for f in .deps/*.deb; do dpkg -x "$f" .deps/root || die "dpkg -x $f failed"; done
    fi
    # the unpacked cJSON package names /usr/include: point it at the unpacked tree instead
    sed -i "s|\"/usr|\"$root|g" "$root"/lib/$arch/cmake/cJSON/*.cmake

    # ---- SDL2, epoxy, pkgconf and libSDL2's libraries, into a prefix of their own ----
    vr=$repo/.deps/viewroot
    rm -rf "$vr"
    [ -n "$(ls .deps/view/*.deb 2>/dev/null)" ] || die "no packages in .deps/view (scripts/fetch_view_deps.sh)"
    for f in .deps/view/*.deb; do dpkg -x "$f" "$vr" || die "dpkg -x $f failed"; done
    vlib=$vr/usr/lib/$arch
    pc=$vlib/pkgconfig
    # Every directory of shared objects: /usr/lib, /lib (packages not moved under /usr yet) and
    # libpulse's private directory, which its RUNPATH names under the system's /usr.
    vlibs=$(find "$vr" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:)
    # The .pc files and sdl2-config name /usr; the headers SDL_config.h includes sit in the
    # multiarch directory, which the compiler searches only under /usr; epoxy's private
    # requirements (x11, egl, gl) have no .pc files here and matter only to static linking.
    sed -i "s|^prefix=.*|prefix=$vr/usr|" "$pc"/*.pc "$vr/usr/bin/sdl2-config"
    sed -i "s|^Cflags: -I\${includedir} |&-I\${includedir}/$arch |" "$pc/sdl2.pc"
    sed -i '/^Requires.private:/d' "$pc/epoxy.pc"
    # Absolute symbolic links would lead back into the system's /usr.
    find "$vr" -type l -lname '/*' | while read -r l; do ln -sfn "$vr$(readlink "$l")" "$l"; done
    # pkgconf from the prefix, whatever the machine has: the same tool everywhere.
    pkgconf=$vr/pkg-config
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$vlibs" "$vr/usr/bin/pkgconf" >"$pkgconf"
    chmod +x "$pkgconf"
    export PKG_CONFIG_LIBDIR=$pc:$root/lib/$arch/pkgconfig:$root/share/pkgconfig
    export PKG_CONFIG_PATH=$PKG_CONFIG_LIBDIR
    export CPATH=$vr/usr/include:$vr/usr/include/$arch:$root/include${CPATH:+:$CPATH}
    {
        echo "pkg-config: sdl2 $("$pkgconf" --modversion sdl2) epoxy $("$pkgconf" --modversion epoxy)"
        echo "pkg-config --cflags --libs sdl2 epoxy: $("$pkgconf" --cflags --libs sdl2 epoxy)"
    } >>"$log" 2>&1

    args+=(-DPKG_CONFIG_EXECUTABLE="$pkgconf" -DCMAKE_PREFIX_PATH="$vr/usr;$root"
          # libSDL2's own libraries, for the linker's check of its undefined symbols
          -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$vlibs")
    zlib_lib "$root"
}

# view_run_env: after the build, the viewer's run-time environment: libSDL2's libraries from
# the prefix view_setup made, EGL through glvnd, SDL2's offscreen driver.
view_run_env() {
    export LD_LIBRARY_PATH=$vlibs:$root/lib/$arch${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # the driver's EGL and GL libraries, should the loader cache not list them
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
        [ -d "$d" ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d
    done
    export SDL_VIDEODRIVER=offscreen OMP_WAIT_POLICY=PASSIVE
}

suite_view() {
    out=$(cd "$out" && pwd)
    backend=${VIEW_BACKEND:-cuda}
    b=$PWD/build-view-gpu
    log=$out/build.log
    : >"$log"

    die() {
        echo "gpu_view: $*"
        tail -40 "$log"
        exit 1
    }
    args=(-DCMAKE_BUILD_TYPE=Release -DRAYCOMPACT_WERROR=ON)
    view_setup

    # ---- configure and build ----
    if [ "$backend" = cuda ]; then
        args+=(-DRAYCOMPACT_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
    else
        args+=(-DRAYCOMPACT_CUDA=OFF)
    fi
    cmake -S . -B "$b" -G Ninja "${args[@]}" >>"$log" 2>&1 || die "configure failed"
    grep -q "raycompact: viewer ON" "$log" || die "the viewer is not built (SDL2 or epoxy not found)"
    echo "gpu_view: viewer ON: SDL2 from $(grep -h '^SDL2_DIR:' "$b/CMakeCache.txt" | cut -d= -f2)"
    cmake --build "$b" --target raycompact test_view_check -j "$(nproc)" >>"$log" 2>&1 ||
        die "build failed"
    exe=$b/bin/raycompact
    view_run_env
    deps=$(ldd "$exe" 2>&1)
    printf '== ldd %s\n%s\n' "$exe" "$deps" >>"$log"
    grep -E "libSDL2|libepoxy|not found" <<<"$deps" | sed 's/^\s*/gpu_view: /'
    echo "gpu_view: from outside .deps/viewroot: $(grep -vF "$vr" <<<"$deps" | awk '/=>/ {printf "%s ", $1}')"
    grep -q "not found" <<<"$deps" && die "libraries not found"

    # session NAME DIR SCRIPT ARGS...: the viewer in DIR (its screenshots land there), its output
    # in $out/NAME.log; prints the exit code.
    session() {
        local name=$1 dir=$2 script=$3
        shift 3
        mkdir -p "$dir"
        (cd "$dir" && timeout 300 "$exe" view --script "$repo/tests/data/$script" "$@") \
            >"$out/$name.log" 2>&1
        echo $?
    }
    field() { sed -n "s/^raycompact view: $1/\\1/p" "$out/$2.log" | head -1; }

    scene=(--scene "$repo/scenes/spheres.json" --width 480 --height 270 --max-depth 8
           --window 960x540)
    rc=$(session view_gpu "$out" view_gpu.txt "${scene[@]}" --backend "$backend")
    renderer=$(field 'OpenGL \(.*\); press H.*' view_gpu)
    path=$(field '.*display through \(.*\)$' view_gpu)
    echo "gpu_view: $backend session: exit $rc, OpenGL ${renderer:-?}, film through ${path:-?}"
    grep -vE "^raycompact view: (algorithm|wrote)" "$out/view_gpu.log" | head -20

    if [ "$backend" = cuda ]; then
        rc_hc=$(session view_gpu_hostcopy "$b/hostcopy" view_gpu.txt "${scene[@]}" --backend cuda \
            --no-interop)
        path_hc=$(field '.*display through \(.*\)$' view_gpu_hostcopy)
        echo "gpu_view: cuda --no-interop session: exit $rc_hc, film through ${path_hc:-?}"
    fi

    # The viewer's frame time at one sample per frame, spheres 1280x720 (the default window
    # size): the host loop of earlier releases against the graph loop, with auto and with `none`.
    if [ "$backend" = cuda ]; then
        for loop in host graph; do
            for algo in none auto; do
                ft=ft_${loop}_$algo
                rc_ft=$(session "$ft" "$b/$ft" view_frametime.txt --scene "$repo/scenes/spheres.json" \
                    --width 1280 --height 720 --max-depth 16 --backend cuda --frame-loop $loop \
                    --algo $algo)
                echo "gpu_view: frame time, spheres 1280x720, $loop loop, $algo: exit $rc_ft;" \
                    "$(field '\(median of .*\)' "$ft")"
            done
        done
    fi

    # The demo scene (tools/gen_demo, lit by gen_env's sky) at 1280x720, one sample a frame:
    # the viewer's frame time against bench's for the same samples (rays per second alike).
    if [ "$backend" = cuda ] && [ -z "${VIEW_NO_DEMO:-}" ]; then
        cmake --build "$b" --target gen_demo gen_env -j "$(nproc)" >>"$log" 2>&1
        dd=$b/demo
        mkdir -p "$dd"
        [ -f "$dd/demo.glb" ] || "$b/bin/gen_demo" --out "$dd/demo.glb" >/dev/null
        [ -f "$dd/sky.hdr" ] || "$b/bin/gen_env" "$dd/sky.hdr" 1024
        demo=(--scene "$dd/demo.glb" --env "$dd/sky.hdr" --width 1280 --height 720 --backend cuda)
        # the viewer as it runs (the next frame renders while the last is drawn), then with
        # --no-overlap (render, then draw): rays per second beside bench's
        rc_d=$(session ft_demo "$dd/view" view_frametime.txt "${demo[@]}")
        rc_s=$(session ft_demo_seq "$dd/view_seq" view_frametime.txt "${demo[@]}" --no-overlap)
        "$exe" bench "${demo[@]}" --samples-per-frame 1 --frames 30 --warmup 3 --algos auto \
            --modes indices --json "$out/demo_bench.json" >"$out/demo_bench.log" 2>&1
        echo "gpu_view: frame time, demo 1280x720, auto: exit $rc_d; $(field '\(median of .*\)' ft_demo);" \
            "$(field 'over the last [0-9]* frames: \([0-9.]* Mrays\/s\).*' ft_demo)"
        echo "gpu_view: the same with --no-overlap: exit $rc_s; $(field '\(median of .*\)' ft_demo_seq);" \
            "$(field 'over the last [0-9]* frames: \([0-9.]* Mrays\/s\).*' ft_demo_seq)"
        echo "gpu_view: bench: $(grep -E '^auto ' "$out/demo_bench.log" | head -1)"
        grep -E "Mrays|rays/s" "$out/demo_bench.log" | head -5 | sed 's/^/gpu_view: bench: /'
    fi

    # The Xvfb test's session and check, on this display path (stdout alone is the log it reads).
    chk=$b/viewcheck
    rm -rf "$chk"
    mkdir -p "$chk"
    (cd "$chk" && timeout 300 "$exe" view --scene "$repo/scenes/spheres.json" --width 96 \
        --height 54 --max-depth 8 --backend cpu --window 640x480 \
        --script "$repo/tests/data/view_all.txt" >view.log 2>view.err)
    rc_cpu=$?
    "$b/tests/test_view_check" "$chk" >"$chk/check.log" 2>&1
    rc_chk=$?
    cat "$chk/view.log" "$chk/view.err" "$chk/check.log" >"$out/view_cpu.log"
    echo "gpu_view: cpu view_all.txt session: exit $rc_cpu; test_view_check: exit $rc_chk"
    [ -n "$renderer" ] || renderer=$(field 'OpenGL \(.*\); press H.*' view_cpu)
    tail -3 "$chk/check.log"

    # Screenshots not blank: the spread of their luma (Pillow, where Python has it).
    python3 - "$out"/view_gpu_*.png <<'EOF' 2>/dev/null || echo "gpu_view: (no Pillow: screenshots not measured)"
import sys
from PIL import Image, ImageStat
for p in sys.argv[1:]:
    im = Image.open(p).convert("L")
    st, distinct = ImageStat.Stat(im), sum(1 for c in im.histogram() if c)
    print(f"gpu_view: {p.rsplit('/', 1)[-1]} {im.size[0]}x{im.size[1]}: luma mean "
          f"{st.mean[0]:.1f} sd {st.stddev[0]:.1f}, {distinct} distinct values")
EOF

    # The project's own GPU viewer test (tests/test_view.cmake on the offscreen driver, CUDA).
    if [ "$backend" = cuda ]; then
        ctest --test-dir "$b" -R '^app\.view\.offscreen\.cuda$' --output-on-failure \
            >"$out/ctest_view.log" 2>&1
        rc_ct=$?
        echo "gpu_view: ctest app.view.offscreen.cuda: exit $rc_ct;" \
            "$(grep -hE 'test_view: |tests passed|Skipped' "$out/ctest_view.log" | tr '\n' ' ')"
    fi

    echo "gpu_view: SUMMARY video driver offscreen (EGL), GL ${renderer:-?}, film path ${path:-?}," \
        "exit $rc${rc_hc:+; --no-interop: ${path_hc:-?}, exit $rc_hc}; view_all.txt (cpu): exit" \
        "$rc_cpu, test_view_check exit $rc_chk${rc_ct:+; ctest app.view.offscreen.cuda exit $rc_ct}"
    [ "$rc" = 0 ] && [ "${rc_hc:-0}" = 0 ] && [ "$rc_cpu" = 0 ] && [ "$rc_chk" = 0 ] &&
        [ "${rc_ct:-0}" = 0 ]
    exit
}

# report: the suites behind docs/bench's report (the tables of docs/bench/h100.md), one after
# another, each in a process of its own with its output in OUTDIR/SUITE; exits non-zero when
# one of them did.
suite_report() {
    local fail=0 s
    for s in "app" "kernels bench" "profile" "auto all" "frame bench" "megakernels" \
        "geometry" "view" "mpi" "gpus"; do
        # shellcheck disable=SC2086
        set -- $s
        echo "==== scripts/gpu.sh $s"
        bash scripts/gpu.sh "$1" "$out/$1" "${@:2}" || { echo "==== $1: exit $?"; fail=1; }
    done
    exit $fail
}

suites="check quick tests app fat kernels auto frame megakernels claims geometry mpi gpus profile view report"
case "${1:-}" in
-h | --help | help)
    usage
    exit 0
    ;;
"")
    usage >&2
    exit 2
    ;;
esac
suite=$1
if ! [[ " $suites " == *" $suite "* ]]; then
    echo "gpu.sh: unknown suite '$suite' (suites: $suites; see --help)" >&2
    exit 2
fi
out=${2:-out/gpu/$suite}
shift $(($# < 2 ? $# : 2))
mkdir -p "$out"
args=()
# the packages under .deps/root for every suite that builds with gpu_build (view finds its own)
case $suite in
view | profile | report) ;;
*) use_deps ;;
esac
"suite_$suite" "$@"
