import { closeSync, fdatasync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, unlinkSync, writevSync, constants } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Block files (docs/storage.md "Block files"): each block's bytes and its stored execution result,
 * appended to numbered files under `<data-dir>/blocks`, written once and never changed. The level
 * database keeps, under the block's `b` key, only where they are (a 20-byte location), in the
 * block's own synced batch.
 *
 * Why: the block and its result are ~200 KB of a full block's ~230 KB batch. Through LevelDB they
 * were written three times (its log, the level-0 table, a compaction) and copied into its memtable:
 * ~1.0 ms of CPU a block, against ~0.1 ms appended to a file and synced. Nodes that hold whole
 * chains keep bodies out of their key-value store for the same reason (docs/storage.md).
 *
 * Durability: a group's appended bytes are synced BEFORE its batch (with the locations) is written,
 * so a location in the database always points at bytes on disk. A kill between the two leaves
 * bytes past the last stored location: the writer cuts them off when it next opens (`BlockAppender.open`).
 */

/** A new file is started past this size, at a block boundary. */
export const SEGMENT_BYTES = 1024 * 1024 * 1024;
/** file number u32 BE ‖ offset u64 BE ‖ block length u32 BE ‖ result length u32 BE (0: none) */
export const LOCATION_BYTES = 20;

export interface BlockLocation {
  segment: number;
  offset: number;
  blockLength: number;
  /** 0 for a block stored without an execution result (the genesis block) */
  outcomeLength: number;
}

export interface BlockRecord {
  block: Uint8Array;
  /** the stored execution result (outcome-codec.ts), undefined when the block has none */
  outcome: Uint8Array | undefined;
}

/** The block files of the database at `dbPath` (`<data-dir>/db` → `<data-dir>/blocks`). */
export function blockFilesDir(dbPath: string): string {
  return join(dbPath, '..', 'blocks');
}

export function segmentPath(dir: string, segment: number): string {
  return join(dir, `blocks-${String(segment).padStart(6, '0')}.dat`);
}

export function encodeLocation(location: BlockLocation): Uint8Array {
  const bytes = new Uint8Array(LOCATION_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, location.segment);
  view.setBigUint64(4, BigInt(location.offset));
  view.setUint32(12, location.blockLength);
  view.setUint32(16, location.outcomeLength);
  return bytes;
}

export function decodeLocation(value: Uint8Array): BlockLocation {
  if (value.length !== LOCATION_BYTES) throw new Error(`a block location of ${value.length} bytes (expected ${LOCATION_BYTES})`);
  const view = new DataView(value.buffer, value.byteOffset, LOCATION_BYTES);
  return { segment: view.getUint32(0), offset: Number(view.getBigUint64(4)), blockLength: view.getUint32(12), outcomeLength: view.getUint32(16) };
}

const datasync = promisify(fdatasync);
const SEGMENT_NAME = /^blocks-(\d{6})\.dat$/;

/**
 * The append side, owned by the block writer's thread (block-writer-worker.ts). Appends are plain
 * positional writes into the page cache; `sync` makes everything appended so far durable.
 */
export class BlockAppender {
  private fd: number;
  /** files appended to since the last sync: the current one, and one left behind at a rollover */
  private retired: number[] = [];
  private dirty = false;

  private constructor(private readonly dir: string, private segment: number, private offset: number, private readonly segmentBytes: number) {
    this.fd = openSync(segmentPath(dir, segment), constants.O_RDWR | constants.O_CREAT, 0o644);
  }

  /**
   * Opens the files for appending after the stored head's block (`head`: its location, undefined for
   * an empty database). Bytes past it are a group whose batch never landed (a kill between the sync
   * and the batch): they are cut off, and later files removed. Files shorter than the head's block
   * mean the block files were lost or damaged: that is refused, not repaired.
   */
  static open(dir: string, head: BlockLocation | undefined, segmentBytes = SEGMENT_BYTES): BlockAppender {
    mkdirSync(dir, { recursive: true });
    const segment = head?.segment ?? 0;
    const end = head ? head.offset + head.blockLength + head.outcomeLength : 0;
    for (const name of readdirSync(dir)) {
      const match = SEGMENT_NAME.exec(name);
      if (match && Number(match[1]) > segment) unlinkSync(join(dir, name));
    }
    const appender = new BlockAppender(dir, segment, end, segmentBytes);
    const size = fstatSync(appender.fd).size;
    if (size < end) {
      appender.close();
      throw new Error(`${segmentPath(dir, segment)} holds ${size} bytes, but the stored head's block ends at byte ${end}: the block files are damaged or missing`);
    }
    if (size > end) ftruncateSync(appender.fd, end);
    syncDir(dir);
    return appender;
  }

