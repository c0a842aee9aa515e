#!/usr/bin/env bash
# The main job on the example rig shipped in the repository: builds the tools, then describes and
# checks examples/mannequin/mannequin.mskel. Runs the set-up first, so it works on a fresh Debian 12
# machine.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target mfe
rig=examples/mannequin/mannequin.mskel
build/release/bin/mfe skel describe "$rig"
build/release/bin/mfe skel check "$rig"
