// Writes the ag-psd test PSDs into tests/data/psd/ (see README.md for the command):
//   agpsd-features.psd  8-bit RGB, RLE channels (ag-psd's only uncompressed-enough choice): nested
//                       groups (three deep, one closed), non-ASCII layer names (Latin, Cyrillic, CJK
//                       and an emoji outside the BMP), hidden layers and a hidden group, layer
//                       opacity and fill opacity, a clipped layer, blend modes, a layer reaching past
//                       the canvas edges, an empty layer, a layer with a mask, and a composite image;
//   agpsd-zip.psd       the same document with ZIP-compressed channels (`compress: true`), which
//                       the reader refuses, naming the layer.
'use strict';

const fs = require('fs');
const path = require('path');
const { writePsdBuffer } = require('ag-psd');
const { blank, paint, disc, box, gradient } = require('./pixels');

const W = 96, H = 96;

// A pixel layer at (left, top) of size w × h, drawn by `draw(img)` in the layer's own pixels.
function layer(name, left, top, w, h, draw, extra = {}) {
  const img = draw(blank(w, h));
  return { name, left, top, imageData: img, ...extra };
}

const group = (name, children, extra = {}) => ({ name, opened: true, children, ...extra });

// ag-psd's `children` lists layers bottom-most first.
const doc = {
  width: W, height: H,
  children: [
    { name: 'Background paper', left: 0, top: 0, imageData: gradient(W, H, [236, 232, 220], [200, 210, 226]) },
    group('Körper', [
      layer('Rumpf', 28, 40, 40, 44, img => paint(img, disc(20, 22, 19), [63, 127, 209, 255]), { opacity: 0.8 }),
      layer('Schatten', 20, 78, 56, 14, img => paint(img, disc(28, 7, 6.5), [40, 30, 60, 255]) && paint(img, box(6, 2, 50, 12), [40, 30, 60, 200]),
            { blendMode: 'multiply', fillOpacity: 0.5 }),
      layer('Clip base', 8, 44, 22, 22, img => paint(img, disc(11, 11, 10), [242, 194, 155, 255])),
      layer('Clipped stripes', 4, 48, 30, 12, img => paint(img, box(0, 3, 30, 9), [216, 58, 58, 255]), { clipping: true }),
      group('Голова', [
        layer('顔', 30, 8, 36, 36, img => paint(img, disc(18, 18, 17.3), [242, 194, 155, 255])),
        layer('Глаз 👁', 44, 18, 10, 8, img => paint(img, disc(5, 4, 3.6), [42, 32, 48, 255]), { hidden: true }),
        group('Tiefe Ebene ‹3›', [
          layer('Punkt', 40, 30, 6, 6, img => paint(img, disc(3, 3, 2.4), [170, 40, 50, 255])),
        ]),
      ], { opened: false, opacity: 0.9 }),
    ]),
    group('Versteckt', [
      layer('Inside hidden', 70, 4, 20, 20, img => paint(img, box(1, 1, 19, 19), [40, 160, 80, 255])),
    ], { hidden: true }),
    layer('Screen', 60, 56, 30, 30, img => paint(img, disc(15, 15, 14), [90, 90, 40, 255]), { blendMode: 'screen', opacity: 0.5 }),
    layer('Linear dodge', 72, 8, 16, 16, img => paint(img, disc(8, 8, 7.5), [120, 80, 20, 255]), { blendMode: 'linear dodge' }),
    layer('Overlay', 30, 20, 36, 14, img => paint(img, box(0, 0, 36, 14), [240, 100, 110, 180]), { blendMode: 'overlay' }),
    layer('Color burn', 0, 0, 24, 24, img => paint(img, disc(12, 12, 11), [100, 160, 220, 255]), { blendMode: 'color burn' }),
    layer('Past the edge', -10, 80, 30, 30, img => paint(img, disc(15, 15, 14.5), [120, 60, 160, 255])),
    { name: 'Empty' },
    layer('Masked', 50, 60, 20, 20, img => paint(img, box(0, 0, 20, 20), [250, 220, 60, 255]), {
      mask: { left: 50, top: 60, right: 70, bottom: 80, defaultColor: 0,
              imageData: paint(blank(20, 20), disc(10, 10, 8), [255, 255, 255, 255]) },
    }),
  ],
};

// The merged image: visible layers composited with straight-alpha "over", each at its opacity ×
// fill × its groups' opacities. Blend modes, clipping and masks are NOT applied: ag-psd writes the
// composite it is given, and this one is for decoding tests, not a picture of the blend modes.
function composite(root) {
  const out = new Float64Array(W * H * 4);  // premultiplied
  const visit = (layers, alpha) => {
    for (const l of layers) {
      if (l.hidden) continue;
      const a = alpha * (l.opacity ?? 1) * (l.children ? 1 : (l.fillOpacity ?? 1));
      if (l.children) { visit(l.children, a); continue; }
      const img = l.imageData;
      if (!img) continue;
      for (let y = 0; y < img.height; ++y) {
        for (let x = 0; x < img.width; ++x) {
          const cx = l.left + x, cy = l.top + y;
          if (cx < 0 || cy < 0 || cx >= W || cy >= H) continue;
          const s = (y * img.width + x) * 4, d = (cy * W + cx) * 4;
          const k = img.data[s + 3] / 255 * a;
          for (let c = 0; c < 3; ++c) out[d + c] = img.data[s + c] / 255 * k + out[d + c] * (1 - k);
          out[d + 3] = k + out[d + 3] * (1 - k);
        }
      }
    }
  };
  visit(root.children, 1);
  const img = blank(W, H);
  for (let i = 0; i < W * H; ++i) {
    const a = out[i * 4 + 3];
    for (let c = 0; c < 3; ++c) img.data[i * 4 + c] = a > 0 ? Math.round(out[i * 4 + c] / a * 255) : 0;
    img.data[i * 4 + 3] = Math.round(a * 255);
  }
  return img;
}

doc.imageData = composite(doc);

const outDir = path.join(__dirname, '..');
// noBackground: the bottom layer stays a layer (it is opaque, which would make it a Background).
fs.writeFileSync(path.join(outDir, 'agpsd-features.psd'), writePsdBuffer(doc, { noBackground: true }));
fs.writeFileSync(path.join(outDir, 'agpsd-zip.psd'), writePsdBuffer(doc, { noBackground: true, compress: true }));
