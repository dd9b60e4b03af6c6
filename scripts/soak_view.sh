#!/usr/bin/env bash
# soak_view.sh [SECONDS] [OUTDIR]: `raycompact view` left running for SECONDS (default 600), a
# setting switched every 2 seconds, its memory watched. Writes into OUTDIR (default
# out/soak_view): soak_script.txt (the viewer's --script), view.log and view.err (its output),
# soak-NNN.png (a screenshot at every sample) and soak_table.txt (the samples and the verdict).
#
# The switches cycle through algorithm (Tab), mode (M), scene (N: the .json files beside the
# scene), light sampling (I) and window size (`resize`: the image size follows the window, so
# renderer, film and interop buffer are made anew). They run in rounds: each round visits
# every algorithm and every scene, both modes and light samplings and every window size, and
# ends where it began (Shift+Tab and Shift+N back, the first size again). At the end of a round
# the viewer takes a screenshot and prints its memory (the script's `memory`: the heap in use
# as glibc counts it, the resident set and its anonymous part, all read by the viewer itself
# between two frames), and the script adds the device memory in use (nvidia-smi: the process's
# own, or the GPU's total where the process is not listed, e.g. in a container; "n/a" without a
# GPU), so every sample sees the same state. A round lasts about a
# minute at a 2-second step (SOAK_INTERVAL: a sample every that many seconds, in whole rounds).
#
# The verdict (one line, also the table's last line; exit 0 only on PASS): the viewer exited 0,
# its stderr holds no error line (every line is one, but the notices that CUDA-GL interop is
# unavailable or that the CPU renders), no compute-sanitizer error in its output, and the
# heap in use, the anonymous resident memory and the device memory stay flat after the warm-up
# (the first minute, or the first third of a shorter run, and the first sample in any case):
# the median of the later half of those samples at most a stated margin above the median of
# the earlier half (see "The checks" below). Exits 77 (skipped) without a CUDA
# device for the CUDA backend, without a display for the viewer, or with a build without one.
#
# Backend: CUDA when nvidia-smi lists a GPU, on SDL's offscreen driver (EGL, no X server, as in
# `scripts/gpu.sh view`), else the CPU under xvfb-run (or on $DISPLAY when xvfb-run is missing).
# Where .deps/viewroot holds the unpacked viewer packages (`scripts/gpu.sh view` makes it from
# scripts/fetch_view_deps.sh's downloads), their libraries are put on LD_LIBRARY_PATH.
# Environment (relative paths, as OUTDIR, from the repository's root):
#   RAYCOMPACT      the binary (default build/bin/raycompact, else build/app/raycompact)
#   SOAK_BACKEND    cuda | cpu
#   SOAK_STEP_MS    time between two switches (default 2000)
#   SOAK_HOLD_MS    how long the round's last state stays for its sample (default 2000)
#   SOAK_INTERVAL   seconds between samples, to the nearest whole number of rounds (default 60)
#   SOAK_WARMUP     seconds before the samples that must stay flat (default: 60, or a third of
#                   a run shorter than 180 s)
#   SOAK_TABS       Tab presses a round (default: as many as there are algorithms, less one)
#   SOAK_SCENE      the first scene (default scenes/cornell.json); N steps through its folder
#   SOAK_WINDOW     the first window size (default 1280x720 on cuda, 320x240 on cpu)
#   SOAK_SIZES      the other window sizes (default "1600x900 960x540 1920x1080" on cuda,
#                   "400x300 256x192 480x360" on cpu)
#   SOAK_ARGS       more viewer options (default "--width 1280 --height 720" on cuda,
#                   "--width 64 --height 36 --max-depth 4" on cpu)
#   SOAK_MALLOC_TUNABLES  glibc malloc tunables for the viewer (default: a fixed mmap threshold,
#                   see below; empty: glibc's defaults)
#   SOAK_WRAP       a command the viewer runs under, e.g.
#                   "compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1"
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
repo=$PWD
seconds=${1:-600}
out=${2:-out/soak_view}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "soak_view: SECONDS must be a whole number of seconds, not '$seconds'"
    exit 2
fi
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
skip() {
    echo "soak_view: SKIPPED: $*"
    exit 77
}

exe=${RAYCOMPACT:-}
if [ -z "$exe" ]; then
    for e in build/bin/raycompact build/app/raycompact; do [ -x "$e" ] && exe=$repo/$e && break; done
