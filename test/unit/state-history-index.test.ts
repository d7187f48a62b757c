import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_MINT } from '../../src/codec/address.js';
import { accountKey, balanceKey } from '../../src/core/records.js';
import type { ProducedBlock } from '../../src/chain/producer.js';
import { putChangeSet } from '../../src/storage/block-batch.js';
import { changeSetKey, historyKey, Prefix, STATE_HISTORY_INDEXED, u64 } from '../../src/storage/keys.js';
import { verifyStore } from '../../src/storage/integrity.js';
import { ChangeSetCursor, changeSetKeyList, changeSetKeys, changeSetProblem, encodeChangeSet, historyAt, indexChangeSet, RecentChangeSets } from '../../src/storage/state-history.js';
import { identity, openLocalChain, produceTransferBlocks, type LocalChain } from '../../testkit/local-chain.js';

// The lagging state history index (docs/storage.md "State history"): a block's batch holds its
// change set as one record; the writer thread builds the per-key index from it behind the head,
// with a marker of the height indexed. A read at a height the index has not reached answers from
// the change sets, a restart resumes the index, and a kill between a block's batch and its index's
// loses nothing.

type Db = Level<Uint8Array, Uint8Array>;
const dirs: string[] = [];
const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const hex = (value: Uint8Array | undefined) => value && Buffer.from(value).toString('hex');

/** A change set as `ChangeSetRecorder.record` packs it: per write, the key and the value before (null: absent). */
function packed(changes: Array<[string, string | null]>): { bytes: Uint8Array; lengths: Int32Array } {
  const parts: Uint8Array[] = [];
  const lengths = new Int32Array(changes.length * 2);
  changes.forEach(([key, before], i) => {
    parts.push(bytes(key));
    lengths[2 * i] = key.length;
    lengths[2 * i + 1] = before === null ? -1 : before.length;
    if (before !== null) parts.push(bytes(before));
  });
  return { bytes: new Uint8Array(Buffer.concat(parts)), lengths };
}

// Blocks 1–4 writing keys A and B; the state at each height, and the change set each block wrote.
const CHANGES: Array<Array<[string, string | null]>> = [
  [],
  [['A', null], ['B', null]], // block 1 creates both: a1, b1
  [['A', 'a1']], // block 2: a2
  [['B', 'b1'], ['C', null]], // block 3: b3, c3
  [['A', 'a2']], // block 4: a4
];
const AT: Record<string, Array<string | undefined>> = {
  A: [undefined, 'a1', 'a2', 'a2', 'a4'],
  B: [undefined, 'b1', 'b1', 'b3', 'b3'],
  C: [undefined, undefined, undefined, 'c3', 'c3'],
};
const HEAD = 4;

async function chainDb(): Promise<Db> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-history-index-'));
  dirs.push(dir);
  const db = new Level<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  const batch = db.batch();
  for (let h = 1; h <= HEAD; h++) putChangeSet(batch, h, packed(CHANGES[h]!));
  await batch.write();
  return db;
}

/** What `historyAt` answers for every key and height, resolved against the current (head) values as the chain does. */
async function answers(db: Db): Promise<Record<string, Array<string | undefined>>> {
  const recent = new RecentChangeSets();
  const out: Record<string, Array<string | undefined>> = {};
  for (const key of Object.keys(AT)) {
    out[key] = [];
    for (let h = 0; h < HEAD; h++) {
      const read = await historyAt(db, bytes(key), h, HEAD, recent);
      out[key]!.push(read.changed ? read.value && Buffer.from(read.value).toString() : AT[key]![HEAD]);
    }
  }
  return out;
}

const expected = Object.fromEntries(Object.entries(AT).map(([k, v]) => [k, v.slice(0, HEAD)]));

