#!/usr/bin/env bash
# gpu_profile.sh OUTDIR [BUILD]: Nsight Compute profiles of the compaction kernels that stay
# furthest from their traffic floor at 2^26 (compact bench, one run each), for the report's
# limiter column: per kernel the speed-of-light throughputs (DRAM, L1/shared, SM), the DRAM
# bytes, occupancy and the warp stall reasons. Full text per case in OUTDIR/ncu_NAME.txt; a
# digest on stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_profile.sh OUTDIR [BUILD]}
b=${2:-build-gpu}
mkdir -p "$out"
c=$b/bin/compact
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
# NAME ALGO REMOVED KERNEL-REGEX [ELEM]: the sections above, and the DRAM bytes read and written
# (set against each algorithm's traffic model: `compact list --models`)
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
# the runs furthest from their floor at 2^26 (docs/bench/h100-kernels: third round)
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