fi
case "$exe" in /* | "") ;; *) exe=$repo/$exe ;; esac
if [ -z "$exe" ] || [ ! -x "$exe" ]; then
    echo "soak_view: no raycompact binary (set RAYCOMPACT)"
    exit 1
fi
backend=${SOAK_BACKEND:-}
if [ -z "$backend" ]; then
    backend=cpu
    nvidia-smi -L 2>/dev/null | grep -q "^GPU " && backend=cuda
fi
step=${SOAK_STEP_MS:-2000}
hold=${SOAK_HOLD_MS:-2000}
interval=${SOAK_INTERVAL:-60}
warmup=${SOAK_WARMUP:-$((seconds < 180 ? seconds / 3 : 60))}
scene=${SOAK_SCENE:-$repo/scenes/cornell.json}
if [ "$backend" = cuda ]; then
    window=${SOAK_WINDOW:-1280x720}
    read -ra sizes <<<"${SOAK_SIZES:-1600x900 960x540 1920x1080}"
    read -ra extra <<<"${SOAK_ARGS:---width 1280 --height 720}"
else
    window=${SOAK_WINDOW:-320x240}
    read -ra sizes <<<"${SOAK_SIZES:-400x300 256x192 480x360}"
    read -ra extra <<<"${SOAK_ARGS:---width 64 --height 36 --max-depth 4}"
fi
read -ra wrap <<<"${SOAK_WRAP:-}"

# ---- where the viewer's libraries and display come from ----
vr=$repo/.deps/viewroot
if ldd "$exe" 2>/dev/null | grep -q "not found" && [ -d "$vr" ]; then
    vlibs=$(find "$vr" "$repo/.deps/root" -name '*.so*' -printf '%h\n' 2>/dev/null | sort -u |
        paste -sd:)
    export LD_LIBRARY_PATH=$vlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
        [ -d "$d" ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d
    done
fi
nv_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$nv_egl" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=$nv_egl
fi
export OMP_WAIT_POLICY=PASSIVE
# glibc's malloc raises its mmap threshold each time a large mmapped block is freed, after which
# blocks of that size come from the heap and stay resident or not as fragmentation decides: the
# viewer's resident memory then moves by several MiB between samples of one state while the heap
# in use stays the same. A fixed threshold (no dynamic adjustment) keeps large blocks mmapped
# and returned on free, so resident memory follows the memory in use and a leak is what moves
# it. Without the per-thread caches of freed blocks (tcache_count=0), which glibc counts as in
# use and which fill over minutes (tens of KiB a thread), the heap in use of one state is the
# same to a KiB or so. SOAK_MALLOC_TUNABLES= (empty) keeps glibc's defaults.
tun=${SOAK_MALLOC_TUNABLES-glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=262144:glibc.malloc.tcache_count=0}
[ -n "$tun" ] && export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$tun
display=()
if [ "$backend" = cuda ]; then
    export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen}
elif command -v xvfb-run >/dev/null; then
    display=(xvfb-run -a -s "-screen 0 2048x2048x24")
elif [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}${SDL_VIDEODRIVER:-}" ]; then
    skip "no display and no xvfb-run for the CPU backend"
fi

# ---- the script: rounds of switches, each back where it began, a screenshot at its end ----
sdir=$(dirname "$scene")
nscenes=$(find "$sdir" -maxdepth 1 -name '*.json' | wc -l)
nalgos=$("$exe" view --help 2>/dev/null | sed -n 's/.*one of: //p' | head -1 | tr ',' '\n' |
    wc -l)
tabs=${SOAK_TABS:-$((nalgos > 1 ? nalgos - 1 : 14))}
repeat() { # repeat N LINE: LINE N times, one a line
    local i
    for ((i = 0; i < $1; i++)); do printf '%s\n' "$2"; done
}
# One queue of slots per kind, in the order the kinds take turns; a slot's lines run together
# (a '|' separates them), then the step's wait. The last slot of each goes back to the start.
queues=("$(repeat "$tabs" "key Tab"; repeat 1 "$(repeat "$tabs" "key Shift+Tab" | paste -sd'|')")"
        "$(repeat 2 "key M")"
        "$(repeat $((nscenes - 1)) "key N"
           [ "$nscenes" -gt 1 ] && repeat 1 "$(repeat $((nscenes - 1)) "key Shift+N" | paste -sd'|')"
           [ "$nscenes" -le 1 ] && echo "key N")"
        "$(repeat 2 "key I")"
        "$(for s in "${sizes[@]}" "$window"; do echo "resize ${s/x/ }"; done)")
round=()
for ((i = 0; ; i++)); do
    more=0
    for q in "${queues[@]}"; do
        line=$(sed -n "$((i + 1))p" <<<"$q")
        [ -n "$line" ] && round+=("$line") && more=1
    done
    [ "$more" = 1 ] || break
done
round_ms=$((${#round[@]} * step + hold))
every=$(((interval * 1000 + round_ms / 2) / round_ms)) # rounds between two samples
[ "$every" -ge 1 ] || every=1
script=$out/soak_script.txt
{
    echo "# soak_view.sh: ${#round[@]} switches a round, one every $step ms; a screenshot (the"
    echo "# sample) every $every round(s), each after the round has come back to the start."
    t=0 r=0
    while :; do
        for slot in "${round[@]}"; do
            [ $((t + step)) -le $((seconds * 1000)) ] || break 2
            tr '|' '\n' <<<"$slot"
            echo "wait $step ms"
            t=$((t + step))
        done
        r=$((r + 1))
        if [ $((r % every)) = 0 ]; then
            printf 'screenshot soak-%03d.png\nmemory\nwait %d ms\n' "$r" "$hold"
            t=$((t + hold))
        fi
    done
    [ "$t" -lt $((seconds * 1000)) ] && echo "wait $((seconds * 1000 - t)) ms"
    echo quit
} >"$script"

# ---- run it, sampling at each screenshot ----
case "$scene" in /*) ;; *) scene=$repo/$scene ;; esac
cmd=("${display[@]}" "${wrap[@]}" "$exe" view --scene "$scene" --backend "$backend"
     --window "$window" "${extra[@]}" --script "$script")
echo "soak_view: $backend backend, ${seconds} s, ${#round[@]} switches a round every $step ms" \
    "(~$((round_ms / 1000)) s a round), a sample every $every round(s), warm-up $warmup s"
echo "soak_view: ${cmd[*]}${tun:+ (GLIBC_TUNABLES=$GLIBC_TUNABLES)}"
log=$out/view.log err=$out/view.err table=$out/soak_table.txt
rm -f "$out"/soak-*.png
limit=$((seconds * 3 + 300))
[ ${#wrap[@]} -gt 0 ] && limit=$((seconds * 10 + 600))
t0=$(date +%s.%N)
(cd "$out" && exec timeout --kill-after=20 "$limit" "${cmd[@]}") >"$log" 2>"$err" &
runner=$!
trap 'kill -TERM "$runner" 2>/dev/null; exit 130' INT TERM

# The viewer's process: the runner's descendant named raycompact (under xvfb-run or a tool).
viewer_pid() {
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$runner" '
        { parent[$1] = $4; name[$1] = $2 }
        END { for (p in name) if (name[p] == "(raycompact)")
                  for (q = p; q in parent; q = parent[q]) if (q == root) { print p; exit } }'
}
gpu_mib() { # the process's device memory, else the GPUs' total (marked), else n/a
    local m
    m=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits \
        2>/dev/null | awk -F', *' -v p="$1" '$1 == p { s += $2; f = 1 } END { if (f) print s }')
    [ -n "$m" ] && { echo "$m"; return; }
    m=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null |
        awk '{ s += $1; f = 1 } END { if (f) print s "*" }')
    echo "${m:-n/a}"
}
printf '# raycompact view soak: %s backend, %s s, a switch every %s ms, a sample every %s\n' \
    "$backend" "$seconds" "$step" "$every round(s) (the same state each time)" >"$table"
printf '# gpu_mib: the process'"'"'s device memory (nvidia-smi); * the GPUs'"'"' total\n' >>"$table"
printf '%-6s %-8s %-10s %-10s %-10s %-10s\n' sample t_s heap_kib rss_kib anon_kib gpu_mib >>"$table"
seen=0 vpid=
while kill -0 "$runner" 2>/dev/null; do
    [ -n "$vpid" ] || vpid=$(viewer_pid)
    n=$(grep -c '^raycompact view: memory: ' "$log" 2>/dev/null)
    if [ "${n:-0}" -gt "$seen" ]; then
        seen=$n
        read -r heap rss anon < <(grep '^raycompact view: memory: ' "$log" | sed -n "${n}p" |
            sed -E 's/.*heap ([0-9]+|n\/a)( KiB)? in use, resident ([0-9]+|n\/a)( KiB)? \(anonymous ([0-9]+|n\/a).*/\1 \3 \5/')
        gpu=n/a
        [ "$backend" = cuda ] && [ -n "$vpid" ] && gpu=$(gpu_mib "$vpid")
        t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        [ -n "$rss" ] && printf '%-6s %-8s %-10s %-10s %-10s %-10s\n' "$n" "$t" "${heap:-n/a}" \
            "$rss" "${anon:-n/a}" "$gpu" >>"$table"
    fi
    sleep 0.1