describe('state history index', () => {
  it('a change set record holds every key and its value before the block, and the integrity check knows its layout', () => {
    const record = encodeChangeSet(packed(CHANGES[3]!));
    expect(changeSetKeys(record).map((k) => Buffer.from(k).toString())).toEqual(['B', 'C']);
    expect(changeSetProblem(record)).toBeUndefined();
    // The recorder's form for packed writes: previous values only, the keys read from the block's
    // own writes (each followed there by its new value): the same record.
    const state = packed([['B', 'b3'], ['C', 'c3']]);
    const valuesOnly = { bytes: bytes('b1'), lengths: Int32Array.of(1, 2, 1, -1), valuesOnly: true };
    expect(hex(encodeChangeSet(valuesOnly, state))).toBe(hex(record));
    expect(() => encodeChangeSet(valuesOnly, packed([['B', 'b3']]))).toThrow(/for a block of 1/);
    expect(changeSetProblem(record.subarray(0, record.length - 1))).toMatch(/whose writes take/);
    expect(changeSetProblem(record.subarray(0, 7))).toMatch(/naming 2 writes/);
    // the earlier form, a key list, still reads for pruning
    const list = Uint8Array.of(0, 1, 0x41, 0, 2, 0x42, 0x43);
    expect(changeSetKeys(list).map((k) => Buffer.from(k).toString())).toEqual(['A', 'BC']);
    expect(changeSetProblem(list)).toBeUndefined();
    expect(changeSetProblem(list.subarray(0, 6))).toMatch(/key list/);
  });

  it('a read at a height the index has not reached answers from the change sets, whatever the marker and a block half indexed', async () => {
    const db = await chainDb();
    try {
      // nothing indexed, then each block in turn, then block 3 half indexed with the marker at 2
      for (let indexed = 0; indexed <= HEAD; indexed++) {
        if (indexed > 0) {
          const batch = db.batch();
          indexChangeSet(batch, indexed, encodeChangeSet(packed(CHANGES[indexed]!)));
          batch.put(STATE_HISTORY_INDEXED, u64(indexed));
          await batch.write();
        } else await db.put(STATE_HISTORY_INDEXED, u64(0));
        expect(await answers(db), `indexed to ${indexed}`).toEqual(expected);
      }
      const half = await chainDb();
      try {
        const batch = half.batch();
        for (const h of [1, 2]) indexChangeSet(batch, h, encodeChangeSet(packed(CHANGES[h]!)));
        const cursor = new ChangeSetCursor(3, encodeChangeSet(packed(CHANGES[3]!)));
        expect(cursor.indexInto(batch, 1)).toBe(1);
        expect(cursor.done).toBe(false);
        batch.put(STATE_HISTORY_INDEXED, u64(2));
        await batch.write();
        expect(await answers(half)).toEqual(expected);
      } finally {
        await half.close();
      }
    } finally {
      await db.close();
    }
  });

  it('a read whose marker went stale while the index finished a block (its change set cut to keys) reads again', async () => {
    const db = await chainDb();
    try {
      const batch = db.batch();
      for (const h of [1, 2, 3]) {
        const record = encodeChangeSet(packed(CHANGES[h]!));
        indexChangeSet(batch, h, record);
        batch.put(changeSetKey(h), changeSetKeyList(record));
      }
      batch.put(STATE_HISTORY_INDEXED, u64(3));
      await batch.write();
      // the first marker read answers 1, as before the index step finished blocks 2 and 3
      let stale = true;
      const view = {
        get: async (key: Uint8Array) => {
          if (stale && Buffer.compare(Buffer.from(key), Buffer.from(STATE_HISTORY_INDEXED)) === 0) {
            stale = false;
            return u64(1);
          }
          return db.get(key);
        },
        iterator: (options: object) => db.iterator(options),
      } as unknown as Db;
      const read = await historyAt(view, bytes('B'), 1, HEAD, new RecentChangeSets());
      expect(stale).toBe(false);
      expect(read.changed && read.value && Buffer.from(read.value).toString()).toBe('b1');
      expect(changeSetKeys((await db.get(changeSetKey(3)))!).map((k) => Buffer.from(k).toString())).toEqual(['B', 'C']);
    } finally {
      await db.close();
    }
  });

  it('heights without a change set (a chain written without history, below a restore) are passed over', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 10, stateHistory: false });
    opened.push(local);
    await produceTransferBlocks(local, 6, 10);
    const head = local.chain.height;
    await waitFor(async () => (await local.store.stateHistoryIndexed()) === head);
    expect((await local.store.stateHistoryBytes()).records).toBe(0);
  }, 60_000);

  it('a kill between blocks\' batches and their index\'s: the restart resumes the index, the same records, and reads stay right throughout', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 20 });
    opened.push(local);
    const { chain, state, dataDir } = local;
    const senders = [1, 2, 3, 4].map((i) => { const a = new Uint8Array(32); a[31] = i; return a; });
    const keys = senders.flatMap((a) => [balanceKey(a, NATIVE_MINT), accountKey(a)]);
    const seen = new Map<number, Array<string | undefined>>();
    const record = (height: number) => seen.set(height, keys.map((k) => hex(state.get(k))));
    record(0);
    chain.on('block', (produced: ProducedBlock) => record(produced.block.header.height));
    await produceTransferBlocks(local, 24, 20);
    const head = chain.height;
    await waitFor(async () => (await local.store.stateHistoryIndexed()) === head);
    await local.closeKeep();
    opened.pop();

    // The kill: the index batches of the last 10 blocks never landed (their blocks' batches did):
    // their change sets as the blocks' batches wrote them (keys and previous values, rebuilt from
    // the index records), and no index records nor key lists for them.
    const db = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    const before = await historyRecords(db);
    const rolledBack = head - 10;
    const batch = db.batch();
    let dropped = 0;
    for (let h = rolledBack + 1; h <= head; h++) {
      const list = await db.get(changeSetKey(h));
      if (list === undefined) continue;
      const keysOfBlock = changeSetKeys(list);
      const parts: Uint8Array[] = [];
      const lengths = new Int32Array(keysOfBlock.length * 2);
      for (let i = 0; i < keysOfBlock.length; i++) {
        const key = keysOfBlock[i]!;
        const hk = historyKey(key, h);
        const value = (await db.get(hk))!;
        batch.del(hk);
        dropped++;
        parts.push(key);
        lengths[2 * i] = key.length;
        lengths[2 * i + 1] = value[0] === 0 ? -1 : value.length - 1;
        if (value[0] !== 0) parts.push(value.subarray(1));
      }
      batch.put(changeSetKey(h), encodeChangeSet({ bytes: new Uint8Array(Buffer.concat(parts)), lengths }));
    }
    batch.put(STATE_HISTORY_INDEXED, u64(rolledBack));
    await batch.write();
    await db.close();
    expect(dropped).toBeGreaterThan(0);

    const again = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 20, dataDir });
    opened.push(again);
    expect(again.chain.height).toBe(head);
    // Read while the index is rebuilt (above its marker from the change sets), then once it is done.
    const readAll = async () => {
      for (let height = 0; height < head; height++) {
        const got = await again.chain.stateAt(height, (s) => keys.map((k) => hex(s.get(k))));
        expect(got, `state at ${height}`).toEqual(seen.get(height));
      }
    };
    await readAll();
    await waitFor(async () => (await again.store.stateHistoryIndexed()) === head);
    await readAll();
    expect((await verifyStore(again.store)).anomalies).toEqual([]);
    await again.closeKeep();
    const reopened = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    await reopened.open();
    try {
      expect(await historyRecords(reopened)).toEqual(before);
      // every indexed block's change set is cut to its keys: history held once
      for await (const [, value] of reopened.iterator({ gte: changeSetKey(1), lte: changeSetKey(head) })) expect(value[0]).not.toBe(0xff);
    } finally {
      await reopened.close();
    }
    opened.pop();
    await rm(dataDir, { recursive: true, force: true });
  }, 120_000);
});

/** Every 'u' record, as hex key → hex value. */
async function historyRecords(db: Db): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for await (const [key, value] of db.iterator({ gte: Uint8Array.of(Prefix.History), lt: Uint8Array.of(Prefix.History + 1) })) out.push([hex(key)!, hex(value)!]);
  return out;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting for the state history index');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
