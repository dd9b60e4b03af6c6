#!/usr/bin/env bash
# fetch_view_deps.sh: on a machine with apt and a network, download the Debian packages (amd64)
# that `scripts/gpu.sh view` unpacks on a GPU machine that has no display, no package manager and
# none of the viewer's libraries:
#   .gl/        the glvnd loaders (libEGL, libOpenGL, libGL, ...), unpacked into / there;
#   .deps/view/ SDL2, libepoxy and pkgconf, with their -dev files, and the shared libraries
#               libSDL2 links (Debian's build links X11, Wayland, xkbcommon, PulseAudio, ALSA,
#               libdrm and libgbm directly, so they must load even though the offscreen video
#               driver never calls them), unpacked into a prefix there.
# The runtime closure is apt's dependency closure of the runtime packages, less what every
# Debian or Ubuntu base image holds, pruned to the packages whose libraries the dynamic linker
# actually reaches from libSDL2, libepoxy and pkgconf (their ELF NEEDED entries).
set -euo pipefail
cd "$(dirname "$0")/.."

apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64
    -oAPT::Sandbox::User=root)
glvnd=(libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
# libgl-dev: GL/gl.h, which cuda_gl_interop.h includes by name
dev=(libsdl2-dev libepoxy-dev libgl-dev)
runtime=(libsdl2-2.0-0 libepoxy0 pkgconf pkgconf-bin libpkgconf3)
# Present in every Debian/Ubuntu base image (or only data and maintainer scripts the libraries
# do not need to load): never carried.
base='gcc-12-base gcc-13-base libc6 libgcc-s1 libstdc++6 zlib1g libzstd1 liblzma5 liblz4-1
libbz2-1.0 libcap2 libgcrypt20 libgpg-error0 libsystemd0 libelogind0 libudev1 libffi8
libselinux1 libpcre2-8-0 libcrypt1 libmd0 lsb-base sysvinit-utils x11-common libasound2-data
libx11-data libdrm-common xkb-data'
# The sonames those base packages provide, which the closure check accepts unresolved.
base_sonames='libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libresolv.so.2
ld-linux-x86-64.so.2 libgcc_s.so.1 libstdc++.so.6 libz.so.1 libzstd.so.1 liblzma.so.5
liblz4.so.1 libbz2.so.1.0 libcap.so.2 libgcrypt.so.20 libgpg-error.so.0 libsystemd.so.0
libudev.so.1 libffi.so.8 libselinux.so.1 libpcre2-8.so.0 libcrypt.so.1 libmd.so.0'

mkdir -p /tmp/amd64/partial
apt-get "${apt_opts[@]}" -qq update

# apt's closure of the runtime packages, virtual names and base packages left out.
closure() {
    apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
        --no-breaks --no-replaces --no-enhances "$@" |
        grep -v '^ ' | grep -v '^<' | sort -u | grep -vxF -f <(tr -s ' \n' '\n' <<<"$base")
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t candidates < <(closure "${runtime[@]}")
(cd "$tmp" && apt-get "${apt_opts[@]}" -qq download "${dev[@]}" "${candidates[@]}")

# Unpack each package into its own tree, and index its shared objects by soname.
declare -A soname_file
for deb in "$tmp"/*.deb; do
    pkg=$(dpkg-deb -f "$deb" Package)
    mkdir -p "$tmp/x"
    dpkg -x "$deb" "$tmp/x/$pkg"
    while IFS= read -r f; do
        so=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
        [ -n "$so" ] && soname_file[$so]=$f
    done < <(find "$tmp/x/$pkg" -type f -name '*.so*')
done

# Breadth-first over NEEDED from the programs' entry points.
declare -A keep seen
queue=("$tmp/x/libsdl2-2.0-0/usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0"
       "$tmp/x/libepoxy0/usr/lib/x86_64-linux-gnu/libepoxy.so.0"
       "$tmp/x/pkgconf-bin/usr/bin/pkgconf")
keep[pkgconf]=1
missing=()
while [ ${#queue[@]} -gt 0 ]; do
    f=$(readlink -f "${queue[0]}")
    queue=("${queue[@]:1}")
    [ -n "${seen[$f]:-}" ] && continue
    seen[$f]=1
    rel=${f#"$tmp"/x/}
    keep[${rel%%/*}]=1
    for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        if [ -n "${soname_file[$so]:-}" ]; then
            queue+=("${soname_file[$so]}")
        elif ! grep -qwF "$so" <<<"$base_sonames"; then
            missing+=("$so (needed by ${f#"$tmp"/x/})")
        fi
    done
done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'fetch_view_deps: not in the closure nor a base library: %s\n' "${missing[@]}" >&2
    exit 1
fi

rm -rf .deps/view .gl
mkdir -p .deps/view .gl
for deb in "$tmp"/*.deb; do
    pkg=$(dpkg-deb -f "$deb" Package)
    if [ -n "${keep[$pkg]:-}" ] || [[ " ${dev[*]} " == *" $pkg "* ]]; then
        mv "$deb" ".deps/view/$(basename "$deb" | sed 's/%3a/-/g')" # no epoch's colon in names
    else
        echo "fetch_view_deps: left out $pkg (no library of it is loaded)"
    fi
done
(cd .gl && apt-get "${apt_opts[@]}" -qq download "${glvnd[@]}")

for d in .deps/view .gl; do
    names=$(find "$d" -name '*.deb' -printf '%f\n' | sed 's/_.*//' | sort)
    echo "fetch_view_deps: $d: $(wc -l <<<"$names") packages, $(du -sh "$d" | cut -f1): $(tr '\n' ' ' <<<"$names")"
done
echo "fetch_view_deps: carried in all (.gl + .deps): $(du -sch .gl .deps | tail -1 | cut -f1)"
