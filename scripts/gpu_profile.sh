#!/usr/bin/env bash
# gpu_profile.sh OUTDIR [BUILD]: Nsight Compute profiles of the compaction kernels that stay
# furthest from CUB at 2^26 4-byte elements (compact bench, one run each), for the report's
# limiter column: per kernel the speed-of-light throughputs (DRAM, L1/shared, SM), occupancy and
# the warp stall reasons. Full text per case in OUTDIR/ncu_NAME.txt; a digest on stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_profile.sh OUTDIR [BUILD]}
b=${2:-build-gpu}
mkdir -p "$out"
c=$b/compaction/tools/compact
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
# NAME ALGO REMOVED KERNEL-REGEX
prof() {
    timeout 120 "$ncu" --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section LaunchStats -k "regex:$4" --launch-count 2 \
        "$c" bench --backend cuda --algos "$2" --n 2^26 --elem 4 --removed "$3" --runs 1 \
        --warmup 0 --quiet >"$out/ncu_$1.txt" 2>&1
    echo "== ncu $1 ($2, 2^26, 4 bytes, $3 removed) rc=$?"
    grep -E "^  [A-Za-z_].*\(|DRAM Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Duration|Achieved Occupancy|Registers Per Thread|Warp Cycles Per Issued|^    (OPT|INF) +.*(stall|Stall|bound|latency|occupancy)" \
        "$out/ncu_$1.txt" | head -24
}
prof scan_scatter_50 scan-scatter 0.5 "reduce_kernel|scan_kernel|scatter_kernel"
prof jumping_jack_90 jumping-jack 0.9 "jj_kernel|sc_blocks_count"
prof rlz_50 rlz 0.5 "rlz_kernel|sc_blocks_count"
prof rlz_90 rlz 0.9 "rlz_kernel"
prof horn_90 horn 0.9 "horn_kernel"
