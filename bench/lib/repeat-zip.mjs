// A zip writer for files made of long repetitions (the attack files of issue 41: millions of `<si/>`, a zip bomb):
// each part is a list of segments `{ text, count }` (ASCII text, repeated), deflated by hand with the fixed Huffman
// codes: the text once as literals, then back-references of 258 bytes at a distance of its length. Tens of MB
// compress in milliseconds (a general deflater takes seconds), and the archive is a valid zip (CRC-32 included).
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
  24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

class BitWriter {
  bytes = new Uint8Array(1024);
  length = 0;
  bit = 0;
  current = 0;
  /** `count` bits of `value`, least significant first (extra bits, headers). */
  write(value, count) {
    for (let index = 0; index < count; index += 1) {
      this.current |= ((value >>> index) & 1) << this.bit;
      this.bit += 1;
      if (this.bit === 8) this.flush();
    }
  }
  /** A Huffman code: most significant bit first. */
  code(value, count) {
    for (let index = count - 1; index >= 0; index -= 1) this.write((value >>> index) & 1, 1);
  }
  flush() {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length] = this.current;
    this.length += 1;
    this.bit = 0;
    this.current = 0;
  }
  end() {
    if (this.bit > 0) this.flush();
    return this.bytes.subarray(0, this.length);
  }
}

function writeSymbol(out, symbol) {
  if (symbol < 144) out.code(0x30 + symbol, 8);
  else if (symbol < 256) out.code(0x190 + symbol - 144, 9);
  else if (symbol < 280) out.code(symbol - 256, 7);
  else out.code(0xc0 + symbol - 280, 8);
}

function writeMatch(out, length, distance) {
  let code = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[code] > length) code -= 1;
  writeSymbol(out, 257 + code);
  out.write(length - LENGTH_BASE[code], LENGTH_EXTRA[code]);
  let distanceCode = DISTANCE_BASE.length - 1;
  while (DISTANCE_BASE[distanceCode] > distance) distanceCode -= 1;
  out.code(distanceCode, 5);
  out.write(distance - DISTANCE_BASE[distanceCode], DISTANCE_EXTRA[distanceCode]);
}

/** Raw deflate (one fixed-Huffman block) of the segments. */
function deflateSegments(segments) {
  const out = new BitWriter();
  out.write(1, 1);
  out.write(1, 2);
  for (const { text, count } of segments) {
    for (let index = 0; index < text.length; index += 1) writeSymbol(out, text.charCodeAt(index));
    if (count <= 1) continue;
    if (text.length > 32768) throw new Error('A repeated text must be at most 32 KiB.');
    let left = text.length * (count - 1);
    let position = 0;
    while (left > 0) {
      let length = Math.min(258, left);
      if (length < 3) {
        for (let index = 0; index < length; index += 1) writeSymbol(out, text.charCodeAt((position + index) % text.length));
      } else {
        if (left - length > 0 && left - length < 3) length -= 3;
        writeMatch(out, length, text.length);
      }
      left -= length;
      position += length;
    }
  }
  writeSymbol(out, 256);
  return out.end();
}

const CRC_TABLE = new Int32Array(256).map((_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value;
});

/** The CRC-32 and size of the expanded segments. */
function measure(segments) {
  let crc = -1;
  let size = 0;
  for (const { text, count } of segments) {
    const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
    const copies = Math.max(1, count);
    for (let copy = 0; copy < copies; copy += 1) {
      for (let index = 0; index < bytes.length; index += 1) crc = CRC_TABLE[(crc ^ bytes[index]) & 0xff] ^ (crc >>> 8);
    }
    size += bytes.length * copies;
  }
  return { crc: (crc ^ -1) >>> 0, size };
}

function header(signature, fields) {
  const bytes = new Uint8Array(fields.reduce((total, [, width]) => total + width, 4));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, signature, true);
  let offset = 4;
  for (const [value, width] of fields) {
    if (width === 2) view.setUint16(offset, value, true);
    else view.setUint32(offset, value, true);
    offset += width;
  }
  return bytes;
}

/** A zip of `parts`: name -> segments (`[{ text, count }]`, ASCII). */
export function zipSegments(parts) {
  const chunks = [];
  const central = [];
  let offset = 0;
  for (const [name, segments] of Object.entries(parts)) {
    const data = deflateSegments(segments);
    const { crc, size } = measure(segments);
    const nameBytes = new TextEncoder().encode(name);
    const common = [
      [20, 2],
      [0, 2],
      [8, 2],
      [0, 2],
      [0x21, 2],
      [crc, 4],
      [data.byteLength, 4],
      [size, 4],
      [nameBytes.byteLength, 2],
      [0, 2],
    ];
    const local = header(0x04034b50, common);
    central.push({ entry: header(0x02014b50, [[20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]]), nameBytes });
    chunks.push(local, nameBytes, data);
    offset += local.byteLength + nameBytes.byteLength + data.byteLength;
  }
  const start = offset;
  for (const { entry, nameBytes } of central) {
    chunks.push(entry, nameBytes);
    offset += entry.byteLength + nameBytes.byteLength;
  }
  chunks.push(
    header(0x06054b50, [
      [0, 2],
      [0, 2],
      [central.length, 2],
      [central.length, 2],
      [offset - start, 4],
      [start, 4],
      [0, 2],
    ]),
  );
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
