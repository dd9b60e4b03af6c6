#!/usr/bin/env bash
# bench_cuda_sweep.sh COMPACT OUT_DIR: the CUDA bench over many inputs in one process, as the
# tune and the report run it: a tune sweep (n 2^12..2^20, elements of 4, 16 and 64 bytes,
# 1-99 % removed, three tiles; every fixed algorithm, the baselines, the removal lists), then
# auto and every fixed algorithm together on points between. Every measurement is checked
# against the serial reference by the bench itself; the test fails on any failed or mismatched
# measurement, and on a table that `compact policy check` refuses. Long sweeps reuse device
# memory that earlier inputs held, which a single input does not exercise (the input sets were
# once loaded without ordering against the bench's stream, and a stale removal list sent
# scatter-limit out of bounds at the 64-byte inputs of 2^20). Exit 77 without a CUDA device.
set -uo pipefail
compact=${1:?usage: bench_cuda_sweep.sh COMPACT OUT_DIR}
out=${2:?usage: bench_cuda_sweep.sh COMPACT OUT_DIR}
rm -rf "$out" && mkdir -p "$out" || exit 1
if ! "$compact" bench --backend cuda --n 2^10 --runs 1 --warmup 0 --quiet >/dev/null 2>"$out/probe.log"; then
    if grep -q "no usable CUDA device" "$out/probe.log"; then
        echo "skipped: no CUDA device"
        exit 77
    fi
    cat "$out/probe.log"
    exit 1
fi
"$compact" tune --backend cuda --n 2^12,2^14,2^16,2^18,2^20 --elem 4,16,64 \
    --removed 0.01,0.05,0.2,0.5,0.8,0.99 --tile 64,256,1024 --runs 5 --warmup 1 --quiet \
    --out "$out/table.json" >"$out/tune.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$out/table.json" ]; then
    echo "compact tune failed (exit $rc):"
    grep -iE "fail|error|mismatch" "$out/tune.log" | head -20
    exit 1
fi
"$compact" policy check "$out/table.json" --backend cuda || exit 1
SC_POLICY="$out/table.json" "$compact" bench --backend cuda --algos all \
    --n 2^17,2^19 --elem 16,64 --removed 0.1,0.35,0.65 --runs 5 --warmup 1 --quiet \
    --json "$out/same.json" >"$out/same.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -qiE "failed|mismatch" "$out/same.log"; then
    echo "compact bench --algos all (auto with the tuned table) failed (exit $rc):"
    grep -iE "fail|error|mismatch" "$out/same.log" | head -20
    exit 1
fi
echo "tune (270 configurations) and auto beside every fixed algorithm: every measurement checked"
