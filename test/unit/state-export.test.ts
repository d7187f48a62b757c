// The state export file's versions (src/storage/state-export.ts, docs/operations.md "Export and
// import"): version 3 may carry bucket slices (0xF3); version 2 carries the state tree's group records
// (0xF2) and whole buckets; version 1, written before group records existed, is still read, with the
// group records it lacks computed by the reader.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/core/core.js';
import { EXPORT_MAGIC, ExportFormatError, readStateExport } from '../../src/storage/state-export.js';
import { balanceKey } from '../../src/core/records.js';
import { blake3, initHashing } from '../../src/codec/hash.js';
import { addr } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig } from '../core/harness.js';

const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };

/** An export file of `version` holding `records` (sorted by key), with placeholder head sections. */
function exportBytes(version: number, records: Array<[Buffer, Uint8Array]>, stateRoot: string): Buffer {
  const manifest = Buffer.from(JSON.stringify({ format: 'ntv-state-export', version, chainId: 1, height: 1, blockHash: '00'.repeat(32), stateRoot, nodeVersion: 't', createdAt: 't' }));
  const parts: Buffer[] = [Buffer.from(EXPORT_MAGIC, 'latin1'), Buffer.of(version)];
  for (const section of [manifest, Buffer.of(1), Buffer.alloc(0), Buffer.alloc(0), Buffer.of(2)]) parts.push(u32(section.length), section);
  for (const [key, value] of records) {
    const lengths = Buffer.alloc(6);
    lengths.writeUInt16BE(key.length, 0);
    lengths.writeUInt32BE(value.length, 2);
    parts.push(lengths, key, Buffer.from(value));
  }
  const end = Buffer.alloc(10);
  end.writeBigUInt64BE(BigInt(records.length), 2);
  parts.push(end);
  const body = Buffer.concat(parts);
  return zstdCompressSync(Buffer.concat([body, createHash('sha256').update(body).digest()]));
}

describe('state export versions', () => {
  let dir: string;
  let records: Array<[Buffer, Uint8Array]>;
  let root: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ntv-export-'));
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisConfig(300));
    const c = core.commitBlock();
    store.apply(c.writes);
    root = Buffer.from(c.stateRoot).toString('hex');
    records = [...store.map.entries()].map(([k, v]) => [Buffer.from(k, 'hex'), v] as [Buffer, Uint8Array]).sort((a, b) => Buffer.compare(a[0], b[0]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const read = async (bytes: Buffer) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.ntvx`);
    await writeFile(path, bytes);
    const got = new Map<string, string>();
    await readStateExport(path, {
      onHead: () => {},
      onRecords: (batch) => { for (const [k, v] of batch) got.set(Buffer.from(k).toString('hex'), Buffer.from(v).toString('hex')); },
    });
    return got;
  };
  const withoutGroups = () => records.filter(([k]) => k[0] !== 0xf2);

  it('reads version 3 with bucket slices as written, and checks them against the root', async () => {
    // a bucket of 24 entries: every NTV balance key of the genesis falls in one bucket by choice
    await initHashing();
    const inBucket: number[] = [];
    const first = blake3(balanceKey(addr(20_000), NTV));
    for (let i = 20_000; inBucket.length < 24; i++) {
      const p = blake3(balanceKey(addr(i), NTV));
      if (p[0] === first[0] && p[1] === first[1]) inBucket.push(i);
    }
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis({ ...genesisConfig(0, 1), balances: inBucket.map((i) => ({ account: addr(i), mint: NTV, amount: 10n ** 12n })) });
    const c = core.commitBlock();
    store.apply(c.writes);
    const sliced = [...store.map.entries()].map(([k, v]) => [Buffer.from(k, 'hex'), v] as [Buffer, Uint8Array]).sort((a, b) => Buffer.compare(a[0], b[0]));
    expect(sliced.some(([k]) => k[0] === 0xf3)).toBe(true);
    const slicedRoot = Buffer.from(c.stateRoot).toString('hex');
    const got = await read(exportBytes(3, sliced, slicedRoot));
    expect(got.size).toBe(sliced.length);
    // a slice altered: the sweep recomputes the root from the records and names the disagreement
    const altered = sliced.map(([k, v]) => [k, k[0] === 0xf3 ? Uint8Array.from(v, (x, j) => (j === 40 ? x ^ 1 : x)) : v] as [Buffer, Uint8Array]);
    await expect(read(exportBytes(3, altered, slicedRoot))).rejects.toThrow(ExportFormatError);
  });

  it('reads version 2 with its group records as written', async () => {
    expect(records.some(([k]) => k[0] === 0xf2)).toBe(true);
    const got = await read(exportBytes(2, records, root));
    expect(got.size).toBe(records.length);
  });

  it('reads version 1 (no group records) and hands over the group records it computed, equal to the core\'s', async () => {
    const got = await read(exportBytes(1, withoutGroups(), root));
    expect(got.size).toBe(records.length);
    for (const [k, v] of records) expect(got.get(k.toString('hex')), k.toString('hex')).toBe(Buffer.from(v).toString('hex'));
  });

  it('refuses a version 2 file missing its group records, naming them', async () => {
    const error = await read(exportBytes(2, withoutGroups(), root)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportFormatError);
    expect((error as ExportFormatError).message).toMatch(/records disagree with the state-root tree/);
    expect(JSON.stringify((error as ExportFormatError).anomalies ?? [])).toMatch(/state-root group \d+ is missing/);
  });

  it('refuses an unknown version with the versions it reads', async () => {
    await expect(read(exportBytes(4, records, root))).rejects.toThrow(/version 4, this node reads versions 1 to 3/);
  });
});