done
wait "$runner"
rc=$?
trap - INT TERM
elapsed=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')

# ---- the verdict ----
unusable='no usable CUDA device|has no CUDA backend|has no viewer|no display|no OpenGL 3.3|Xvfb failed'
if [ "$seen" = 0 ] && grep -qE "$unusable" "$err"; then
    skip "$(grep -m1 -E "$unusable" "$err")"
fi
why=()
[ "$rc" = 0 ] || why+=("exit $rc$([ "$rc" = 124 ] && echo " (timed out after $limit s)")")
errors=$(grep -vE 'no CUDA-GL interop \(.*\): frames go through host memory|rendering on the CPU' \
    "$err" | grep -v '^\s*$')
[ -z "$errors" ] || why+=("$(wc -l <<<"$errors") error line(s) on stderr, the first: $(head -1 <<<"$errors")")
san=$(grep -hE '^========= (ERROR SUMMARY: [1-9]|Leaked|Invalid|Program hit)' "$log" "$err" | head -1)
[ -z "$san" ] || why+=("compute-sanitizer: $san")
# flat COLUMN NAME UNIT PCT [FLOOR]: the samples taken after the warm-up (and after the first
# sample, whose round is the first whatever the time: a loaded machine can stretch it past the
# warm-up): the median of their later half at most PCT % (or FLOOR units, the larger) above the
# median of their earlier half. A leak lifts the later half; memory given back (the later half
# lower: the allocator returning a freed scene's pages) is no leak.
flat() {
    awk -v col="$1" -v name="$2" -v unit="$3" -v pct="$4" -v floor="${5:-0}" -v w="$warmup" '
        function median(lo, hi,    i, j, k, t, m, s) { # of v[lo..hi-1]
            m = 0
            for (i = lo; i < hi; i++) s[m++] = v[i]
            for (i = 1; i < m; i++)
                for (j = i; j > 0 && s[j - 1] > s[j]; j--) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
            k = int(m / 2)
            return m % 2 ? s[k] : (s[k - 1] + s[k]) / 2
        }
        !/^#/ && $1 != "sample" && rows++ > 0 && $2 >= w && $col != "n/a" {
            x = $col; sub(/\*$/, "", x); v[n++] = x + 0
            if (n == 1 || x + 0 < lo) lo = x + 0; if (n == 1 || x + 0 > hi) hi = x + 0 }
        END {
            if (n < 2) { printf "%s: %d sample(s) after the warm-up, not checked\n", name, n; exit 0 }
            a = median(0, int(n / 2)); b = median(int(n / 2), n); d = 100 * (b - a) / a
            limit = a * pct / 100; if (limit < floor) limit = floor
            printf "%s %d..%d %s over %d samples, later half %+.0f %s (%+.2f %%, limit %.0f)\n",
                   name, lo, hi, unit, n, b - a, unit, d, limit
            exit (b - a > limit ? 1 : 0) }' "$table"
}
# The checks. The heap in use (the viewer's `memory`: glibc's count of bytes allocated and not
# freed, with the per-thread caches of freed blocks off, see GLIBC_TUNABLES above) is exact: it
# moves by a KiB or so between samples of one state, so a leak of a few KiB a round shows;
# 0.1 % or 16 KiB. The anonymous resident memory (heap pages, stacks, mappings made outside
# malloc such as a driver's pinned buffers) also moves with fragmentation, with the stack pages
# threads touch and with what a GL driver compiles (up to 1 % of the CPU viewer's between
# samples of a loaded machine): 5 % or 2 MiB, for what leaks outside malloc. The whole resident set is shown, not checked: it also counts pages of
# shared libraries read in as new code paths run (over 1 % of the CPU viewer's under load).
# Device memory (nvidia-smi's, in MiB): 1 %.
heap_line=$(flat 3 heap KiB 0.1 16) || why+=("heap in use not flat: $heap_line")
anon_line=$(flat 5 "anonymous RSS" KiB 5 2048) || why+=("anonymous resident memory not flat: $anon_line")
rss_line=$(flat 4 RSS KiB 100)
gpu_line=device:n/a
[ "$backend" = cuda ] && { gpu_line=$(flat 6 device MiB 1) || why+=("device memory not flat: $gpu_line"); }
samples=$(grep -cvE '^#|^sample' "$table")
[ "$samples" -gt 0 ] || why+=("no sample taken (no round finished)")
if [ ${#why[@]} = 0 ]; then
    verdict="soak_view: PASS: $backend, $elapsed s, $samples samples; exit 0, no error lines; $heap_line; $anon_line; $rss_line; $gpu_line"
else
    verdict="soak_view: FAIL: $(printf '%s; ' "${why[@]}")($backend, $elapsed s, $samples samples)"
fi
echo "$verdict" | tee -a "$table"
echo "soak_view: table $table"
[ ${#why[@]} = 0 ]
