#!/usr/bin/env bash
# Writes two PSDs with ImageMagick 6.9 (Debian 12's `imagemagick`, 6.9.11-60 Q16) into tests/data/psd/.
# Run from the repository root: tests/data/psd/make/imagemagick.sh
#
# imagemagick-raw.psd: an 8-bit RGB PSD whose layer channels and composite are stored raw
#   (`-compress None`), with three layers: names (`label`), offsets (one reaching past the canvas's
#   top-left corner) and a multiply blend mode. ImageMagick writes no groups.
# imagemagick-swapped-keys.psd: the same picture with layers that ImageMagick drew itself in the same
#   command (not read from PNG files): then this ImageMagick writes every blend mode key byte-swapped
#   ("mron" for "norm", " lum" for "mul "). A damaged file: readers must not take it for a valid one
#   silently (psd-tools refuses it: "b'mron' is not a valid BlendMode").
set -euo pipefail
im=/usr/bin/convert  # ImageMagick itself, not a wrapper earlier on PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

card() { "$im" -size 80x64 xc:'rgb(230,236,244)' -fill 'rgb(63,127,209)' -draw 'roundrectangle 20,14 60,54 8,8' "$@"; }
disc() { "$im" -size 30x30 xc:none -fill 'rgb(242,194,155)' -draw 'circle 15,15 15,2' "$@"; }
shade() { "$im" -size 40x20 xc:none -fill 'rgba(40,30,60,0.6)' -draw 'ellipse 20,10 18,8 0,360' "$@"; }

card "$tmp/card.png"
disc "$tmp/disc.png"
shade "$tmp/shade.png"
# The first image is the composite; the others are the layers, bottom-most first.
"$im" "$tmp/card.png" \
  \( "$tmp/card.png" -set label 'Card' \) \
  \( "$tmp/disc.png" -set label 'Corner disc' -repage -6-4 \) \
  \( "$tmp/shade.png" -set label 'Shade' -set compose Multiply -repage +20+40 \) \
  -depth 8 -compress None tests/data/psd/imagemagick-raw.psd

"$im" \( -size 80x64 xc:'rgb(230,236,244)' -fill 'rgb(63,127,209)' -draw 'roundrectangle 20,14 60,54 8,8' \) \
  \( -size 80x64 xc:'rgb(230,236,244)' -fill 'rgb(63,127,209)' -draw 'roundrectangle 20,14 60,54 8,8' -set label 'Card' \) \
  \( -size 30x30 xc:none -fill 'rgb(242,194,155)' -draw 'circle 15,15 15,2' -set label 'Corner disc' -repage -6-4 \) \
  \( -size 40x20 xc:none -fill 'rgba(40,30,60,0.6)' -draw 'ellipse 20,10 18,8 0,360' -set label 'Shade' \
     -set compose Multiply -repage +20+40 \) \
  -depth 8 -compress None tests/data/psd/imagemagick-swapped-keys.psd
