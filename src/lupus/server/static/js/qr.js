// A QR code drawn by the page itself (ISO/IEC 18004): byte mode, error correction level
// M, mask 0 (as the server's own codes, src/lupus/server/links.py), versions 1 to 20 (up
// to 666 bytes: a join link is about a hundred). A seat's new join link carries its
// token, so it is drawn here and never sent to any other service.

// Error correction level M, by version: blocks as [count, codewords, data codewords].
const BLOCKS = [
  null,
  [[1, 26, 16]], [[1, 44, 28]], [[1, 70, 44]], [[2, 50, 32]], [[2, 67, 43]],
  [[4, 43, 27]], [[4, 49, 31]], [[2, 60, 38], [2, 61, 39]], [[3, 58, 36], [2, 59, 37]],
  [[4, 69, 43], [1, 70, 44]], [[1, 80, 50], [4, 81, 51]], [[6, 58, 36], [2, 59, 37]],
  [[8, 59, 37], [1, 60, 38]], [[4, 64, 40], [5, 65, 41]], [[5, 65, 41], [5, 66, 42]],
  [[7, 73, 45], [3, 74, 46]], [[10, 74, 46], [1, 75, 47]], [[9, 69, 43], [4, 70, 44]],
  [[3, 70, 44], [11, 71, 45]], [[3, 67, 41], [13, 68, 42]],
];

// The centres of the alignment patterns, by version.
const ALIGN = [
  null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42],
  [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66],
  [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82], [6, 30, 58, 86],
  [6, 34, 62, 90],
];

const LEVEL_M = 0; // the format's two bits for level M
const MASK = 0;

function dataCapacity(version) {
  return BLOCKS[version].reduce((sum, [count, , data]) => sum + count * data, 0);
}

/** GF(256) multiplication, modulo x^8 + x^4 + x^3 + x^2 + 1. */
function multiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function divisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = multiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = multiply(root, 0x02);
  }
  return result;
}

function remainder(data, by) {
  const result = new Array(by.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    by.forEach((coefficient, i) => (result[i] ^= multiply(coefficient, factor)));
  }
  return result;
}

/** The codewords of `bytes` at `version`: data and error correction, interleaved. */
function codewords(bytes, version) {
  const capacity = dataCapacity(version);
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);
  const blocks = [];
  let at = 0;
  for (const [count, total, size] of BLOCKS[version]) {
    const by = divisor(total - size);
    for (let n = 0; n < count; n++) {
      const part = data.slice(at, at + size);
      at += size;
      blocks.push([part, remainder(part, by)]);
    }
  }
  const out = [];
  const longest = Math.max(...blocks.map(([part]) => part.length));
  for (let i = 0; i < longest; i++) for (const [part] of blocks) if (i < part.length) out.push(part[i]);
  for (let i = 0; i < blocks[0][1].length; i++) for (const [, ec] of blocks) out.push(ec[i]);
  return out;
}

/** The QR code of `text` as rows of booleans (true: dark), without its quiet zone. */
export function qrMatrix(text) {
  const bytes = new TextEncoder().encode(text);
  let version = 1;
  while (version <= 20 && 4 + (version < 10 ? 8 : 16) + 8 * bytes.length > 8 * dataCapacity(version)) version++;
  if (version > 20) throw new RangeError("too long for a QR code here");
  const grid = newGrid(17 + 4 * version);
  drawPatterns(grid, version);
  drawFormat(grid, version);
  drawData(grid, codewords(bytes, version));
  return grid.dark;
}

/** An empty symbol of `size` modules a side: `dark`, and `fixed` (a function pattern's
 * module, which the data skips); `set` draws a fixed module. */
function newGrid(size) {
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, on) => {
    dark[y][x] = on;
    fixed[y][x] = true;
  };
  return { size, dark, fixed, set };
}

const bit = (value, i) => ((value >>> i) & 1) === 1;

/** The timing lines, the three finders and the alignment patterns. */
function drawPatterns({ size, set }, version) {
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        const far = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, far !== 2 && far !== 4);
      }
    }
  }
  const centres = ALIGN[version];
  const last = centres.length - 1;
  centres.forEach((cx, i) =>
    centres.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }),
  );
}

/** The format (level and mask), twice, the dark module, and from version 7 the
 * version's information, twice. */
function drawFormat({ size, set }, version) {
  let format = (LEVEL_M << 3) | MASK;
  let rest = format;
  for (let i = 0; i < 10; i++) rest = (rest << 1) ^ ((rest >>> 9) * 0x537);
  format = ((format << 10) | rest) ^ 0x5412;
  for (let i = 0; i <= 5; i++) set(8, i, bit(format, i));
  set(8, 7, bit(format, 6));
  set(8, 8, bit(format, 7));
  set(7, 8, bit(format, 8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(format, i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(format, i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(format, i));
  set(8, size - 8, true);
  if (version < 7) return;
  let left = version;
  for (let i = 0; i < 12; i++) left = (left << 1) ^ ((left >>> 11) * 0x1f25);
  const info = (version << 12) | left;
  for (let i = 0; i < 18; i++) {
    const a = size - 11 + (i % 3);
    const b = Math.floor(i / 3);
    set(a, b, bit(info, i));
    set(b, a, bit(info, i));
  }
}

/** The codewords, two columns at a time from the right, up then down; mask 0 flips
 * every module whose row and column add up to an even number. */
function drawData({ size, dark, fixed }, words) {
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = upward ? size - 1 - vert : vert;
        if (fixed[y][x]) continue;
        let on = false;
        if (i < words.length * 8) on = bit(words[i >>> 3], 7 - (i & 7));
        i++;
        dark[y][x] = on !== ((x + y) % 2 === 0);
      }
    }
  }
}

const SVG = "http://www.w3.org/2000/svg";

/** The QR code of `text` as an SVG element, `scale` pixels a module, with a quiet zone
 * of two modules (as the server's). */
export function qrElement(text, scale = 6, label = "") {
  const rows = qrMatrix(text);
  const side = rows.length + 4;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("width", String(side * scale));
  svg.setAttribute("height", String(side * scale));
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  if (label) svg.setAttribute("aria-label", label);
  const ground = document.createElementNS(SVG, "rect");
  ground.setAttribute("width", String(side));
  ground.setAttribute("height", String(side));
  ground.setAttribute("fill", "#fff");
  svg.append(ground);
  let d = "";
  rows.forEach((row, y) => row.forEach((on, x) => (d += on ? `M${x + 2} ${y + 2}h1v1h-1z` : "")));
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(path);
  return svg;
}
