#!/usr/bin/env bash
# gpu_mpi.sh OUTDIR [SPP]: on a machine with CUDA GPUs and Open MPI (Debian/Ubuntu openmpi-bin,
# libopenmpi-dev): build with MPI (sm_90), check that `render` over 1, 2 and 3 ranks on the CUDA
# backend writes the single-process image byte for byte, then time the multi-GPU target:
# spheres 3840x2160, SPP (default 1024) spp, depth 16, on one rank (one GPU) and on one rank
# per GPU; the images must be identical. On a machine of one GPU the second run puts 2 ranks on
# it (a check, not a scaling figure). Also `bench --per-rank`: every GPU times the same runs.
# Debian -dev packages unpacked with `dpkg -x` under .deps/root are used when present.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_mpi.sh OUTDIR [SPP]}
spp=${2:-1024}
mkdir -p "$out"
args=()
. scripts/gpu_deps.sh
. scripts/gpu_mpi_deps.sh
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

echo "== spheres 3840x2160, $spp spp, depth 16"
big=(render --scene scenes/spheres.json --width 3840 --height 2160 --spp "$spp" --max-depth 16
    --backend cuda --samples-per-wave auto)
many=$ngpu
[ "$ngpu" -eq 1 ] && many=2
declare -A secs
for n in 1 $many; do
    line=$(mpirun -n $n --oversubscribe $exe "${big[@]}" --out "$out/big$n.png" 2>&1 | tail -1)
    echo "$n rank(s): $line"
    secs[$n]=$(sed -n 's/.* spp, \([0-9.]*\) s.*/\1/p' <<<"$line")
done
if cmp -s "$out/big1.png" "$out/big$many.png"; then echo "images identical"; else
    echo "images DIFFER"; fail=1; fi
python3 -c "a, b = float('${secs[1]:-0}'), float('${secs[$many]:-0}');
print(f'throughput {\"x\" if b else \"\"}{a / b if b else 0:.2f} with $many ranks on $ngpu GPU(s)')"
rm -f "$out"/big*.png

echo "== bench --per-rank"
mpirun -n "$ngpu" $exe bench --scene scenes/spheres.json --width 1920 --height 1080 \
    --algos single-pass,redzone --modes indices --frames 4 --samples-per-wave 4 --per-rank \
    --json "$out/bench_per_rank.json" | tail -$((3 + 4 * ngpu))
exit $fail
