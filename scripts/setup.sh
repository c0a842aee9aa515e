#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and non-interactive: safe to re-run.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # libraries
  nlohmann-json3-dev libfmt-dev libcli11-dev libspng-dev zlib1g-dev libssl-dev libzstd-dev
  # sparse linear algebra (header-only): the solver of automatic mesh weights (mf_offline)
  libeigen3-dev
  # many skeletons across threads (mf_parallel)
  libtbb-dev
  # 2D physics of the scene host (mf_scene_physics2d: Box2D 2.4)
  libbox2d-dev
  # 3D physics of the scene host (mf_scene_physics3d: Bullet 3.24, single precision, pkg-config bullet)
  libbullet-dev
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  # instruction counts (scripts/instructions-per-frame.sh: callgrind)
  valgrind
  # fuzzing (clang with its sanitizer and libFuzzer runtimes)
  clang-14 libclang-rt-14-dev
  # rendering: Vulkan headers and loader, the shader compiler, Mesa's lavapipe (Vulkan on the CPU,
  # used when there is no GPU) and the validation layers every render test runs with
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers
  # windows: SDL2 (and Xlib, which the window tests read pixels back through); Xvfb gives those
  # tests a display of their own
  libsdl2-dev libx11-dev xvfb
  # the editor's UI (mfe-editor): Dear ImGui 1.86, with its SDL2 and Vulkan backends built into the
  # package's static library
  libimgui-dev
  # scene audio: libvorbisfile decodes .ogg sounds (with libvorbis and libogg); SDL2 above plays
  # them and decodes .wav
  libvorbis-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
