// Small procedural RGBA8 (straight alpha) drawings for the ag-psd scripts: anti-aliased discs and
// boxes with a one-pixel edge, and linear gradients. Deterministic: the same bytes on every run.
'use strict';

function clamp01(v) { return Math.min(1, Math.max(0, v)); }

// An empty image, w × h, all transparent.
function blank(w, h) { return { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }; }

// Paints `colour` ([r, g, b, a], 0..255) over the image where `coverage(x, y)` (pixel centre,
// image pixels) is above 0, with straight-alpha "over".
function paint(img, coverage, colour) {
  const [r, g, b, a] = colour;
  for (let y = 0; y < img.height; ++y) {
    for (let x = 0; x < img.width; ++x) {
      const k = clamp01(coverage(x + 0.5, y + 0.5)) * (a / 255);
      if (k <= 0) continue;
      const i = (y * img.width + x) * 4;
      const da = img.data[i + 3] / 255;
      const oa = k + da * (1 - k);
      const mixc = (src, dst) => Math.round((src * k + dst * da * (1 - k)) / oa);
      img.data[i] = mixc(r, img.data[i]);
      img.data[i + 1] = mixc(g, img.data[i + 1]);
      img.data[i + 2] = mixc(b, img.data[i + 2]);
      img.data[i + 3] = Math.round(oa * 255);
    }
  }
  return img;
}

const disc = (cx, cy, r) => (x, y) => r - Math.hypot(x - cx, y - cy) + 0.5;
const box = (x0, y0, x1, y1) => (x, y) => Math.min(x - x0, x1 - x, y - y0, y1 - y) + 0.5;

// A vertical gradient from `top` to `bottom` colour, over the whole image, opaque.
function gradient(w, h, top, bottom) {
  const img = blank(w, h);
  for (let y = 0; y < h; ++y) {
    const t = h > 1 ? y / (h - 1) : 0;
    for (let x = 0; x < w; ++x) {
      const i = (y * w + x) * 4;
      for (let c = 0; c < 3; ++c) img.data[i + c] = Math.round(top[c] + (bottom[c] - top[c]) * t);
      img.data[i + 3] = 255;
    }
  }
  return img;
}

module.exports = { blank, paint, disc, box, gradient };
