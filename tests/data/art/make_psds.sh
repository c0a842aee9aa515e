#!/bin/sh
# Writes the art import's test PSDs with GIMP 2.10 in batch mode (Debian's gimp package):
# hero.psd (8-bit, RLE), hero16.psd (16-bit, raw) and hero_edited.psd (hero.psd after an artist's
# edits, for re-import). Run from anywhere; the files land beside this script.
set -e
cd "$(dirname "$0")"
gimp-console-2.10 -i -b "(load \"$(pwd)/make_psds.scm\")" -b '(gimp-quit 0)'
