#!/usr/bin/env bash
# Builds libogg and libvorbis (with libvorbisfile) as static libraries instrumented like the fuzz
# preset (clang 14, libFuzzer coverage, ASan + UBSan), so that fuzz_sound_loader sees coverage and
# memory errors inside the Ogg Vorbis decoder rather than treating it as a black box.
#
#   scripts/build-fuzz-vorbis.sh OGG_SOURCE VORBIS_SOURCE PREFIX
#   cmake --preset fuzz -DMF_VORBIS_ROOT=PREFIX && cmake --build build/fuzz --target fuzz_sound_loader
#
# OGG_SOURCE and VORBIS_SOURCE are unpacked source trees of the versions the system links, with the
# distribution's patches: on Debian `apt-get source libogg libvorbis` (needs a deb-src entry).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 OGG_SOURCE VORBIS_SOURCE PREFIX" >&2
  exit 2
fi
ogg_src=$(realpath "$1")
vorbis_src=$(realpath "$2")
mkdir -p "$3"
prefix=$(realpath "$3")

export CC=clang-14
export CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer"
jobs=$(nproc)

build() {
  local src=$1
  shift
  local dir
  dir=$(mktemp -d)
  (cd "$dir" && "$src/configure" --quiet --prefix="$prefix" --disable-shared --enable-static "$@" &&
    make --quiet -j"$jobs" && make --quiet install)
  rm -rf "$dir"
}

build "$ogg_src"
build "$vorbis_src" --with-ogg="$prefix" --disable-docs --disable-examples --disable-oggtest
echo "instrumented libogg and libvorbis in $prefix"
