import { closeSync, fdatasync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync, writeSync, writevSync, constants } from 'node:fs';
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
   *
   * `guard` (the block writer's open, issue 46 item 1): the database's head height (-1: empty). Past the head a
   * kill can leave only the blocks handed to the writer and not yet durable, at most
   * MAX_BLOCKS_IN_FLIGHT; more complete blocks there, or a durable head (DURABLE_HEAD_FILE) above
   * the database's, mean the database lost blocks it had written (a damaged log, an older copy put
   * back): that is refused too. Every check runs before anything is cut, so a refusal changes nothing.
   */
  static open(dir: string, head: BlockLocation | undefined, segmentBytes = SEGMENT_BYTES, guard?: { height: number }): BlockAppender {
    mkdirSync(dir, { recursive: true });
    const segment = head?.segment ?? 0;
    const end = head ? head.offset + head.blockLength + head.outcomeLength : 0;
    const later = readdirSync(dir).filter((name) => {
      const match = SEGMENT_NAME.exec(name);
      return match !== null && Number(match[1]) > segment;
    }).sort();
    const size = fileSize(segmentPath(dir, segment));
    if (size < end) {
      throw new Error(`${segmentPath(dir, segment)} holds ${size} bytes, but the stored head's block ends at byte ${end}: the block files are damaged or missing. The block files were left as they were. `
        + 'Restore the data directory from a backup or a snapshot, or sync into a new one (docs/operations.md "When a start refuses")');
    }
    if (guard) checkTail(dir, segment, end, later, guard.height);
    for (const name of later) unlinkSync(join(dir, name));
    const appender = new BlockAppender(dir, segment, end, segmentBytes);
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
    try {
      while (done < length) {
        // writev may write less than asked (a signal, a full disk's last bytes): go on from there
        const parts = done < block.length ? [block.subarray(done), ...(outcome ? [outcome] : [])] : [outcome!.subarray(done - block.length)];
        done += writevSync(this.fd, parts, this.offset + done);
      }
    } catch (error) {
      // the file named, as LevelDB names its own (a full disk, an I/O error: src/storage/faults.ts)
      throw new Error(`${segmentPath(this.dir, this.segment)}: ${(error as Error).message}`);
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

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/**
 * The most blocks a kill can leave in the block files past the database's head: blocks handed to
 * the writer whose batch was not yet durable. The chain hands over at most this many
 * (WriteQueue.MAX_PENDING_WRITES_SYNCING, src/chain/pipeline/4-write.ts, uses it).
 */
export const MAX_BLOCKS_IN_FLIGHT = 20;

/**
 * `blocks/durable-head`: the height of the last batch the writer saw land, u64 BE, written (not
 * synced) after each durable batch. It can trail the database after a power loss, never lead it
 * unless the database lost synced batches: a database head below it is refused at open.
 */
export const DURABLE_HEAD_FILE = 'durable-head';

export function readDurableHead(dir: string): number | undefined {
  try {
    const bytes = readFileSync(join(dir, DURABLE_HEAD_FILE));
    return bytes.length === 8 ? Number(bytes.readBigUInt64BE(0)) : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The block writer's record of its durable head (see DURABLE_HEAD_FILE), rewritten in place. */
export class DurableHead {
  private readonly fd: number;
  private readonly bytes = Buffer.alloc(8);

  constructor(dir: string) {
    this.fd = openSync(join(dir, DURABLE_HEAD_FILE), constants.O_RDWR | constants.O_CREAT, 0o644);
  }

  set(height: number): void {
    this.bytes.writeBigUInt64BE(BigInt(height));
    writeSync(this.fd, this.bytes, 0, 8, 0);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The header JSON every stored block starts with, after its u32 LE length (src/chain/block.ts encodeBlock). */
const HEADER_START = Buffer.from('{"chainId":');
/** How much of the tail is read to count its blocks: past MAX_BLOCKS_IN_FLIGHT full blocks either way. */
const TAIL_READ_BYTES = 64 * 1024 * 1024;

/**
 * Refuses a database behind its block files (BlockAppender.open's guard): complete blocks of heights
 * above the head past its location, more than a kill leaves, or the writer's durable-head record
 * above the head. Blocks are found by their header's start; a block is counted when its header
 * parses and names a height above the head.
 */
function checkTail(dir: string, segment: number, end: number, later: string[], head: number): void {
  const durable = readDurableHead(dir);
  const heights: number[] = [];
  let budget = TAIL_READ_BYTES;
  for (const [i, path] of [segmentPath(dir, segment), ...later.map((name) => join(dir, name))].entries()) {
    if (budget <= 0 || heights.length > MAX_BLOCKS_IN_FLIGHT) break;
    const from = i === 0 ? end : 0;
    const length = Math.min(budget, fileSize(path) - from);
    if (length <= 0) continue;
    budget -= length;
    const bytes = Buffer.alloc(length);
    const fd = openSync(path, constants.O_RDONLY);
    try {
      readSync(fd, bytes, 0, length, from);
    } finally {
      closeSync(fd);
    }
    for (let at = bytes.indexOf(HEADER_START); at >= 0; at = bytes.indexOf(HEADER_START, at + 1)) {
      if (at < 4) continue;
      const jsonLength = bytes.readUInt32LE(at - 4);
      if (at + jsonLength > bytes.length) continue;
      try {
        const height = (JSON.parse(bytes.subarray(at, at + jsonLength).toString()) as { height?: unknown }).height;
        if (typeof height === 'number' && height > head) heights.push(height);
      } catch {
        // bytes of an execution result that happen to look like a header start
      }
    }
  }
  const behind = (what: string) => new Error(`${head < 0 ? 'the database is empty' : `the database's head is block ${head}`}, but ${what}: the database lost blocks it had written `
    + '(its log damaged, or an older copy put back), and starting would roll the chain back. The block files were left as they were. '
    + 'Restore the data directory from a backup or a snapshot, or sync into a new one (docs/operations.md "When a start refuses")');
  if (heights.length > MAX_BLOCKS_IN_FLIGHT) {
    throw behind(`the block files hold ${heights.length} blocks past it (up to height ${Math.max(...heights)}${budget <= 0 ? ' in the first 64 MiB' : ''}), where a kill leaves at most ${MAX_BLOCKS_IN_FLIGHT}`);
  }
  if (durable !== undefined && durable > head) {
    throw behind(`the block writer recorded block ${durable} as durable (${join(dir, DURABLE_HEAD_FILE)}) and the block files hold ${heights.length} block(s) past the head`);
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
