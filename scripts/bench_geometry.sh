#!/usr/bin/env bash
# bench_geometry.sh: loading and tracing at scale. Writes the (2,3) torus knot (tools/gen_knot)
# at each size as OBJ and as .glb and the demo scene (tools/gen_demo) at a few detail levels,
# then for each file and BVH layout runs
#   raycompact render --stats   the load by stage (read and parse, BVH, GPU upload), the SAH
#                               cost, host and device bytes per triangle, the process's peak
#                               resident memory
#   raycompact bench --json     Mrays/s of the wavefront (none, auto) and the bvh and
#                               persistent megakernels
# and writes OUT/runs/NAME.json (one per file and layout), OUT/geometry.md (the table, with the
# command, commit, date and machine) and OUT/geometry.png (matplotlib, when installed).
# Models are kept in OUT/models and made again when their generator is newer.
# `scripts/bench_geometry.sh --help` for the options.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
cmdline="scripts/bench_geometry.sh${*:+ $*}"

usage() {
    cat <<'EOF'
usage: scripts/bench_geometry.sh [--backend cpu|cuda] [--sizes LIST] [--layouts LIST]
                                 [--demo LIST|none] [--out DIR] [--build DIR]
  --backend cpu|cuda  the renderer's backend (default cuda where nvidia-smi lists a GPU, else cpu)
  --sizes LIST        knot sizes in millions of triangles, e.g. 0.1,1,4,16 (the default);
                      fractions are fine (0.01: 10 k triangles)
  --layouts LIST      BVH layouts, passed as --bvh (default binary, plus wide when
                      `raycompact bench --help` lists --bvh)
  --demo LIST|none    gen_demo --detail levels (about 65 k K^2 triangles each; default: those of
                      1, 4 and 8 that stay below 1.5x the largest size)
  --out DIR           results and cached models (default out/geometry)
  --build DIR         the build with bin/raycompact, bin/gen_knot and bin/gen_demo (default
                      build-gpu for cuda, build for cpu)
Relative paths are taken from the repository's root, where the script runs.
EOF
}

die() {
    echo "bench_geometry: $*" >&2
    exit 2
}
note() { echo "bench_geometry: $*" >&2; }

backend="" sizes=0.1,1,4,16 layouts="" demo="" out=out/geometry build=""
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    --backend | --sizes | --layouts | --demo | --out | --build)
        [ $# -ge 2 ] || die "$1 needs a value (see --help)"
        v=$2
        case $1 in
        --backend) backend=$v ;;
        --sizes) sizes=$v ;;
        --layouts) layouts=$v ;;
        --demo) demo=$v ;;
        --out) out=$v ;;
        --build) build=$v ;;
        esac
        shift 2
        ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done

if [ -z "$backend" ]; then
    backend=cpu
    nvidia-smi -L 2>/dev/null | grep -q "^GPU " && backend=cuda
fi
case $backend in cpu | cuda) ;; *) die "--backend: '$backend' is not one of: cpu, cuda" ;; esac
if [ -z "$build" ]; then
    build=build
    [ "$backend" = cuda ] && build="build-gpu"
fi
rc=$build/bin/raycompact gen_knot=$build/bin/gen_knot gen_demo=$build/bin/gen_demo
for b in "$rc" "$gen_knot"; do
    [ -x "$b" ] || die "$b not found (build it: cmake --build $build)"
done
command -v python3 >/dev/null 2>&1 || die "python3 not found (it writes the JSON and the table)"
"$gen_knot" --help 2>/dev/null | grep -q -- "--glb" || die "$gen_knot has no --glb (rebuild it)"

