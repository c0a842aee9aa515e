#!/usr/bin/python3
"""Writes what psd-tools (an independent PSD reader) reads from every PSD in tests/data/psd/, as the
reference that tests/imaging/psd_corpus_test.cpp compares our reader with.

Usage (Debian's python3-psd-tools, for /usr/bin/python3; run from the repository root):
    /usr/bin/python3 scripts/psd-reference.py [tests/data/psd]

For each FILE.psd it writes reference/FILE.json, and the pictures it names as
reference/pixels/HASH.png (HASH: the first 16 hex digits of the SHA-256 of the RGBA bytes, so a layer
that several files share is stored once):
  - the document: width, height, bits per channel;
  - every layer and group in draw order (bottom-most first, a group before its children), with its
    path (group names joined by '/'), kind, record index (0 = the bottom-most record in the file),
    visibility, opacity, fill opacity, blend mode key as stored (groups: the key in their section
    divider block when it has one, e.g. "pass" for pass through), clipping flag, open or closed
    folder (groups), bounds [left, top, right, bottom] in canvas pixels (groups: the union of the
    non-empty pixel layers inside them, hidden ones included), and its pixels as a PNG: RGBA 8-bit,
    straight alpha, the layer's own rectangle, colour set to 0 where alpha is 0 (what lies under
    alpha 0 is not part of the picture);
  - the composite (merged) image as a PNG, as psd-tools gives it: psd-tools removes the white
    matte that GIMP and Photoshop put under a transparent composite.

16-bit files: psd-tools reduces each 16-bit value v to 8 bits as floor(v / 256) (pil_io.py:
`x * (1 / 256)` then a conversion to 'L' that truncates); readers that round v * 255 / 65535 differ
by at most 1.

Names: psd-tools decodes `luni` names code unit by code unit, leaving a character outside the BMP as
two lone surrogates; they are joined back into one character here.

Damaged files: imagemagick-swapped-keys.psd holds byte-swapped blend mode keys ("mron"), which
psd-tools refuses; its reference is read from a copy with the keys swapped back, and records the
keys as stored in the file.
"""

import hashlib
import io
import json
import os
import sys

import numpy as np
from PIL import Image
from psd_tools import PSDImage
from psd_tools.constants import Tag

SWAPPED_KEYS = {'imagemagick-swapped-keys.psd'}


def fix_name(name):
    return name.encode('utf-16', 'surrogatepass').decode('utf-16')


def straight_rgba8(image):
    """An RGBA uint8 array, colour zeroed under alpha 0."""
    if image.mode != 'RGBA':
        image = image.convert('RGBA')  # a layer without a transparency channel is opaque
    a = np.array(image, dtype=np.uint8)
    a[a[..., 3] == 0, :3] = 0
    return a


def write_png(array, out_dir):
    """Writes the picture under pixels/ and returns its path relative to out_dir."""
    digest = hashlib.sha256(array.tobytes()).hexdigest()[:16]
    png = 'pixels/%s.png' % digest
    if not os.path.exists(os.path.join(out_dir, png)):
        Image.fromarray(array, 'RGBA').save(os.path.join(out_dir, png), optimize=True)
    return png


def swap_keys_back(data):
    # Every layer record's blend mode follows an '8BIM' signature; reverse the keys that are
    # reversed valid keys.
    for key in (b'norm', b'mul ', b'scrn', b'lddg', b'over'):
        data = data.replace(b'8BIM' + key[::-1], b'8BIM' + key)
    return data


def reference(psd_path, out_dir):
    name = os.path.basename(psd_path)
    stem = name[:-4]
    raw = open(psd_path, 'rb').read()
    swapped = name in SWAPPED_KEYS
    psd = PSDImage.open(io.BytesIO(swap_keys_back(raw) if swapped else raw))
    records = psd._record.layer_and_mask_information.layer_info.layer_records
    record_index = {id(r): i for i, r in enumerate(records)}

    layers = []

    def pixel_bounds(layer):
        if layer.is_group():
            boxes = [pixel_bounds(c) for c in layer]
            boxes = [b for b in boxes if b is not None]
            if not boxes:
                return None
            return [min(b[0] for b in boxes), min(b[1] for b in boxes),
                    max(b[2] for b in boxes), max(b[3] for b in boxes)]
        r = layer._record
        if r.right <= r.left or r.bottom <= r.top:
            return None
        return [r.left, r.top, r.right, r.bottom]

    def walk(group, parent_path):
        for layer in group:
            rec = layer._record
            layer_name = fix_name(layer.name)
            path = parent_path + '/' + layer_name if parent_path else layer_name
            fill = rec.tagged_blocks.get_data(Tag.BLEND_FILL_OPACITY) if rec.tagged_blocks else None
            blend = rec.blend_mode.value.decode('latin-1')
            divider = rec.tagged_blocks.get_data(Tag.SECTION_DIVIDER_SETTING) if rec.tagged_blocks else None
            if layer.is_group() and divider is not None and divider.blend_mode is not None:
                # A group's own blend mode (e.g. "pass" through) is the one in its section divider
                # block; the record's key is then "norm".
                blend = divider.blend_mode.value.decode('latin-1')
            if swapped:
                blend = blend[::-1]
            entry = {
                'path': path,
                'name': layer_name,
                'kind': 'group' if layer.is_group() else 'pixel',
                'record': record_index[id(rec)],
                'visible': bool(layer.visible),
                'opacity': int(rec.opacity),
                'fill': int(fill) if fill is not None else 255,
                'blend': blend,
                'clipping': bool(rec.clipping.value),
            }
            if layer.is_group():
                entry['open'] = int(divider.kind) == 1
            bounds = pixel_bounds(layer)
            entry['bounds'] = bounds if bounds is not None else [0, 0, 0, 0]
            if not layer.is_group() and bounds is not None:
                entry['pixels'] = write_png(straight_rgba8(layer.topil()), out_dir)
            layers.append(entry)
            if layer.is_group():
                walk(layer, path)

    walk(psd, '')

    doc = {
        'file': name,
        'reader': 'psd-tools (Debian python3-psd-tools 1.9.24)',
        'width': psd.width,
        'height': psd.height,
        'bits_per_channel': psd.depth,
        'layers': layers,
    }
    if swapped:
        doc['damaged'] = 'blend mode keys byte-swapped as stored; read with them swapped back'
    composite = psd.topil()
    if composite is not None:
        doc['composite'] = write_png(straight_rgba8(composite), out_dir)
    with open(os.path.join(out_dir, stem + '.json'), 'w', encoding='utf-8') as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write('\n')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else 'tests/data/psd'
    out_dir = os.path.join(root, 'reference')
    pixels = os.path.join(out_dir, 'pixels')
    if os.path.isdir(pixels):
        for old in os.listdir(pixels):
            os.remove(os.path.join(pixels, old))
    os.makedirs(pixels, exist_ok=True)
    for name in sorted(os.listdir(root)):
        if name.endswith('.psd'):
            reference(os.path.join(root, name), out_dir)
            print('wrote reference for', name)


if __name__ == '__main__':
    main()
