#!/usr/bin/env bash
# demo.sh: set up (install, configure, build) and run the main job: the algorithm table and
# a pass-by-pass trace of Jumping Jack on the JJ paper's Fig. 7 stream.
# Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/setup.sh "$build" >&2
"$build"/compaction/tools/compact list
echo
"$build"/compaction/tools/compact explain jumping-jack --mask 0110011000100100
