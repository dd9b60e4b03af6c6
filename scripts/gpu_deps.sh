# shellcheck shell=bash
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

# gpu_build LOG [TARGET...]: configure build-gpu for sm_90 with the CUDA backend, warnings as
# errors and the packages above (plus what the caller appended to `args`), then build the
# targets (every target when none is named); the output goes to LOG. Prints the build time;
# on failure prints the errors from LOG and returns 1.
gpu_build() {
    local log=$1 t0=$SECONDS
    shift
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DRAYCOMPACT_CUDA=ON -DRAYCOMPACT_WERROR=ON "${args[@]}" >"$log" 2>&1 &&
        cmake --build build-gpu -j "$(nproc)" "${targets[@]}" >>"$log" 2>&1 ||
        { grep -B2 -A12 -E "error|Error" "$log" | head -80; return 1; }
    echo "built in $((SECONDS - t0)) s"
}
