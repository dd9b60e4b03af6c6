#!/usr/bin/env bash
# test.sh: set up (install what every test needs, configure, build everything) and run every
# test. GPU tests report "skipped" (exit 77) on a machine without a CUDA device.
# Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/setup.sh test "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
