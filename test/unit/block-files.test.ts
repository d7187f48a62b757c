import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readlinkSync, statSync, truncateSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlockAppender, BlockFileReader, decodeLocation, DurableHead, encodeLocation, LOCATION_BYTES, MAX_BLOCKS_IN_FLIGHT, readDurableHead, segmentPath, type BlockLocation } from '../../src/storage/block-files.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-blockfiles-'));
  dirs.push(dir);
  return join(dir, 'blocks');
}

describe('block files', () => {
  it('encodes a location in 20 bytes and refuses any other length', () => {
    const location = { segment: 7, offset: 2 ** 40 + 3, blockLength: 160_000, outcomeLength: 39_000 };
    const bytes = encodeLocation(location);
    expect(bytes.length).toBe(LOCATION_BYTES);
    expect(decodeLocation(bytes)).toEqual(location);
    expect(() => decodeLocation(bytes.subarray(1))).toThrow(/a block location of 19 bytes \(expected 20\)/);
  });

  it('reads back what was appended, a run of neighbours in one read, across a new file at the size limit', async () => {
    const dir = await tempDir();
    const files = BlockAppender.open(dir, undefined, 1000);
    const records = Array.from({ length: 9 }, (_, i) => ({ block: randomBytes(150 + i), outcome: i % 3 === 0 ? undefined : randomBytes(40 + i) }));
    const locations = records.map((r) => files.append(r.block, r.outcome));
    await files.sync();
    files.close();
    // ~200 bytes a record, 1,000 a file: the records spread over several files, none split
    expect(new Set(locations.map((l) => l.segment)).size).toBeGreaterThan(1);
    for (const l of locations) expect(l.offset + l.blockLength + l.outcomeLength).toBeLessThanOrEqual(1000);
    expect(locations[0]!.outcomeLength).toBe(0);

    const reader = new BlockFileReader(dir);
    const read = await reader.read([...locations, undefined]);
    expect(read.length).toBe(10);
    expect(read[9]).toBeUndefined();
    for (const [i, r] of records.entries()) {
      expect(Buffer.from(read[i]!.block)).toEqual(r.block);
      expect(read[i]!.outcome && Buffer.from(read[i]!.outcome!)).toEqual(r.outcome);
    }
    // out of order and repeated, as getMany may ask
    const again = await reader.read([locations[5]!, locations[1]!, locations[5]!]);
    expect(Buffer.from(again[0]!.block)).toEqual(records[5]!.block);
    expect(Buffer.from(again[1]!.block)).toEqual(records[1]!.block);
    expect(Buffer.from(again[2]!.block)).toEqual(records[5]!.block);
    await reader.close();
  });

  it('keeps at most 8 files open while reading many, and closes them all', async () => {
    const dir = await tempDir();
    const files = BlockAppender.open(dir, undefined, 100);
    const records = Array.from({ length: 12 }, () => randomBytes(100));
    const locations = records.map((r) => files.append(r, undefined));
    await files.sync();
    files.close();
    expect(locations[11]!.segment).toBe(11);
    const openHere = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
      } catch {
        return false;
      }
    }).length;
    const reader = new BlockFileReader(dir);
    // one at a time, then all at once (reads under way keep their file open past the limit)
    for (const [i, l] of locations.entries()) expect(Buffer.from((await reader.read([l]))[0]!.block)).toEqual(records[i]);
    const all = await Promise.all(locations.map((l) => reader.read([l])));
    for (const [i, r] of all.entries()) expect(Buffer.from(r[0]!.block)).toEqual(records[i]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openHere()).toBeGreaterThan(0);
    expect(openHere()).toBeLessThanOrEqual(8);
    await reader.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openHere()).toBe(0);
  });

  it('cuts off bytes past the head\'s block (a group whose batch a kill stopped) and removes later files', async () => {
    const dir = await tempDir();
    const files = BlockAppender.open(dir, undefined, 1000);
    const head = files.append(randomBytes(300), randomBytes(50));
    // appended and synced, but their batch never landed: 300 more bytes here and a whole next file
    files.append(randomBytes(300), undefined);
    files.append(randomBytes(600), undefined);
    await files.sync();
    files.close();
    expect(existsSync(segmentPath(dir, 1))).toBe(true);

    const reopened = BlockAppender.open(dir, head, 1000);
    expect(statSync(segmentPath(dir, 0)).size).toBe(350);
    expect(existsSync(segmentPath(dir, 1))).toBe(false);
    const next = reopened.append(Buffer.from('next block'), undefined);
    expect(next).toEqual({ segment: 0, offset: 350, blockLength: 10, outcomeLength: 0 });
    await reopened.sync();
    reopened.close();
    const reader = new BlockFileReader(dir);
    expect(Buffer.from((await reader.read([next]))[0]!.block).toString()).toBe('next block');
    await reader.close();

    // an empty database: nothing is stored, everything is cut off
    BlockAppender.open(dir, undefined, 1000).close();
    expect(statSync(segmentPath(dir, 0)).size).toBe(0);
  });

  it('refuses files shorter than the head\'s block, and a read past the end of a file says which', async () => {
    const dir = await tempDir();
    const files = BlockAppender.open(dir, undefined);
    const head: BlockLocation = files.append(randomBytes(500), randomBytes(20));
    await files.sync();
    files.close();
    truncateSync(segmentPath(dir, 0), 400);
    expect(() => BlockAppender.open(dir, head)).toThrow(/blocks-000000\.dat holds 400 bytes, but the stored head's block ends at byte 520: the block files are damaged or missing/);
    const reader = new BlockFileReader(dir);
    await expect(reader.read([head])).rejects.toThrow(/blocks-000000\.dat ends before byte 520: a stored block is missing from the block files/);
    await reader.close();
    appendFileSync(segmentPath(dir, 0), randomBytes(120));
    BlockAppender.open(dir, head).close();
    expect(statSync(segmentPath(dir, 0)).size).toBe(520);
  });

  describe('the writer\'s guard: a database behind its block files (issue 46 item 1)', () => {
    /** A stored block's leading bytes as src/chain/block.ts encodeBlock writes them: u32 LE JSON length, the header JSON, no bundles. */
    function storedBlock(height: number): Buffer {
      const json = Buffer.from(JSON.stringify({ chainId: 1618032, height, parentHash: '00'.repeat(32) }));
      const out = Buffer.alloc(4 + json.length + 4);
      out.writeUInt32LE(json.length, 0);
      json.copy(out, 4);
      return out;
    }

    /** Blocks 0…last appended and synced; the location of `head` is returned. */
    async function chainOf(dir: string, last: number, head: number): Promise<BlockLocation> {
      const files = BlockAppender.open(dir, undefined);
      let at: BlockLocation | undefined;
      for (let h = 0; h <= last; h++) {
        const location = files.append(storedBlock(h), h === 0 ? undefined : randomBytes(40));
        if (h === head) at = location;
      }
      await files.sync();
      files.close();
      return at!;
    }

    it('cuts what a kill leaves (at most MAX_BLOCKS_IN_FLIGHT blocks past the head)', async () => {
      const dir = await tempDir();
      const head = await chainOf(dir, 10 + MAX_BLOCKS_IN_FLIGHT, 10);
      BlockAppender.open(dir, head, undefined, { height: 10 }).close();
      expect(statSync(segmentPath(dir, 0)).size).toBe(head.offset + head.blockLength + head.outcomeLength);
    });

    it('refuses more blocks past the head than a kill leaves, and a durable head above it, changing nothing', async () => {
      const dir = await tempDir();
      const head = await chainOf(dir, 11 + MAX_BLOCKS_IN_FLIGHT, 10);
      const size = statSync(segmentPath(dir, 0)).size;
      expect(() => BlockAppender.open(dir, head, undefined, { height: 10 })).toThrow(
        `the database's head is block 10, but the block files hold ${MAX_BLOCKS_IN_FLIGHT + 1} blocks past it (up to height ${11 + MAX_BLOCKS_IN_FLIGHT}), where a kill leaves at most ${MAX_BLOCKS_IN_FLIGHT}`);
      expect(statSync(segmentPath(dir, 0)).size).toBe(size);
      // a few blocks past the head, but the writer saw block 12 land: the database lost it
      const small = await tempDir();
      const at = await chainOf(small, 13, 10);
      const durable = new DurableHead(small);
      durable.set(12);
      durable.close();
      expect(readDurableHead(small)).toBe(12);
      expect(() => BlockAppender.open(small, at, undefined, { height: 10 })).toThrow(/the block writer recorded block 12 as durable .* and the block files hold 3 block\(s\) past the head/);
      // an empty database over stored blocks is refused the same way
      expect(() => BlockAppender.open(small, undefined, undefined, { height: -1 })).toThrow(/^the database is empty, but the block writer recorded block 12 as durable/);
    });
  });
});
