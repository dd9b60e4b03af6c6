#!/usr/bin/env bash
# nee_error.sh: next-event estimation against BSDF sampling on one scene: the error (RMSE
# against a long `nee` run of the same renderer, another seed) of each at equal samples per
# pixel, and of `bsdf` at (about) the time `nee` took.
#   scripts/nee_error.sh [BUILD] [SCENE] [SIZE] [SPP] [REF_SPP] [BACKEND]
# defaults: build scenes/cornell.json 512 64 4096 cuda. On the CPU, try 64 64 2048 cpu.
set -euo pipefail
build=${1:-build} scene=${2:-scenes/cornell.json} size=${3:-512} spp=${4:-64}
ref_spp=${5:-4096} backend=${6:-cuda}
exe=$build/bin/raycompact
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
common=(--scene "$scene" --width "$size" --height "$size" --backend "$backend")

# seconds of one render, from its "wrote" line
render() { "$exe" render "${common[@]}" "$@" 2>&1 | sed -n 's/.* spp, \([0-9.]*\) s,.*/\1/p'; }

echo "reference: $ref_spp spp, nee, seed 1000"
render --spp "$ref_spp" --seed 1000 --out "$out/ref.pfm" >/dev/null
t_nee=$(render --spp "$spp" --out "$out/nee.pfm")
t_bsdf=$(render --spp "$spp" --light-sampling bsdf --out "$out/bsdf.pfm")
# RMSE of the linear values, and of the values clamped to [0, 1] (image_rmse.py says why)
rmse() { python3 scripts/image_rmse.py "$@"; }
e_nee=$(rmse --clamp "$out/nee.pfm" "$out/ref.pfm") e_bsdf=$(rmse --clamp "$out/bsdf.pfm" "$out/ref.pfm")
printf "%-28s %8s %10s %10s\n" "run" "s" "RMSE" "clamped"
printf "%-28s %8.2f %10s %10s\n" "nee, $spp spp" "$t_nee" "$(rmse "$out/nee.pfm" "$out/ref.pfm")" "$e_nee"
printf "%-28s %8.2f %10s %10s\n" "bsdf, $spp spp" "$t_bsdf" "$(rmse "$out/bsdf.pfm" "$out/ref.pfm")" "$e_bsdf"
# bsdf at nee's time: as many samples as fit in it at bsdf's pace
spp_eq=$(python3 -c "print(max(1, round($spp * $t_nee / $t_bsdf)))")
t_eq=$(render --spp "$spp_eq" --light-sampling bsdf --out "$out/bsdf_eq.pfm")
e_eq=$(rmse --clamp "$out/bsdf_eq.pfm" "$out/ref.pfm")
printf "%-28s %8.2f %10s %10s\n" "bsdf, $spp_eq spp (equal time)" "$t_eq" "$(rmse "$out/bsdf_eq.pfm" "$out/ref.pfm")" "$e_eq"
python3 -c "print('clamped error ratio bsdf/nee: %.2f at equal spp, %.2f at equal time; time nee/bsdf at equal spp: %.2f' % ($e_bsdf / $e_nee, $e_eq / $e_nee, $t_nee / $t_bsdf))"