  /** Appends a block and its stored result; returns where they are. Durable after the next `sync`. */
  append(block: Uint8Array, outcome: Uint8Array | undefined): BlockLocation {
    const length = block.length + (outcome?.length ?? 0);
    if (this.offset > 0 && this.offset + length > this.segmentBytes) this.rollover();
    const location = { segment: this.segment, offset: this.offset, blockLength: block.length, outcomeLength: outcome?.length ?? 0 };
    let done = 0;
    while (done < length) {
      // writev may write less than asked (a signal, a full disk's last bytes): go on from there
      const parts = done < block.length ? [block.subarray(done), ...(outcome ? [outcome] : [])] : [outcome!.subarray(done - block.length)];
      done += writevSync(this.fd, parts, this.offset + done);
    }
    this.offset += length;
    this.dirty = true;
    return location;
  }

  /** Makes every append so far durable (fdatasync), before the batch that points at them is written. */
  async sync(): Promise<void> {
    const retired = this.retired;
    this.retired = [];
    for (const fd of retired) {
      await datasync(fd);
      closeSync(fd);
    }
    if (retired.length > 0) syncDir(this.dir);
    if (!this.dirty) return;
    this.dirty = false;
    await datasync(this.fd);
  }

  close(): void {
    for (const fd of this.retired) closeSync(fd);
    this.retired = [];
    closeSync(this.fd);
  }

  private rollover(): void {
    this.retired.push(this.fd);
    this.segment++;
    this.offset = 0;
    this.fd = openSync(segmentPath(this.dir, this.segment), constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC, 0o644);
  }
}

/** A new file's name is durable once its directory is synced. */
function syncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Open files a reader keeps: a sync or an explorer reads the newest ones, an auditor walks them in order. */
const OPEN_FILES = 8;

interface OpenFile {
  handle: Promise<FileHandle>;
  /** reads under way: the handle is closed only when none are */
  reads: number;
  evicted: boolean;
}

/**
 * The read side (the main thread's ChainStore, and the writer thread's lookup index). Blocks stored
 * side by side, as a sync batch's are, come back from one read. The last OPEN_FILES files used stay
 * open.
 */
export class BlockFileReader {
  private readonly files = new Map<number, OpenFile>();

  constructor(private readonly dir: string) {}

  async read(locations: ReadonlyArray<BlockLocation | undefined>): Promise<Array<BlockRecord | undefined>> {
    const out: Array<BlockRecord | undefined> = new Array(locations.length).fill(undefined);
    for (let i = 0; i < locations.length;) {
      const first = locations[i];
      if (!first) {
        i++;
        continue;
      }
      // the run of locations that continue each other in one file
      let end = first.offset + first.blockLength + first.outcomeLength;
      let j = i + 1;
      for (; j < locations.length; j++) {
        const next = locations[j];
        if (!next || next.segment !== first.segment || next.offset !== end) break;
        end += next.blockLength + next.outcomeLength;
      }
      const bytes = await this.readRange(first.segment, first.offset, end - first.offset);
      for (let k = i; k < j; k++) {
        const { offset, blockLength, outcomeLength } = locations[k]!;
        const at = offset - first.offset;
        out[k] = {
          block: bytes.subarray(at, at + blockLength),
          outcome: outcomeLength === 0 ? undefined : bytes.subarray(at + blockLength, at + blockLength + outcomeLength),
        };
      }
      i = j;
    }
    return out;
  }

  async close(): Promise<void> {
    const files = [...this.files.values()];
    this.files.clear();
    for (const file of files) {
      file.evicted = true;
      if (file.reads === 0) await closeFile(file);
    }
  }

  private async readRange(segment: number, offset: number, length: number): Promise<Uint8Array> {
    const file = this.use(segment);
    file.reads++;
    try {
      const handle = await file.handle;
      const bytes = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(bytes, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error(`${segmentPath(this.dir, segment)} ends before byte ${offset + length}: a stored block is missing from the block files`);
        done += bytesRead;
      }
      return bytes;
    } finally {
      if (--file.reads === 0 && file.evicted) void closeFile(file);
    }
  }

  /** The open file of `segment`, most recently used last; the least recently used beyond OPEN_FILES is closed once idle. */
  private use(segment: number): OpenFile {
    let file = this.files.get(segment);
    if (file) this.files.delete(segment);
    else {
      const handle = open(segmentPath(this.dir, segment), 'r');
      file = { handle, reads: 0, evicted: false };
      const opened = file;
      // a file that failed to open is not kept: the next read tries again
      handle.catch(() => {
        if (this.files.get(segment) === opened) this.files.delete(segment);
      });
    }
    this.files.set(segment, file);
    if (this.files.size > OPEN_FILES) {
      const [oldest, evicted] = this.files.entries().next().value!;
      this.files.delete(oldest);
      evicted.evicted = true;
      if (evicted.reads === 0) void closeFile(evicted);
    }
    return file;
  }
}

async function closeFile(file: OpenFile): Promise<void> {
  await (await file.handle.catch(() => undefined))?.close();
}

/** Sizes of the block files in `dir` by file number (an absent directory has none). */
export async function blockFileSizes(dir: string): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return sizes;
  }
  for (const name of names) {
    const m = SEGMENT_NAME.exec(name);
    if (m) sizes.set(Number(m[1]), (await stat(join(dir, name))).size);
  }
  return sizes;
}
