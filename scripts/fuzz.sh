#!/usr/bin/env bash
# fuzz.sh: run one fuzz target (tests/fuzz/) under libFuzzer, with AddressSanitizer and
# UndefinedBehaviorSanitizer, for as long as asked.
# Usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   TARGET: scene | obj | mtl | gltf | mask | raycompact_cli | compact_cli | tune_from | view_script |
#           texture | envmap
# The first run configures build-fuzz/ with clang (CUDA off, RAYCOMPACT_FUZZ=ON); each run
# builds the target there. The checked-in seeds (tests/fuzz/corpus/TARGET) are read, never
# written: new inputs go to build-fuzz/corpus/TARGET, a finding to
# build-fuzz/findings/TARGET/crash-* (replay it: build-fuzz/tests/fuzz/fuzz_TARGET FILE).
# The log, without the targets' own one-line error messages, is build-fuzz/fuzz-TARGET.log;
# its last "#N ... cov: ... ft: ... exec/s: ..." line says how far the run got.
# Environment: CC (default clang) for the first configure.
set -euo pipefail
cd "$(dirname "$0")/.."
targets="scene obj mtl gltf mask raycompact_cli compact_cli tune_from view_script texture envmap"
if [ $# -lt 2 ] || ! [[ " $targets " == *" $1 "* ]] || ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]  (TARGET: $targets)" >&2
    exit 2
fi
target=$1 seconds=$2
shift 2
build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
    CC=${CC:-clang} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DRAYCOMPACT_CUDA=OFF -DRAYCOMPACT_FUZZ=ON -DRAYCOMPACT_WERROR=ON >/dev/null
fi
cmake --build "$build" -j 2 --target "fuzz_$target" >/dev/null
mkdir -p "$build/corpus/$target" "$build/findings/$target"
log=$build/fuzz-$target.log
echo "fuzz.sh: $target for $seconds s; log $log" >&2
# Leaks are checked too (detect_leaks); stdout (help texts) is closed; the targets' messages
# ("raycompact render: ...", "compact bench: ...") are left out of the log.
set +e
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=1 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$target/" "$@" \
    "$build/corpus/$target" "tests/fuzz/corpus/$target" 2>&1 |
    grep -a -v --line-buffered -E '^(raycompact|compact)( [a-z]+)?: |^replay: ' >"$log"
rc=${PIPESTATUS[0]}
set -e
grep -a -E '^#[0-9]+' "$log" | tail -1 >&2 || true
if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: $target: a finding (exit $rc): see $log and $build/findings/$target/" >&2
    exit 1
fi
echo "fuzz.sh: $target: no finding in $seconds s" >&2
