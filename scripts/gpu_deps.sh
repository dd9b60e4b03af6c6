# gpu_deps.sh: sourced by the gpu_*.sh scripts. On a GPU machine without Debian's -dev packages,
# use the ones unpacked with `dpkg -x` under .deps/root (scripts/setup.sh installs them the usual
# way elsewhere): appends their prefix to the array `args` (CMake arguments) and exports the
# include and library paths.
root=$PWD/.deps/root/usr
if [ -d "$root" ]; then
    # the unpacked cJSON package names /usr/include: point it at the unpacked tree instead
    sed -i "s|\"/usr|\"$root|g" "$root"/lib/x86_64-linux-gnu/cmake/cJSON/*.cmake
    export CPATH="$root/include${CPATH:+:$CPATH}"
    export LD_LIBRARY_PATH="$root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    args+=(-DCMAKE_PREFIX_PATH="$root")
fi
