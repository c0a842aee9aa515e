#!/usr/bin/env bash
# From art to rig: imports psd-character.psd, meshes and weights every image, keys a looping clip,
# checks the rig and renders the setup pose and a contact sheet of the clip.
#
#   examples/psd-character/art-to-rig.sh <out-dir>
#
# Uses build/release/bin/mfe, or the mfe that $MFE names. Rendering runs headless (the GPU, or Mesa's
# lavapipe). Writes into <out-dir>: lizard.mskel, images/, import-report.txt, lizard.clips/wave.manim,
# automesh.txt (each mesh's smallest-angle histogram against ear clipping), autoweights.txt,
# setup.png and wave.png.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <out-dir>" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
mfe=${MFE:-$repo/build/release/bin/mfe}
out=$1
rig=$out/lizard.mskel
# A rig already there would be re-imported (kept as it is) and have no region left to mesh.
if [[ -e $out && -n $(ls -A "$out") ]]; then
  echo "error: $out is not empty; give a new or empty folder" >&2
  exit 2
fi
mkdir -p "$out"

# 1. Import: every pixel layer becomes an image and a slot, every group a bone at its layers' bounds
#    centre, the [origin] marker the root; layers tagged [mesh] arrive as auto meshes.
"$mfe" skel import-psd "$here/psd-character.psd" --out "$out" --name lizard

# 2. Auto mesh the regions the PSD left as regions (shadow, pelvis, head, both faces). Each mesh's
#    histogram against ear clipping of its outline goes to automesh.txt.
"$mfe" skel automesh "$rig" --all | tee "$out/automesh.txt"

# 3. Auto weights, mesh by mesh, each to the bones of the part it belongs to: its own bone and the
#    ones it joins. (Weighting every mesh to every bone lets a part take weight from a bone of another
#    part drawn over it, e.g. the torso from the far arm's bone.)
weight() {  # weight <slot> <attachment> <bones>
  "$mfe" skel autoweights "$rig" --slot "$1" --attachment "$2" --bones "$3"
}
{
  weight shadow shadow root
  weight tail tail hips,tail
  weight shin-back shin-back thigh-back,shin-back
  weight thigh-back thigh-back hips,thigh-back
  weight pelvis pelvis hips
  weight forearm-back forearm-back upper-arm-back,forearm-back
  weight upper-arm-back upper-arm-back torso,upper-arm-back
  weight torso torso hips,torso
  weight head head torso,head
  weight face face-surprised head
  weight face face-happy head
  weight forearm-front forearm-front upper-arm-front,forearm-front
  weight upper-arm-front upper-arm-front torso,upper-arm-front
  weight shin-front shin-front thigh-front,shin-front
  weight thigh-front thigh-front hips,thigh-front
} | tee "$out/autoweights.txt"

# 4. A looping clip, "wave": the tail swings, the near forearm waves, the head nods. The file starts
#    as the smallest valid clip; every key is set with `mfe skel key`, which keeps it canonical.
uid=$(sed -n 's/^  "uid": "\(skl_[0-9a-f]*\)",$/\1/p' "$rig")
if [[ -z $uid ]]; then
  echo "error: $rig: no skeleton uid found" >&2
  exit 1
fi
mkdir -p "$out/lizard.clips"
clip=$out/lizard.clips/wave.manim
cat > "$clip" <<EOF
{
  "format": 1,
  "uid": "anm_3a7c51e0b9d2",
  "type": "SkeletonClip",
  "skeleton": { "uid": "$uid", "path": "lizard.mskel" },
  "length": 1.2
}
EOF
key() {  # key <bone> <time> <degrees>
  "$mfe" skel key "$clip" --bone "$1" --timeline rotate --t "$2" --v "$3" --curve ease > /dev/null
}
for t_v in 0:0 0.3:-12 0.6:0 0.9:12 1.2:0; do key tail "${t_v%%:*}" "${t_v##*:}"; done
for t_v in 0:0 0.3:-25 0.6:0 0.9:-25 1.2:0; do key forearm-front "${t_v%%:*}" "${t_v##*:}"; done
for t_v in 0:0 0.3:-6 0.6:0 0.9:-6 1.2:0; do key upper-arm-front "${t_v%%:*}" "${t_v##*:}"; done
for t_v in 0:0 0.3:6 0.6:-3 0.9:6 1.2:0; do key head "${t_v%%:*}" "${t_v##*:}"; done

# 5. Check the rig and its clip.
"$mfe" skel check "$rig"

# 6. Pictures: the setup pose with the origin where the import put the PSD's [origin] (the centre of
#    the marker's bounds, (132, 237) on the 256 x 256 canvas), so it lies over the PSD pixel for
#    pixel; and a contact sheet of the clip.
"$mfe" skel render-setup "$rig" --size 256x256 --origin 132,237 --out "$out/setup.png" > /dev/null
"$mfe" skel render "$rig" --clip wave --frames 8 --out "$out/wave.png" > /dev/null
echo "setup pose: $out/setup.png"
echo "clip wave:  $out/wave.png"
