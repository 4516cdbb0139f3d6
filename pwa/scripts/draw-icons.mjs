// Draws the MAVUNO mark (a sprout over a harvest-gold field, on green) into
// the PNG icons the web app manifest needs. Run: node scripts/draw-icons.mjs
// The PNGs are committed (a few KB); this script is how they were made.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const GREEN = [27, 94, 59];
const CREAM = [244, 233, 200];
const GOLD = [224, 184, 74];

// Shapes in a unit square, y down. Each returns true when (x, y) is inside.
function ellipse(cx, cy, rx, ry, degrees) {
  const a = (-degrees * Math.PI) / 180;
  return (x, y) => {
    const dx = x - cx,
      dy = y - cy;
    const u = dx * Math.cos(a) - dy * Math.sin(a);
    const v = dx * Math.sin(a) + dy * Math.cos(a);
    return (u / rx) ** 2 + (v / ry) ** 2 <= 1;
  };
}
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
function roundedSquare(r) {
  return (x, y) => {
    const cx = Math.min(Math.max(x, r), 1 - r),
      cy = Math.min(Math.max(y, r), 1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}
const mark = [
  [GOLD, ellipse(0.5, 0.8, 0.27, 0.055, 0)],
  [CREAM, rect(0.482, 0.42, 0.518, 0.79)],
  [CREAM, ellipse(0.36, 0.41, 0.17, 0.075, 35)],
  [CREAM, ellipse(0.64, 0.33, 0.2, 0.085, -35)],
];

function draw(size, { maskable }) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  const background = maskable ? () => true : roundedSquare(0.22);
  // A maskable icon keeps its mark inside the central safe zone.
  const scale = maskable ? 0.72 : 0.9;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size,
            y = (py + (sy + 0.5) / samples) / size;
          if (!background(x, y)) continue;
          const mx = (x - 0.5) / scale + 0.5,
            my = (y - 0.5) / scale + 0.5;
          let colour = GREEN;
          for (const [c, inside] of mark) if (inside(mx, my)) colour = c;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 255;
        }
      }
      const n = samples * samples,
        i = (py * size + px) * 4,
        covered = a / 255 || 1;
      pixels[i] = r / covered;
      pixels[i + 1] = g / covered;
      pixels[i + 2] = b / covered;
      pixels[i + 3] = a / n;
    }
  }
  return png(size, pixels);
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6; // 8-bit RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', draw(192, { maskable: false }));
writeFileSync('public/icons/icon-512.png', draw(512, { maskable: false }));
writeFileSync('public/icons/maskable-512.png', draw(512, { maskable: true }));
console.log('icons written to public/icons');
