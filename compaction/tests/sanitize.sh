#!/bin/sh
# sanitize.sh BUILD_DIR [ALGO...]: run the GPU tests on small streams (--quick, n <= 2^17) under
# compute-sanitizer's memcheck and racecheck tools: the per-API tests with --backend cuda and the
# test_gpu_* programs. Exits non-zero on any finding or when compute-sanitizer is not installed,
# 77 when no CUDA device answers (every test skipped). ALGO names limit test_flagged to those
# algorithms.
set -u
build=${1:?usage: sanitize.sh BUILD_DIR [ALGO...]}
shift
# BUILD_DIR: the raycompact root's build, the library's own (cmake -S compaction), or its tests.
tests="$build"
for sub in compaction/tests tests; do
    [ -d "$build/$sub" ] && tests="$build/$sub" && break
done
sanitizer=$(command -v compute-sanitizer || true)
if [ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
    sanitizer=/usr/local/cuda/bin/compute-sanitizer
fi
if [ -z "$sanitizer" ]; then
    echo "sanitize.sh: compute-sanitizer not found (CUDA toolkit)" >&2
    exit 1
fi

status=0
ran=0
for bin in "$tests"/test_flagged "$tests"/test_remove "$tests"/test_partition "$tests"/test_auto \
    "$tests"/test_gpu_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    # the foreign probe fails on purpose
    case "$name" in test_gpu_probe_foreign) continue ;; esac
    args="--quick"
    case "$name" in test_flagged | test_remove | test_partition | test_auto)
        args="--backend cuda --quick" ;;
    esac
    [ "$name" = test_flagged ] && args="$args $*"
    for tool in memcheck racecheck; do
        extra=""
        [ "$tool" = memcheck ] && extra="--leak-check full"
        echo "== $tool: $name $args"
        # shellcheck disable=SC2086
        "$sanitizer" --tool "$tool" $extra --error-exitcode 1 "$bin" $args
        rc=$?
        [ "$rc" -ne 77 ] && ran=1
        # 77: the test found no device; the sanitizer itself then has nothing to check.
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
            echo "sanitize.sh: $tool failed on $name (exit $rc)"
            status=1
        fi
    done
done
if [ "$ran" -eq 0 ]; then
    echo "sanitize.sh: no CUDA device: skipped"
    exit 77
fi
[ "$status" -eq 0 ] && echo "sanitize.sh: clean"
exit "$status"
