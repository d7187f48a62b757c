import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainStore, type BlockWrite } from '../../src/storage/chain-store.js';
import { encodeBlockResult } from './block-result-fixture.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function store(): Promise<ChainStore> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-store-'));
  dirs.push(dir);
  const s = new ChainStore(join(dir, 'db'));
  await s.open();
  return s;
}

function write(height: number, hashes: Uint8Array[], outcome?: Uint8Array): BlockWrite {
  return { height, hash: new Uint8Array(32).fill(height), block: Uint8Array.of(height), bundleHashes: hashes, state: [], ...(outcome ? { outcome } : {}) };
}

describe('ChainStore', () => {
  it('stores each bundle\'s position and the block\'s execution result with the block', async () => {
    const s = await store();
    const a = new Uint8Array(32).fill(0xaa);
    const b = new Uint8Array(32).fill(0xbb);
    await s.commitBlock(write(0, []));
    const one = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    const two = encodeBlockResult([{ status: 0, gas: 4, fee: 5n, nonce: 6n }, { status: 20, gas: 7, fee: 8n, nonce: 9n }], []);
    await s.commitBlocks([write(1, [a], one), write(2_000_000_000_000, [new Uint8Array(32), b], two)]);
    expect(await s.getPositions([b, a, new Uint8Array(32).fill(1)])).toEqual([{ height: 2_000_000_000_000, index: 1 }, { height: 1, index: 0 }, undefined]);
    expect((await s.getOutcomes([1, 2_000_000_000_000, 3])).map((o) => o && Buffer.from(o))).toEqual([Buffer.from(one), Buffer.from(two), undefined]);
    await s.close();
  });

  it('finds every bundle of a group of full blocks (position records are written in key order)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const blocks = [1, 2, 3].map((height) => Array.from({ length: 1_500 }, () => randomBytes(32)));
    await s.commitBlocks(blocks.map((hashes, i) => write(i + 1, hashes)));
    const positions = await s.getPositions(blocks.flat());
    expect(positions).toEqual(blocks.flatMap((hashes, b) => hashes.map((_, index) => ({ height: b + 1, index }))));
    expect(await s.head()).toBe(3);
    await s.close();
  });

  it('refuses a write the batch cannot take, keeps its head, and writes again after a reopen', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const broken = { ...write(1, []), state: [{ key: Uint8Array.of(1), value: undefined as unknown as Uint8Array }] };
    await expect(s.commitBlock(broken)).rejects.toThrow(/block write failed/);
    expect(await s.head()).toBe(0);
    await s.close();
    await s.open();
    await s.commitBlock(write(1, [new Uint8Array(32).fill(7)]));
    expect(await s.head()).toBe(1);
    expect(await s.getPositions([new Uint8Array(32).fill(7)])).toEqual([{ height: 1, index: 0 }]);
    await s.close();
  });

  it('lands blocks handed over one by one in order, several to a synced batch while catching up', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const hashes = Array.from({ length: 30 }, () => randomBytes(32));
    const before = s.writeStats;
    const landed: number[] = [];
    await Promise.all(hashes.map((hash, i) => s.commitBlocks([write(i + 1, [hash])], { linger: true }).then(() => landed.push(i + 1))));
    expect(landed).toEqual(hashes.map((_, i) => i + 1));
    expect(await s.head()).toBe(30);
    const stats = s.writeStats;
    expect(stats.blocks - before.blocks).toBe(30);
    expect(stats.groups - before.groups).toBeLessThan(30);
    expect(await s.getPositions(hashes)).toEqual(hashes.map((_, i) => ({ height: i + 1, index: 0 })));
    await s.close();
  });

  it('writes nothing after a failed block: storage keeps the blocks before it', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const broken = { ...write(2, []), state: [{ key: Uint8Array.of(1), value: undefined as unknown as Uint8Array }] };
    const results = await Promise.allSettled([s.commitBlock(write(1, [])), s.commitBlock(broken), s.commitBlock(write(3, []))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/an earlier write failed/);
    expect(await s.head()).toBe(1);
    await s.close();
  });

  it('leaves the caller\'s arrays usable: the writer gets copies (a pooled Buffer view is not detached)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const frame = Buffer.from('xxblock bytesyy');
    const block = frame.subarray(2, 13);
    const outcome = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    await s.commitBlock({ ...write(1, [new Uint8Array(32).fill(9)], outcome), block });
    expect(frame.toString()).toBe('xxblock bytesyy');
    expect(outcome.byteLength).toBeGreaterThan(0);
    expect(Buffer.from((await s.getBlock(1))!).toString()).toBe('block bytes');
    expect(Buffer.from((await s.getOutcomes([1]))[0]!)).toEqual(Buffer.from(outcome));
    await s.close();
  });

  it('refuses a database of another storage format, and reopens its own', async () => {
    const own = await store();
    await own.commitBlock(write(0, []));
    await own.close();
    await own.open();
    expect(await own.head()).toBe(0);
    await own.close();

    // A database with blocks but no format marker: written by a node that stored receipt JSON.
    const old = await store();
    await old.commitBlock(write(3, []));
    await old.close();
    await expect(old.open()).rejects.toThrow(/storage format 1, this node reads format 2/);
  });
});