# sizes: positive numbers of millions, at most 200 (gen_knot's 1e8 vertices)
IFS=, read -ra size_list <<<"$sizes"
[ ${#size_list[@]} -gt 0 ] || die "--sizes: empty list"
for s in "${size_list[@]}"; do
    [[ $s =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v s="$s" 'BEGIN {exit !(s >= 0.001 && s <= 200)}' ||
        die "--sizes: '$s' is not a number of millions of triangles in 0.001..200"
done

bench_help=$("$rc" bench --help 2>&1)
render_help=$("$rc" render --help 2>&1)
has_bvh=0
grep -q -- "--bvh" <<<"$bench_help" && grep -q -- "--bvh" <<<"$render_help" && has_bvh=1
if [ -z "$layouts" ]; then
    layouts=binary
    [ $has_bvh = 1 ] && layouts=binary,wide
fi
IFS=, read -ra layout_list <<<"$layouts"
for l in "${layout_list[@]}"; do
    [[ $l =~ ^[a-z0-9]+$ ]] || die "--layouts: '$l' is not a layout name"
    [ "$l" = binary ] || [ $has_bvh = 1 ] ||
        die "--layouts: '$l' needs --bvh, which $rc does not have (binary only)"
done

max_m=$(printf '%s\n' "${size_list[@]}" | sort -g | tail -1)
if [ -z "$demo" ]; then
    demo=$(for k in 1 4 8; do
        awk -v k=$k -v m="$max_m" 'BEGIN {if (65536 * k * k <= 1.5e6 * m) print k}'
    done | paste -sd, -)
fi
[ "$demo" = none ] && demo=""
IFS=, read -ra demo_list <<<"$demo"
for k in "${demo_list[@]}"; do
    [[ $k =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le 32 ] ||
        die "--demo: '$k' is not a detail level in 1..32 (or none)"
done
if [ ${#demo_list[@]} -gt 0 ] && [ ! -x "$gen_demo" ]; then
    note "$gen_demo not built (it needs cJSON and libstb-dev): no demo scene"
    demo_list=()
fi

mkdir -p "$out/models" "$out/runs" || die "cannot make $out"

# fresh FILE GEN: FILE exists and is newer than its generator
fresh() { [ -s "$1" ] && [ "$1" -nt "$2" ]; }

# knot_dims M: RINGS SIDES for about M million triangles (2 RINGS SIDES), rings 20x the sides
# as in the shipped knot (1024 x 50)
knot_dims() {
    awk -v m="$1" 'BEGIN {n = m * 1e6; s = int(sqrt(n / 40) + 0.5); if (s < 3) s = 3
        r = int(n / (2 * s) + 0.5); if (r < 3) r = 3; print r, s}'
}

models=() # NAME|FILE
for m in "${size_list[@]}"; do
    read -r rings sides < <(knot_dims "$m")
    name=knot_${m}M
    obj=$out/models/$name.obj glb=$out/models/$name.glb
    if ! fresh "$obj" "$gen_knot"; then
        note "writing $obj ($rings x $sides, $((2 * rings * sides)) triangles)"
        "$gen_knot" "$rings" "$sides" >"$obj.tmp" && mv "$obj.tmp" "$obj" ||
            die "gen_knot $rings $sides failed"
    fi
    if ! fresh "$glb" "$gen_knot"; then
        note "writing $glb"
        "$gen_knot" "$rings" "$sides" --glb "$glb.tmp" && mv "$glb.tmp" "$glb" ||
            die "gen_knot $rings $sides --glb failed"
    fi
    models+=("${name}_obj|$obj" "${name}_glb|$glb")
done
for k in "${demo_list[@]}"; do
    f=$out/models/demo_d$k.glb
    if ! fresh "$f" "$gen_demo"; then
        note "writing $f (--detail $k)"
        "$gen_demo" --detail "$k" --out "$f.tmp.glb" >/dev/null && mv "$f.tmp.glb" "$f" ||
            die "gen_demo --detail $k failed"
    fi
    models+=("demo_d$k|$f")
done

# The image: tiny on the CPU (one frame of 128x72 after one warm-up frame, which takes the
# threads' start), whose bench has no megakernels; on CUDA 1280x720, 3 timed frames after one
# warm-up.
if [ "$backend" = cpu ]; then
    img=(--width 128 --height 72) timing=(--frames 1 --warmup 1) mk=()
else
    img=(--width 1280 --height 720) timing=(--frames 3 --warmup 1)
    mk=(--megakernel "bvh,persistent")
fi

# peak RSS of a command in KiB into FILE: GNU time where installed, else Python's getrusage
peak_rss() {
    local file=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o "$file" "$@"
    else
        python3 -c 'import resource, subprocess, sys
r = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r)' "$file" "$@"
    fi
}

runs=() fail=0 n=0 total=$((${#models[@]} * ${#layout_list[@]}))
for entry in "${models[@]}"; do
    name=${entry%%|*} file=${entry#*|}
    for l in "${layout_list[@]}"; do
        n=$((n + 1))
        run=$out/runs/${name}_$l
        bvh=()
        [ $has_bvh = 1 ] && bvh=(--bvh "$l")
        render=("$rc" render --backend "$backend" --scene "$file" "${img[@]}" --spp 1 --stats
            "${bvh[@]}" --out "$run.png")
        bench=("$rc" bench --backend "$backend" --scene "$file" "${img[@]}" "${timing[@]}"
            --samples-per-frame auto --algos "none,auto" --modes indices
            "${mk[@]}" "${bvh[@]}" --json "$run.bench.json")
        runs+=("$run.json")
        rm -f "$run.json" "$run.bench.json"
        note "[$n/$total] $name $l: render --stats"
        if ! peak_rss "$run.rss" "${render[@]}" >"$run.render.txt" 2>"$run.render.err"; then
            note "$name $l: render failed: $(tail -1 "$run.render.err")"
            fail=1
            continue
        fi
        note "[$n/$total] $name $l: bench"
        if ! "${bench[@]}" >"$run.bench.txt" 2>&1; then
            note "$name $l: bench failed: $(grep -m1 "raycompact" "$run.bench.txt")"
            fail=1
        fi
        python3 - "$run" "$name" "$file" "$l" "$backend" "${render[*]}" "${bench[*]}" <<'PY' ||
import json, math, os, re, sys
run, name, path, layout, backend, render_cmd, bench_cmd = sys.argv[1:]
text = open(run + ".render.txt").read()
def num(pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None
tris = num(r"scene: \d+ primitives, (\d+) triangles")
r = {"name": name, "file": path, "file_bytes": os.path.getsize(path), "layout": layout,
     "backend": backend, "triangles": tris,
     "load_ms": num(r"load: ([0-9.]+) ms"), "read_ms": num(r"read and parse ([0-9.]+) ms"),
     "images_ms": num(r"textures and environment ([0-9.]+) ms"),
     "bvh_ms": num(r", BVH ([0-9.]+) ms"), "upload_ms": num(r"GPU upload ([0-9.]+) ms") or 0.0,
     "bvh_nodes": num(r"BVH: (\d+) nodes"), "sah_cost": num(r"SAH cost ([0-9.]+)"),
     "host_bytes": num(r"memory: ([0-9.]+) MiB on the host"),
     "device_bytes": num(r"MiB on the host[^,]*, ([0-9.]+) MiB on a GPU"),
     "render_command": render_cmd, "bench_command": bench_cmd, "mrays_per_s": {}}
for k in ("host_bytes", "device_bytes"):
    r[k] = r[k] * 1048576 if r[k] is not None else None
try:
    rss = open(run + ".rss").read().split()
    r["peak_rss_kib"] = int(rss[-1])
except (OSError, ValueError, IndexError):
    r["peak_rss_kib"] = None
try:
    b = json.load(open(run + ".bench.json"))
    load = b.get("scene_load", {})
    # the bench's exact byte counts in place of the rounded MiB of --stats
    for k in ("host_bytes", "device_bytes"):
        if isinstance(load.get(k), (int, float)):
            r[k] = float(load[k])
    if backend == "cuda" and load.get("upload_ms"):
        r["upload_ms"] = r["upload_ms"] or load["upload_ms"]
    for run_ in b.get("runs", []):
        if "rays_per_s" in run_:
            r["mrays_per_s"][run_["algorithm"]] = run_["rays_per_s"] / 1e6
    for m in b.get("megakernels", []):
        r["mrays_per_s"]["megakernel_" + m["kind"]] = m["rays_per_s"] / 1e6
except (OSError, ValueError):
    pass
for k in ("host", "device"):
    v = r[k + "_bytes"]
    r[k + "_bytes_per_triangle"] = v / tris if v is not None and tris else None
json.dump(r, open(run + ".json", "w"), indent=1)
# what a sane run has: triangles, finite times, a positive SAH cost, bytes and rays/s
need = ["triangles", "load_ms", "read_ms", "bvh_ms", "sah_cost", "host_bytes_per_triangle",
        "device_bytes_per_triangle"]
bad = [k for k in need if not isinstance(r[k], float) or not math.isfinite(r[k]) or r[k] < 0]
bad += [k for k in ("triangles", "sah_cost", "host_bytes_per_triangle") if k not in bad and
        r[k] <= 0]
bad += ["Mrays/s " + a for a in ("none", "auto") if not
        (math.isfinite(r["mrays_per_s"].get(a, math.nan)) and r["mrays_per_s"][a] > 0)]
if bad:
    print(f"bench_geometry: {run}.json: missing, negative or not finite: {', '.join(bad)}",
          file=sys.stderr)
sys.exit(1 if bad else 0)
PY
            fail=1
    done
done

# ---- the table and the plot ----
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit (with local changes)"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
machine="${cpu:-unknown CPU}, $(nproc) cores${gpu:+, $gpu}"
python3 - "$out" "$cmdline" "$commit" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$machine" \
    "$backend" "${runs[@]}" <<'PY' || fail=1
import json, os, sys
out, cmdline, commit, date, machine, backend = sys.argv[1:7]
rows = [json.load(open(f)) for f in sys.argv[7:] if os.path.exists(f)]
rows.sort(key=lambda r: (r["name"].startswith("demo"), r["triangles"] or 0, r["name"], r["layout"]))
def fmt(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"
cols = ["file", "layout", "M tris", "MB", "read ms", "BVH ms", "upload ms", "load ms", "SAH",
        "host B/tri", "dev B/tri", "peak MiB", "none", "auto", "mk bvh", "mk persistent"]
lines = [f"# Geometry at scale: load and trace against triangles", "",
         f"- command: `{cmdline}`", f"- commit: `{commit}`", f"- date: {date}",
         f"- machine: {machine}", f"- backend: {backend}", "",
         "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
for r in rows:
    mr = r["mrays_per_s"]
    rss = r.get("peak_rss_kib")
    lines.append("| " + " | ".join([
        os.path.basename(r["file"]), r["layout"], fmt((r["triangles"] or 0) / 1e6, 3),
        fmt(r["file_bytes"] / 1e6), fmt(r["read_ms"]), fmt(r["bvh_ms"]), fmt(r["upload_ms"]),
        fmt(r["load_ms"]), fmt(r["sah_cost"], 2), fmt(r["host_bytes_per_triangle"]),
        fmt(r["device_bytes_per_triangle"]), fmt(rss / 1024 if rss else None),
        fmt(mr.get("none"), 2), fmt(mr.get("auto"), 2), fmt(mr.get("megakernel_bvh"), 2),
        fmt(mr.get("megakernel_persistent"), 2)]) + " |")
lines += ["", "Times in ms from `raycompact render --stats`; load = read and parse + textures +",
          "BVH; B/tri: bytes per triangle (the whole scene's, from `bench --json`); peak MiB:",
          "the render process's peak resident memory; the last four columns: Mrays/s from",
          "`raycompact bench` (wavefront with none and auto, the bvh and persistent",
          "megakernels). Per-run JSON: runs/NAME_LAYOUT.json.", ""]
open(os.path.join(out, "geometry.md"), "w").write("\n".join(lines))
print("\n".join(lines[8:8 + len(rows) + 2]))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("bench_geometry: matplotlib not installed: no plot", file=sys.stderr)
    sys.exit(0)
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
series = sorted({(r["name"].rsplit("_", 1)[-1] if r["name"].startswith("knot") else "demo",
                  r["layout"]) for r in rows})
label = lambda kind: kind if kind == "demo" else "knot " + kind
for kind, layout in series:
    pts = sorted((r["triangles"], r) for r in rows if r["layout"] == layout and
                 (r["name"].startswith("demo") if kind == "demo" else
                  r["name"].startswith("knot") and r["name"].endswith(kind)))
    x = [t for t, _ in pts]
    a.plot(x, [r["load_ms"] for _, r in pts], "o-", label=f"{label(kind)} {layout}")
    y = [r["mrays_per_s"].get("auto") for _, r in pts]
    b.plot(x, [v if v is not None else float("nan") for v in y], "o-",
           label=f"{label(kind)} {layout}")
for ax, t in ((a, "load ms (read, textures, BVH)"), (b, "Mrays/s (wavefront, auto)")):
    ax.set_xscale("log")
    ax.set_xlabel("triangles")
    ax.set_title(t)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
a.set_yscale("log")
fig.suptitle(f"{machine}, {backend}, {commit}", fontsize=9)
fig.tight_layout()
fig.savefig(os.path.join(out, "geometry.png"), dpi=110)
print(f"bench_geometry: wrote {os.path.join(out, 'geometry.png')}", file=sys.stderr)
PY
status=""
[ $fail = 0 ] || status=" (some runs failed)"
note "wrote $out/geometry.md$status"
exit $fail
