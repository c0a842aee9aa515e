#!/usr/bin/env bash
# The main job on the example rig shipped in the repository: builds the tools, checks
# examples/mannequin/mannequin.mskel, then renders its walk cycle to a contact sheet (8 frames with
# onion skins, bones, bounds and the timeline with its footstep events) and prints where the PNG is.
# Rendering is headless: the GPU when there is one, else Mesa's lavapipe on the CPU
# (MF_VULKAN_DEVICE=llvmpipe forces it). Runs the set-up first, so it works on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target mfe
mfe=build/release/bin/mfe
rig=examples/mannequin/mannequin.mskel
"$mfe" skel describe "$rig"
"$mfe" skel check "$rig"
sheet=build/release/walk-sheet.png
"$mfe" skel render "$rig" --clip walk --frames 8 --out "$sheet"
echo "contact sheet: $(pwd)/$sheet"
