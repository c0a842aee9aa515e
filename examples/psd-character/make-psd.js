// Writes examples/psd-character/psd-character.psd with ag-psd from the layers that
// make_psd_character_art drew: node make-psd.js <art_dir> <out.psd> (see README.md).
//
// <art_dir>/layout.json lists the layers and groups bottom-most first; each layer names its PNG
// (RGBA, 8-bit, straight alpha) and its place on the canvas. The PSD gets 8-bit RGB layers with RLE
// channels (ag-psd's default), the groups as open folders, and a composite: the visible layers
// composited with "over" (every layer is normal mode at full opacity, so this is the picture a
// PSD reader shows).
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { writePsdBuffer } = require('ag-psd');

// Decodes the PNGs make_psd_character_art writes: 8-bit RGBA, not interlaced.
function readPng(file) {
  const bytes = fs.readFileSync(file);
  let width = 0, height = 0;
  const idat = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 6 || body[12] !== 0) throw new Error(`${file}: not an 8-bit RGBA PNG without interlace`);
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= 4 ? data[y * stride + x - 4] : 0;
      const b = y > 0 ? data[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? data[(y - 1) * stride + x - 4] : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`${file}: unknown PNG filter ${filter}`);
      data[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  return { width, height, data };
}

function toPsdLayer(node, artDir) {
  if (node.children) {
    return { name: node.name, opened: true, children: node.children.map(child => toPsdLayer(child, artDir)) };
  }
  const imageData = readPng(path.join(artDir, node.png));
  if (imageData.width !== node.width || imageData.height !== node.height) throw new Error(`${node.png}: size differs from layout.json`);
  return { name: node.name, left: node.left, top: node.top, imageData, hidden: node.hidden === true };
}

// Visible layers composited with straight-alpha "over", bottom-most first.
function composite(width, height, layers) {
  const out = new Float64Array(width * height * 4);  // premultiplied
  const visit = list => {
    for (const l of list) {
      if (l.hidden) continue;
      if (l.children) { visit(l.children); continue; }
      const img = l.imageData;
      for (let y = 0; y < img.height; ++y) {
        for (let x = 0; x < img.width; ++x) {
          const cx = l.left + x, cy = l.top + y;
          if (cx < 0 || cy < 0 || cx >= width || cy >= height) continue;
          const s = (y * img.width + x) * 4, d = (cy * width + cx) * 4;
          const k = img.data[s + 3] / 255;
          for (let c = 0; c < 3; ++c) out[d + c] = img.data[s + c] / 255 * k + out[d + c] * (1 - k);
          out[d + 3] = k + out[d + 3] * (1 - k);
        }
      }
    }
  };
  visit(layers);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; ++i) {
    const a = out[i * 4 + 3];
    for (let c = 0; c < 3; ++c) data[i * 4 + c] = a > 0 ? Math.round(out[i * 4 + c] / a * 255) : 0;
    data[i * 4 + 3] = Math.round(a * 255);
  }
  return { width, height, data };
}

const [artDir, outFile] = process.argv.slice(2);
if (!artDir || !outFile) {
  console.error('usage: node make-psd.js <art_dir> <out.psd>');
  process.exit(2);
}
const layout = JSON.parse(fs.readFileSync(path.join(artDir, 'layout.json'), 'utf8'));
const children = layout.layers.map(node => toPsdLayer(node, artDir));
const doc = { width: layout.width, height: layout.height, children };
doc.imageData = composite(layout.width, layout.height, children);
fs.writeFileSync(outFile, writePsdBuffer(doc));
