import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which LevelDB table files are damaged (issue 46 item 5): LevelDB's corruption messages ("corrupted
 * compressed block contents", "bad entry in block") do not say which file, and an operator restoring
 * or reporting needs to know. Each `.ldb`/`.sst` file's blocks carry a CRC-32C of their bytes (the
 * table format, leveldb/doc/table_format.md): the footer gives the index block, the index block
 * every data block, and each block's checksum is compared. Run only after a corruption was reported.
 */

const FOOTER_BYTES = 48;
const TRAILER_BYTES = 5;
const MAGIC = 0xdb4775248b80fb57n;
const MASK_DELTA = 0xa282ead8;

export interface DamagedTable {
  file: string;
  reason: string;
}

/** The damaged table files of the database at `dbPath` (an empty list when all checksums hold). */
export function damagedTables(dbPath: string): DamagedTable[] {
  const damaged: DamagedTable[] = [];
  for (const name of readdirSync(dbPath).filter((n) => /\.(ldb|sst)$/.test(n)).sort()) {
    const file = join(dbPath, name);
    const reason = checkTable(readFileSync(file));
    if (reason) damaged.push({ file, reason });
  }
  return damaged;
}

/** Why the table's bytes are damaged, or undefined when every block's checksum holds. */
export function checkTable(bytes: Uint8Array): string | undefined {
  if (bytes.length < FOOTER_BYTES) return `${bytes.length} bytes, shorter than a table's footer`;
  const footer = new Reader(bytes, bytes.length - FOOTER_BYTES);
  footer.handle(); // the metaindex block
  const index = footer.handle();
  const magic = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 8).getBigUint64(0, true);
  if (magic !== MAGIC) return 'the footer\'s magic number is wrong';
  const indexBlock = readBlock(bytes, index, 'the index block');
  if (typeof indexBlock === 'string') return indexBlock;
  let handles: Array<{ offset: number; size: number }>;
  try {
    handles = blockEntries(indexBlock).map((value) => new Reader(value, 0).handle());
  } catch (error) {
    return `the index block does not parse: ${(error as Error).message}`;
  }
  for (const [i, handle] of handles.entries()) {
    const block = readBlock(bytes, handle, `data block ${i} (bytes ${handle.offset}…${handle.offset + handle.size})`);
    if (typeof block === 'string') return block;
  }
  return undefined;
}

/** A block's contents (decompressed when needed for parsing), or why it is damaged. */
function readBlock(bytes: Uint8Array, handle: { offset: number; size: number }, what: string): Uint8Array | string {
  const end = handle.offset + handle.size;
  if (end + TRAILER_BYTES > bytes.length) return `${what} lies past the end of the file`;
  const stored = new DataView(bytes.buffer, bytes.byteOffset + end + 1, 4).getUint32(0, true);
  const crc = crc32c(bytes.subarray(handle.offset, end + 1));
  const masked = ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
  if (masked !== stored) return `${what} fails its checksum`;
  const type = bytes[end]!;
  const contents = bytes.subarray(handle.offset, end);
  if (type === 0) return contents;
  if (type === 1) {
    try {
      return snappyDecompress(contents);
    } catch (error) {
      return `${what} does not decompress: ${(error as Error).message}`;
    }
  }
  return `${what} has unknown compression ${type}`;
}

/** The values of a block's entries (keys are prefix-compressed; only the values are needed here). */
function blockEntries(block: Uint8Array): Uint8Array[] {
  if (block.length < 4) throw new Error('block shorter than its restart count');
  const view = new DataView(block.buffer, block.byteOffset, block.length);
  const restarts = view.getUint32(block.length - 4, true);
  const limit = block.length - 4 - 4 * restarts;
  if (limit < 0) throw new Error('restart array larger than the block');
  const values: Uint8Array[] = [];
  const r = new Reader(block, 0);
  while (r.at < limit) {
    r.varint(); // shared key bytes
    const unshared = r.varint();
    const valueLength = r.varint();
    r.at += unshared;
    if (r.at + valueLength > limit) throw new Error('entry past the block');
    values.push(block.subarray(r.at, r.at + valueLength));
    r.at += valueLength;
  }
  return values;
}

class Reader {
  constructor(private readonly bytes: Uint8Array, public at: number) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.at >= this.bytes.length) throw new Error('varint past the end');
      const b = this.bytes[this.at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    throw new Error('varint longer than 10 bytes');
  }

  handle(): { offset: number; size: number } {
    return { offset: this.varint(), size: this.varint() };
  }
}

/** Snappy's element types, the low two bits of a tag byte (its format_description.txt); 3 is a copy with a 4-byte offset. */
const LITERAL = 0;
const COPY_1 = 1;
const COPY_2 = 2;

/** Snappy's raw format (what LevelDB compresses blocks with). */
function snappyDecompress(input: Uint8Array): Uint8Array {
  const r = new Reader(input, 0);
  const out = new Uint8Array(r.varint());
  let o = 0;
  while (r.at < input.length) {
    const tag = input[r.at++]!;
    let length: number;
    let offset: number;
    switch (tag & 3) {
      case LITERAL: {
        length = (tag >>> 2) + 1;
        if (length > 60) {
          const extra = length - 60;
          length = 0;
          for (let i = 0; i < extra; i++) length |= input[r.at++]! << (8 * i);
          length += 1;
        }
        if (r.at + length > input.length || o + length > out.length) throw new Error('literal past the end');
        out.set(input.subarray(r.at, r.at + length), o);
        r.at += length;
        o += length;
        continue;
      }
      case COPY_1:
        length = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | input[r.at++]!;
        break;
      case COPY_2:
        length = (tag >>> 2) + 1;
        offset = input[r.at]! | (input[r.at + 1]! << 8);
        r.at += 2;
        break;
      default:
        length = (tag >>> 2) + 1;
        offset = (input[r.at]! | (input[r.at + 1]! << 8) | (input[r.at + 2]! << 16) | (input[r.at + 3]! << 24)) >>> 0;
        r.at += 4;
    }
    if (offset === 0 || offset > o || o + length > out.length) throw new Error('copy outside the output');
    for (let i = 0; i < length; i++, o++) out[o] = out[o - offset]!;
  }
  if (o !== out.length) throw new Error(`decompressed ${o} bytes of ${out.length}`);
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli), as LevelDB's crc32c::Value. */
export function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
