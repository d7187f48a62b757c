import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Readable } from 'node:stream';
import { constants, createZstdCompress, createZstdDecompress } from 'node:zlib';
import type { ConsistentRead } from './chain-store.js';
import { GROUP_PREFIX, StateRootCheck, type StateAnomaly } from './state-root-check.js';

/**
 * The state export file (docs/operations.md "Export and import"): the state at one block, with
 * that block, so a node can start from it. One zstd stream of:
 *
 *   "NTVSTATE" | version u8 = 3
 *   u32 BE length | manifest JSON (ExportManifest)
 *   u32 BE length | the head block (src/chain/block.ts encodeBlock)
 *   u32 BE length | its execution result (0: none)
 *   u32 BE length | its finality certificate (0: none)
 *   u32 BE length | the genesis block (peers check its hash in the handshake, docs/p2p.md)
 *   records, ascending by key: u16 BE key length (≥ 1) | u32 BE value length | key | value
 *   u16 BE 0 | u64 BE record count | SHA-256 of every byte before it (32 bytes)
 *
 * Keys are state keys (docs/core-abi.md "State layout"), the derived state-root records (0xF0,
 * 0xF1, 0xF2, 0xF3) included, so the importing node needs no rebuild; an import recomputes the root from
 * the records and checks it against the manifest, the stored tree and the block's header. Version 1
 * (storage format 5 and before) had no 0xF2 group records: it is still read, and the reader hands
 * the group records it computed to `onRecords` after the file's. Version 2 had no 0xF3 bucket
 * slices (docs/state-root.md "Bucket slices"): it is read as is, its buckets whole records, which
 * the core reads; a node that knows only versions 1 and 2 refuses version 3 by its number rather
 * than by a state root its sweep cannot recompute from the slices.
 */

export const EXPORT_MAGIC = 'NTVSTATE';
export const EXPORT_VERSION = 3;
/** the version before the state tree's bucket slices (0xF3) */
const EXPORT_VERSION_NO_SLICES = 2;
/** the version before the state tree's group records (0xF2) */
const EXPORT_VERSION_NO_GROUPS = 1;
/** Largest head section (block, result, certificate) an import accepts: a full block is ~200 KB. */
const MAX_SECTION = 64 * 1024 * 1024;

export interface ExportManifest {
  format: 'ntv-state-export';
  version: number;
  chainId: number;
  height: number;
  /** hex */
  blockHash: string;
  /** hex: the state root of the records, equal to the head block's */
  stateRoot: string;
  nodeVersion: string;
  createdAt: string;
}

export interface ExportHead {
  block: Uint8Array;
  genesis: Uint8Array;
  outcome: Uint8Array | undefined;
  certificate: Uint8Array | undefined;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/**
 * Write the state of `read` (a consistent snapshot) to `path` (through `path.partial`, renamed when
 * complete, so an interrupted export leaves no file that looks whole). `manifest` describes the head.
 */
export async function writeStateExport(
  read: ConsistentRead, head: ExportHead, manifest: ExportManifest, path: string,
  onProgress?: (records: number, bytes: number) => void,
): Promise<{ records: number; bytes: number }> {
  const partial = `${path}.partial`;
  const source = new PassThrough({ highWaterMark: 1 << 20 });
  const written = pipeline(source, createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 3 } }), createWriteStream(partial));
  const hash = createHash('sha256');
  let bytes = 0;
  const put = async (chunk: Uint8Array) => {
    hash.update(chunk);
    bytes += chunk.length;
    if (!source.write(chunk)) await new Promise<void>((r) => source.once('drain', () => r()));
  };
  let records = 0;
  try {
    await put(Buffer.concat([Buffer.from(EXPORT_MAGIC, 'latin1'), Uint8Array.of(EXPORT_VERSION)]));
    const json = Buffer.from(JSON.stringify(manifest));
    for (const section of [json, head.block, head.outcome ?? new Uint8Array(0), head.certificate ?? new Uint8Array(0), head.genesis]) {
      await put(u32(section.length));
      await put(section);
    }
    // Warm and cold records merged in key order (src/storage/cold-store.ts): an export does not
    // show which tier held a record.
    for await (const batch of read.state({ onBoth: (key) => { throw new Error(`state key ${Buffer.from(key).toString('hex')} is held both warm and cold: run the integrity sweep`); } })) {
      const parts: Uint8Array[] = [];
      for (const [key, value] of batch) {
        const lengths = Buffer.alloc(6);
        lengths.writeUInt16BE(key.length, 0);
        lengths.writeUInt32BE(value.length, 2);
        parts.push(lengths, key, value);
        records++;
      }
      await put(Buffer.concat(parts));
      onProgress?.(records, bytes);
    }
    const end = Buffer.alloc(10);
    end.writeBigUInt64BE(BigInt(records), 2);
    await put(end);
    const digest = hash.digest();
    bytes += digest.length;
    source.end(digest);
    await written;
  } catch (error) {
    source.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, path);
  return { records, bytes };
}

