#!/usr/bin/env bash
# CPU time mfe-editor uses while idle: imports Spine's spineboy (from the shared folder beside the
# repository, never copied into it) into a temporary folder, opens it in the editor on a private Xvfb,
# lets it settle, then reads the process's user + system time (/proc/<pid>/stat) over an interval
# with no input. For comparison, the same with a script that keeps it drawing every frame.
#
#   scripts/editor-idle-cpu.sh [build-dir] [seconds]     (defaults: build/release, 10)
set -euo pipefail

build=${1:-build/release}
seconds=${2:-10}
spineboy=${MF_SPINE_EXAMPLES_DIR:-$(dirname "$0")/../../shared/spine-examples}/spineboy/spineboy-pro.json
[ -f "$spineboy" ] || { echo "no $spineboy: set MF_SPINE_EXAMPLES_DIR" >&2; exit 2; }
tmp=$(mktemp -d)
xvfb_pid=
editor_pid=
cleanup() {
  [ -n "$editor_pid" ] && kill "$editor_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$build/bin/mfe" skel import-spine "$spineboy" --out "$tmp/spineboy" > /dev/null
exec 3> "$tmp/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp > /dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$tmp/display")"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

measure() {  # label, extra editor arguments...
  local label=$1; shift
  "$build/bin/mfe-editor" "$tmp/spineboy" --size 1280x800 "$@" > /dev/null 2>&1 &
  editor_pid=$!
  sleep 5  # open, build, check, first frames
  local t0 t1
  t0=$(ticks "$editor_pid")
  sleep "$seconds"
  t1=$(ticks "$editor_pid")
  kill "$editor_pid"
  wait "$editor_pid" 2> /dev/null || true
  editor_pid=
  awk -v d=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v s="$seconds" -v l="$label" \
    'BEGIN { printf "%s: %.2f s of CPU over %d s = %.1f %% of one core\n", l, d / hz, s, 100 * d / hz / s }'
}

measure "idle"
echo '[{"wait": 1000000}]' > "$tmp/busy.json"
measure "drawing every frame" --script "$tmp/busy.json"
