#!/usr/bin/env bash
# Instructions per skeleton-frame of a rig's clip, per stage, as docs/performance.md reports them:
# machine-independent and repeatable to the instruction, whatever the machine's load.
#
#   scripts/instructions-per-frame.sh <rig.mskel> <clip> [--skin <skins>]
#
# Runs `mfe skel bench <rig> --clip <clip> --instances 20 --frames N` under
# `valgrind --tool=callgrind` for N = 90 and N = 30 and divides the difference by
# 60 frames × 20 instances × 3 repetitions (the bench runs 3), so loading cancels. Stages are
# inclusive counts, read with `callgrind_annotate --inclusive=yes`: clip application =
# mf::anim::AnimationTracks::update + AnimationTracks::samples + mf::skel::SkeletonInstance::apply
# (the clip sampler); update order = mf::skel::update_skeleton (world transforms, constraints,
# physics); CPU vertices = mf::skel::SkeletonInstance::world_positions (positions of every visible
# region and mesh vertex); total = the three. Apart: the CPU vertex buffers
# (mf::skel::SkeletonInstance::vertices: positions, UVs, colours, triangles, draw runs, clipping) and
# the whole program (the bench's loops and the buffers included).
#
# Needs valgrind (Debian: apt-get install valgrind; scripts/setup.sh installs it) and a release build
# of mfe: build/release/bin/mfe, or the binary named by $MFE. Takes a few minutes per rig.
set -euo pipefail

usage() {
  echo "usage: $0 <rig.mskel> <clip> [--skin <skins>]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
rig="$1"
clip="$2"
shift 2
skin=()
if [ $# -gt 0 ]; then
  [ $# -eq 2 ] && [ "$1" = "--skin" ] || usage
  skin=(--skin "$2")
fi

mfe="${MFE:-$(dirname "$0")/../build/release/bin/mfe}"
for tool in valgrind callgrind_annotate; do
  command -v "$tool" >/dev/null || { echo "$0: $tool not found (apt-get install valgrind)" >&2; exit 1; }
done
[ -x "$mfe" ] || { echo "$0: $mfe not found; build it (cmake --build --preset release --target mfe) or set MFE" >&2; exit 1; }
[ -f "$rig" ] || { echo "$0: $rig not found" >&2; exit 1; }

instances=20
repetitions=3  # mfe skel bench runs every measurement 3 times
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Inclusive instructions of the functions whose names start with $2 in the annotation $1 (0 if none).
inclusive() {
  grep -F "$2" "$1" | grep -F "(" | awk -v name="$2" '
    { count = $1; gsub(",", "", count) }
    index($0, name "(") && count ~ /^[0-9]+$/ { sum += count }
    END { print sum + 0 }'
}

declare -A counts
for frames in 90 30; do
  out="$work/callgrind.$frames"
  valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$mfe" skel bench "$rig" --clip "$clip" "${skin[@]}" --instances "$instances" --frames "$frames" \
    >"$work/bench.$frames.txt" 2>"$work/valgrind.$frames.txt" ||
    { cat "$work/valgrind.$frames.txt" >&2; exit 1; }
  callgrind_annotate --inclusive=yes --threshold=100 "$out" >"$work/annotated.$frames"
  counts[total.$frames]=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
  counts[program.$frames]=${counts[total.$frames]}
  counts[apply.$frames]=$(( $(inclusive "$work/annotated.$frames" "mf::anim::AnimationTracks::update") +
                            $(inclusive "$work/annotated.$frames" "mf::anim::AnimationTracks::samples") +
                            $(inclusive "$work/annotated.$frames" "mf::skel::SkeletonInstance::apply") ))
  counts[update.$frames]=$(inclusive "$work/annotated.$frames" "mf::skel::update_skeleton")
  counts[vertices.$frames]=$(inclusive "$work/annotated.$frames" "mf::skel::SkeletonInstance::world_positions")
  counts[buffers.$frames]=$(inclusive "$work/annotated.$frames" "mf::skel::SkeletonInstance::vertices")
  counts[total.$frames]=$(( counts[apply.$frames] + counts[update.$frames] + counts[vertices.$frames] ))
done

frames_counted=$(( (90 - 30) * instances * repetitions ))
per_frame() {
  awk -v a="${counts[$1.90]}" -v b="${counts[$1.30]}" -v n="$frames_counted" \
    'BEGIN { v = (a - b) / n; printf "%8.1fk  (%d instructions)", v / 1000, v + 0.5 }'
}
label="$rig, clip $clip${skin:+, skin ${skin[1]}}"
echo "$label: instructions per skeleton-frame (callgrind, $instances instances, 90 - 30 frames, $repetitions repetitions)"
echo "  clip application  $(per_frame apply)"
echo "  update order      $(per_frame update)"
echo "  CPU vertices      $(per_frame vertices)"
echo "  total             $(per_frame total)"
echo "  apart: CPU vertex buffers $(per_frame buffers)"
echo "  apart: whole program      $(per_frame program)"