/** The file is not a sound export: the message names what, and the first bad records when there are. */
export class ExportFormatError extends Error {
  constructor(message: string, readonly anomalies: StateAnomaly[] = []) {
    super(anomalies.length === 0 ? message : `${message}:\n${anomalies.map((a) => `  ${a.key}: ${a.reason}`).join('\n')}`);
  }
}

/** Pulls exact byte counts off a stream of chunks, hashing what it hands out. */
class ChunkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly iterator: AsyncIterator<Buffer>;
  offset = 0;
  /** bytes the stream has given so far */
  seen = 0;

  constructor(stream: Readable, private readonly hash: Hash) {
    this.iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** `n` bytes, or undefined when the stream ends first. */
  async take(n: number, hashed = true): Promise<Buffer | undefined> {
    while (this.buffer.length < n) {
      const next = await this.iterator.next();
      if (next.done) return undefined;
      this.seen += next.value.length;
      this.buffer = this.buffer.length === 0 ? next.value : Buffer.concat([this.buffer, next.value]);
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    this.offset += n;
    if (hashed) this.hash.update(out);
    return out;
  }

  async atEnd(): Promise<boolean> {
    if (this.buffer.length > 0) return false;
    const next = await this.iterator.next();
    if (next.done) return true;
    this.buffer = next.value;
    return this.buffer.length === 0 ? this.atEnd() : false;
  }
}

export interface ReadExportHandlers {
  /** the manifest and the head, before any record: throw to refuse the file (another chain, a header that disagrees) */
  onHead(manifest: ExportManifest, head: ExportHead): Promise<void> | void;
  /** a batch of records (keys without the database prefix), in key order */
  onRecords(records: Array<readonly [Uint8Array, Uint8Array]>): Promise<void> | void;
  onProgress?(records: number, compressedBytes: number): void;
}

/**
 * Read and verify an export: its framing, key order, record count, checksum, and the state root
 * recomputed from its records (against the stored tree records and the manifest). Throws
 * ExportFormatError naming the first bad records; `onRecords` has then seen some records, so a
 * caller writing them must discard what it wrote.
 */
export async function readStateExport(path: string, handlers: ReadExportHandlers): Promise<{ manifest: ExportManifest; records: number }> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  let compressed = 0;
  file.on('data', (chunk) => (compressed += chunk.length));
  const decompress = createZstdDecompress();
  const plain = file.pipe(decompress);
  file.once('error', (error) => decompress.destroy(error));
  const hash = createHash('sha256');
  const reader = new ChunkReader(plain, hash);
  let check = await StateRootCheck.create(10);
  try {
    const magic = await reader.take(EXPORT_MAGIC.length + 1);
    // zstd streams cut short may end without an error and without output: no bytes is that case.
    if (!magic && reader.seen === 0) throw new ExportFormatError(`${path} is empty or not a complete zstd stream (it decompresses to nothing)`);
    if (!magic || magic.subarray(0, EXPORT_MAGIC.length).toString('latin1') !== EXPORT_MAGIC) throw new ExportFormatError(`${path} is not a state export (no ${EXPORT_MAGIC} header)`);
    const version = magic[EXPORT_MAGIC.length];
    if (version !== EXPORT_VERSION && version !== EXPORT_VERSION_NO_SLICES && version !== EXPORT_VERSION_NO_GROUPS) {
      throw new ExportFormatError(`${path} is a state export of version ${version}, this node reads versions ${EXPORT_VERSION_NO_GROUPS} to ${EXPORT_VERSION}`);
    }
    if (version === EXPORT_VERSION_NO_GROUPS) check = await StateRootCheck.create(10, { groupsStored: false });
    const sections: Uint8Array[] = [];
    for (const name of ['manifest', 'head block', 'execution result', 'certificate', 'genesis block']) {
      const length = await reader.take(4);
      if (!length) throw new ExportFormatError(`${path} ends inside its ${name}`);
      const n = length.readUInt32BE(0);
      if (n > MAX_SECTION) throw new ExportFormatError(`${path}: its ${name} claims ${n} bytes`);
      const bytes = await reader.take(n);
      if (!bytes) throw new ExportFormatError(`${path} ends inside its ${name}`);
      sections.push(Uint8Array.from(bytes));
    }
    let manifest: ExportManifest;
    try {
      manifest = JSON.parse(Buffer.from(sections[0]!).toString('utf8')) as ExportManifest;
    } catch {
      throw new ExportFormatError(`${path}: the manifest is not JSON`);
    }
    if (manifest.format !== 'ntv-state-export' || !Number.isSafeInteger(manifest.height) || !/^[0-9a-f]{64}$/.test(manifest.stateRoot ?? '')) {
      throw new ExportFormatError(`${path}: the manifest lacks format, height or stateRoot`);
    }
    if (sections[1]!.length === 0 || sections[4]!.length === 0) throw new ExportFormatError(`${path}: the head or genesis block is empty`);
    await handlers.onHead(manifest, {
      block: sections[1]!, outcome: sections[2]!.length > 0 ? sections[2] : undefined, certificate: sections[3]!.length > 0 ? sections[3] : undefined, genesis: sections[4]!,
    });
    let records = 0;
    let previous: Buffer | undefined;
    let batch: Array<readonly [Uint8Array, Uint8Array]> = [];
    const describe = (key: Buffer | undefined) => (key ? `record ${records} (key ${key.toString('hex')})` : `record ${records}`);
    for (;;) {
      const lengths = await reader.take(2);
      if (!lengths) throw new ExportFormatError(`${path} is truncated after ${describe(previous)}`);
      const keyLength = lengths.readUInt16BE(0);
      if (keyLength === 0) break;
      const valueLength = (await reader.take(4))?.readUInt32BE(0);
      if (valueLength === undefined) throw new ExportFormatError(`${path} is truncated after ${describe(previous)}`);
      if (valueLength > MAX_SECTION) throw new ExportFormatError(`${path}: record ${records + 1} claims a ${valueLength}-byte value`);
      const key = await reader.take(keyLength);
      const value = key && (await reader.take(valueLength));
      if (!key || !value) throw new ExportFormatError(`${path} is truncated inside record ${records + 1}`);
      records++;
      if (previous && Buffer.compare(previous, key) >= 0) {
        throw new ExportFormatError(`${path}: record ${records} (key ${key.toString('hex')}) is out of key order after ${previous.toString('hex')}`);
      }
      const k = Uint8Array.from(key);
      const v = Uint8Array.from(value);
      previous = Buffer.from(k);
      check.add(k, v);
      batch.push([k, v]);
      if (batch.length >= 10_000) {
        await handlers.onRecords(batch);
        batch = [];
        handlers.onProgress?.(records, compressed);
      }
    }
    await handlers.onRecords(batch);
    handlers.onProgress?.(records, compressed);
    const count = (await reader.take(8))?.readBigUInt64BE(0);
    const expected = hash.copy().digest();
    const digest = await reader.take(32, false);
    if (count === undefined || !digest) throw new ExportFormatError(`${path} is truncated in its trailer`);
    if (!(await reader.atEnd())) throw new ExportFormatError(`${path} has bytes after its trailer`);
    if (count !== BigInt(records)) throw new ExportFormatError(`${path}: its trailer counts ${count} records, the file holds ${records}`);
    // The tree check before the checksum: a damaged value is then named by its key.
    const root = Buffer.from(check.finish()).toString('hex');
    if (check.anomalyCount > 0) throw new ExportFormatError(`${path}: ${check.anomalyCount} records disagree with the state-root tree`, [...check.found]);
    if (Buffer.compare(expected, digest) !== 0) throw new ExportFormatError(`${path}: checksum mismatch, the file is damaged`);
    if (root !== manifest.stateRoot) throw new ExportFormatError(`${path}: its records hash to state root ${root}, its manifest names ${manifest.stateRoot}`);
    if (version === EXPORT_VERSION_NO_GROUPS) await handlers.onRecords(check.treeRecords().filter(([key]) => key[0] === GROUP_PREFIX));
    return { manifest, records };
  } catch (error) {
    if (error instanceof ExportFormatError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ExportFormatError(`${path}: no such file`);
    if (code === 'EISDIR') throw new ExportFormatError(`${path} is a directory`);
    // zstd: not a zstd frame, or a damaged one (ZSTD_error_*)
    if (typeof code === 'string' && code.startsWith('ZSTD_error_')) throw new ExportFormatError(`${path} is not a zstd stream or is damaged (${(error as Error).message})`);
    throw error;
  } finally {
    file.destroy();
  }
}
