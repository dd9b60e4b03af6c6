#!/usr/bin/env bash
# gpu_view.sh OUTDIR: build `raycompact view` on a GPU machine that has no display, no X server
# and no SDL2 or libepoxy, and run it there with SDL2's offscreen video driver: an EGL pbuffer
# on the GPU, no window system. It needs the packages scripts/fetch_view_deps.sh downloaded:
#   .gl/*.deb        the glvnd loaders, unpacked into / where they are missing;
#   .deps/*.deb      cJSON and stb (unpacked into .deps/root, as scripts/gpu_check.sh uses it);
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
# script can be tried on a machine with no GPU (then __EGL_VENDOR_LIBRARY_FILENAMES, if set,
# picks the EGL driver).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
repo=$PWD
out=${1:?usage: gpu_view.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
backend=${VIEW_BACKEND:-cuda}
b=$repo/build-view-gpu
arch=x86_64-linux-gnu
log=$out/build.log
: >"$log"

die() {
    echo "gpu_view: $*"
    tail -40 "$log"
    exit 1
}

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

# ---- cJSON and stb, as scripts/gpu_check.sh finds them ----
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

# ---- configure and build ----
args=(-DCMAKE_BUILD_TYPE=Release -DRAYCOMPACT_WERROR=ON -DPKG_CONFIG_EXECUTABLE="$pkgconf"
      -DCMAKE_PREFIX_PATH="$vr/usr;$root"
      # libSDL2's own libraries, for the linker's check of its undefined symbols
      -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$vlibs")
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

# ---- run: libSDL2's libraries from the prefix, EGL through glvnd ----
export LD_LIBRARY_PATH=$vlibs:$root/lib/$arch${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# the driver's EGL and GL libraries, should the loader cache not list them
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    [ -d "$d" ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d
done
export SDL_VIDEODRIVER=offscreen OMP_WAIT_POLICY=PASSIVE
deps=$(ldd "$exe" 2>&1)
printf '== ldd %s\n%s\n' "$exe" "$deps" >>"$log"
grep -E "libSDL2|libepoxy|not found" <<<"$deps" | sed 's/^\s*/gpu_view: /'
echo "gpu_view: from outside .deps/viewroot: $(grep -vF "$vr" <<<"$deps" | awk '/=>/ {printf "%s ", $1}')"
grep -q "not found" <<<"$deps" && die "libraries not found"

# session NAME DIR SCRIPT ARGS...: the viewer in DIR (its screenshots land there), its output in
# $out/NAME.log; prints the exit code.
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

# The viewer's frame time at one sample per frame, spheres 1280x720 (the default window size):
# the host loop of earlier releases against the graph loop, with auto and with `none`.
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
