import { describe, expect, it } from 'vitest';
import { packCommitResult } from '../../src/core/core.js';
import { commitOutput } from './commit-output-fixture.js';
import { StateView } from '../../src/chain/state-view.js';
import { Indexer } from '../../src/chain/indexer.js';
import { IndexKeys } from '../../src/storage/keys.js';
import type { ChainStore, StateWrite } from '../../src/storage/chain-store.js';

// The holder and tokens-held index ops of executed blocks (spec §4.11 svc_getTokenHolders) against
// a reference model that knows every balance: blocks are executed ahead of durability (the StateView
// lags by 0–3 blocks, as on the live path), so the indexer must take the balance before each write
// from the blocks still in flight and the StateView from the rest.

const BALANCE = 0x02;
let seed = 11;
// the LCG's high bits: its low ones repeat with a short period (the keys' addresses would recur)
const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) >>> 7) % n;
const randomBytes = (n: number) => Uint8Array.from({ length: n }, () => rand(256));

function u128le(value: bigint): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  return out;
}

const bits = (value: bigint | undefined) => (value === undefined ? 0 : value.toString(2).length - (value === 0n ? 1 : 0));


describe('holder index ops against a model of every balance', () => {
  it('random blocks, executed up to three ahead of durable, packed and as objects', () => {
    const mints = [new Uint8Array(32), randomBytes(32)];
    const keys = Array.from({ length: 40 }, (_, i) => {
      const key = new Uint8Array(65);
      key[0] = BALANCE;
      key.set(randomBytes(32), 1);
      key.set(mints[i % 2]!, 33);
      return key;
    });
    expect(new Set(keys.map(hex)).size).toBe(keys.length);
    for (const packedPath of [true, false]) {
      const state = new StateView();
      const indexer = new Indexer({} as ChainStore, undefined, state);
      const model = new Map<number, bigint>();
      const inFlight: Array<{ height: number; writes: StateWrite[] }> = [];
      let changed = 0;
      for (let height = 1; height <= 300; height++) {
        // a block's writes: distinct keys in key order, as the core emits them, plus a non-balance record
        const picked = [...new Set(Array.from({ length: 1 + rand(12) }, () => rand(keys.length)))];
        const writes: StateWrite[] = [];
        const expected: string[] = [];
        for (const k of picked.sort((a, b) => Buffer.compare(keys[a]!, keys[b]!))) {
          const kind = rand(6);
          const next = kind === 0 ? undefined : kind === 1 ? 0n : BigInt(rand(2 ** 24)) << BigInt(rand(98));
          const before = bits(model.get(k));
          const after = bits(next);
          if (next === undefined) model.delete(k);
          else model.set(k, next);
          writes.push({ key: keys[k]!, value: next === undefined ? null : u128le(next) });
          if (before === after) continue;
          const key = keys[k]!;
          const [address, mint] = [key.subarray(1, 33), key.subarray(33, 65)];
          if (before > 0) expected.push(`del:${hex(IndexKeys.tokenHolder(mint, before, address))}`);
          if (after > 0) expected.push(`put:${hex(IndexKeys.tokenHolder(mint, after, address))}`);
          if ((before > 0) !== (after > 0)) expected.push(`${after > 0 ? 'put' : 'del'}:${hex(IndexKeys.tokensHeld(address, mint))}`);
        }
        writes.push({ key: Uint8Array.of(0x01, ...randomBytes(32)), value: randomBytes(8) });
        const ops = indexer.balanceIndexOps(height, packedPath ? packCommitResult(commitOutput(new Uint8Array(32), writes)).writes : writes);
        expect(ops.map((op) => `${op.type}:${hex(op.key)}`), `block ${height}`).toEqual(expected);
        changed += expected.length;
        inFlight.push({ height, writes });
        // some of the blocks in flight become durable: the StateView takes their writes
        while (inFlight.length > 3 || (inFlight.length > 0 && rand(3) === 0)) {
          const done = inFlight.shift()!;
          state.apply(done.writes);
          indexer.durable(done.height);
        }
      }
      expect(changed).toBeGreaterThan(500);
    }
  });
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
