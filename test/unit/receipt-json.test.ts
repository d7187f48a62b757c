// The receipt JSON of every event kind, pinned (docs/methods.md "Receipt"). Receipts are generated
// from abi/events.mjs (src/abi/events.ts receiptEventJson, with the named formats of
// src/chain/receipts.ts); this records one block holding events of every kind, with values at the
// edges (zero and all-ones bytes, u128 across 2^53 and 2^64, every name of each enum, the text
// rests), and fails when a receipt's bytes change: a renamed key, a moved one, another encoding.
// The fixture was recorded when the generated receipts replaced the hand-written ones and was
// then byte for byte what those gave. An intended change: UPDATE_RECEIPTS=1 and review the diff.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { receiptAt } from '../../src/chain/receipts.js';
import { BlockResultView } from '../../src/core/block-result.js';
import { BUNDLE_LEVEL_OP } from '../../src/core/events.js';
import type { BlockHeader } from '../../src/chain/block.js';
import { openLocalChain, type LocalChain } from '../../testkit/local-chain.js';
import { encodeBlockResult, type ResultEvent } from './block-result-fixture.js';

type Hint = { enum?: string; as?: string; strings?: string[] };
type Row = { name: string; code: number; fields: Array<[string, string, Hint?]> };
const { events: table, eventEnums } = (await import(join(import.meta.dirname, '../../abi/events.mjs'))) as { events: Row[]; eventEnums: Record<string, string[]> };

const FIXTURE = join(import.meta.dirname, 'fixtures/receipt-events.json');
const SIZES: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16 };
const AMOUNTS = [0n, 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 128n - 1n];

let seed = 5;
const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) >>> 7) % n;
const le = (v: bigint, n: number) => Array.from({ length: n }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));

/** The data of one event of `row`, its `variant`-th: enums cycle through their names, amounts through AMOUNTS. */
function eventData(row: Row, variant: number, values32: Uint8Array[]): Uint8Array {
  const out: number[] = [];
  for (const [, t, h = {}] of row.fields) {
    if (t === 'bytes32') out.push(...values32[(variant + out.length) % values32.length]!);
    else if (t === 'u128') out.push(...le(AMOUNTS[(variant + out.length) % AMOUNTS.length]!, 16));
    else if (t === 'u8') out.push(h.enum ? variant % eventEnums[h.enum]!.length : h.as === 'bool' ? variant % 2 : (variant * 3) % 13);
    else if (t === 'entries') {
      out.push(...le(BigInt(1 + (variant % 3)), 4));
      for (let k = 0; k <= variant % 3; k++) out.push(...le(BigInt(k * 1000 + variant), 8), ...le(AMOUNTS[k + variant % 4]!, 16));
    } else if (t === 'rest' && h.as === 'strings') {
      for (const s of h.strings!) {
        const b = Buffer.from(variant % 2 ? `${s} é` : '');
        out.push(...le(BigInt(b.length), 4), ...b);
      }
    } else if (t === 'rest') out.push(...Buffer.from(`name-${variant}.v1`));
    else out.push(...le(BigInt(variant * 977 + rand(50)) << BigInt(SIZES[t]! > 2 ? 20 : 0), SIZES[t]!));
  }
  return Uint8Array.from(out);
}

describe('receipt JSON of every event kind', () => {
  let local: LocalChain;
  afterAll(() => local?.close());

  it('gives the recorded bytes', async () => {
    local = await openLocalChain({});
    const tokens = local.chain.tokens;
    const ntv = tokens.resolve('NTV')!.mint;
    const system = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 3 : 0));
    const values32 = [ntv, new Uint8Array(32), new Uint8Array(32).fill(0xff), system, Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1)];
    const rows = table;
    const events: ResultEvent[] = [];
    let bundle = 0;
    for (const row of rows) {
      for (let variant = 0; variant < 4; variant++) events.push({ bundle, op: variant === 3 ? BUNDLE_LEVEL_OP : variant, kind: row.code, data: eventData(row, variant, values32) });
      bundle++;
    }
    const result = new BlockResultView(encodeBlockResult(Array.from({ length: bundle }, () => ({ status: 0, gas: 21_000, fee: 5n, nonce: 1n })), events));
    const header = { height: 9, hash: new Uint8Array(32).fill(9), timestamp: 1_700_000_000 } as unknown as BlockHeader;
    const got: Record<string, unknown[]> = {};
    for (let i = 0; i < bundle; i++) got[rows[i]!.name] = receiptAt(header, new Uint8Array(200).fill(1), new Uint8Array(32), i, result, tokens).events;
    for (const row of rows) expect(got[row.name], row.name).toHaveLength(4);
    const text = JSON.stringify(got, null, 1) + '\n';
    if (process.env.UPDATE_RECEIPTS === '1' || !existsSync(FIXTURE)) {
      mkdirSync(dirname(FIXTURE), { recursive: true });
      writeFileSync(FIXTURE, text);
    }
    const want = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown[]>;
    expect(Object.keys(got)).toEqual(Object.keys(want));
    for (const row of rows) expect(JSON.stringify(got[row.name]), row.name).toBe(JSON.stringify(want[row.name]));
  });
});
