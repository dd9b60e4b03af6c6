#!/usr/bin/env bash
# gpu_kernels.sh OUTDIR [tests|bench|all]: the compaction kernels on a CUDA machine.
#   tests: the library's GPU tests (every algorithm's CUDA output against the serial reference
#          and the CPU specification, --quick; removal lists, partition, auto, graphs, probe),
#          compute-sanitizer memcheck and racecheck on every flag algorithm (--quick), and the
#          renderer's agreement test over every algorithm.
#   bench: compact bench of every algorithm at n 2^20 and 2^26, 4- and 16-byte elements,
#          10/50/90 % removed (the x CUB and % floor columns), and, when the sources of an
#          earlier version are unpacked in .old/compaction (git archive REF compaction | tar -x
#          -C .old), the same sweep with that version's compact in the same run: before/after.
#   Logs and JSON in OUTDIR (bench JSON tarred into kernels_json.tgz).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_kernels.sh OUTDIR [tests|bench|all]}
what=${2:-all}
mkdir -p "$out"
args=()
. scripts/gpu_deps.sh
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
    for a in $flag_algos; do run "flagged.cuda $a --quick" 120 $t/test_flagged --backend cuda --quick $a; done
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
    tar czf "$out/kernels_json.tgz" -C "$out" $(cd "$out" && ls *.json *.txt 2>/dev/null) &&
        rm -f "$out"/*.json
fi
