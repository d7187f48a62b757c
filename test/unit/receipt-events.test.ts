import { afterAll, describe, expect, it } from 'vitest';
import { receiptAt } from '../../src/chain/receipts.js';
import { BlockResultView } from '../../src/core/block-result.js';
import { BUNDLE_LEVEL_OP, EventKind, type CoreEvent } from '../../src/core/events.js';
import { EV_FEE_BYTES, EV_TRANSFER_BYTES } from '../../src/abi/constants.js';
import { encodeAccount, encodeMint } from '../../src/codec/address.js';
import { openLocalChain, type LocalChain } from '../../testkit/local-chain.js';
import type { BlockHeader } from '../../src/chain/block.js';
import { encodeBlockResult, type ResultEvent } from './block-result-fixture.js';

// Receipts format Transfer and Fee events straight from the result's bytes (src/abi/events.ts
// receiptEventJsonAt, generated). The JSON must be byte for byte what the decoded events give: same fields, same
// order, amounts across the 2^53 and 2^64 boundaries, system accounts in their 0x form, a symbol
// only for a token the registry knows.

let seed = 3;
const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) >>> 7) % n;
const AMOUNTS = [0n, 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 128n - 1n, 123_456_789n];

function u128le(out: Uint8Array, at: number, value: bigint): void {
  for (let i = 0; i < 16; i++) out[at + i] = Number((value >> BigInt(8 * i)) & 0xffn);
}

function account(pool: Uint8Array[]): Uint8Array {
  return pool[rand(pool.length)]!;
}

const amount = () => (rand(3) === 0 ? AMOUNTS[rand(AMOUNTS.length)]! : BigInt(rand(2 ** 24)) << BigInt(rand(100)));

/** What `formatEvent` makes of a decoded Transfer or Fee (docs/methods.md "Receipt"). */
function expected(e: CoreEvent, symbolOf: (mint: Uint8Array) => string | undefined): unknown {
  const op_index = e.opIndex === BUNDLE_LEVEL_OP ? null : e.opIndex;
  if (e.kind === 'Transfer') {
    const symbol = symbolOf(e.token);
    return { type: 'Transfer', op_index, from: encodeAccount(e.from), to: encodeAccount(e.to), token: encodeMint(e.token), ...(symbol ? { symbol } : {}), amount: e.amount.toString() };
  }
  if (e.kind === 'Fee') {
    return { type: 'Fee', op_index, payer: encodeAccount(e.payer), proposer: encodeAccount(e.proposer), to_proposer: e.toProposer.toString(), treasury: encodeAccount(e.treasury), to_treasury: e.toTreasury.toString() };
  }
  throw new Error(`not a Transfer or Fee: ${e.kind}`);
}

describe('receipt events formatted in place', () => {
  let local: LocalChain;
  afterAll(() => local?.close());

  it('give the JSON the decoded events give, on random blocks', async () => {
    local = await openLocalChain({});
    const tokens = local.chain.tokens;
    const ntv = tokens.resolve('NTV')!;
    const system = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
    const accounts = [system, new Uint8Array(32).fill(0xff), ...Array.from({ length: 20 }, () => Uint8Array.from({ length: 32 }, () => rand(256)))];
    const mints = [ntv.mint, Uint8Array.from({ length: 32 }, () => rand(256))];
    const header = { height: 7, hash: new Uint8Array(32).fill(7), timestamp: 1_700_000_000 } as unknown as BlockHeader;
    let checked = 0;
    for (let block = 0; block < 40; block++) {
      const bundles = 1 + rand(20);
      const events: ResultEvent[] = [];
      for (let b = 0; b < bundles; b++) {
        for (let k = rand(4); k > 0; k--) {
          const data = new Uint8Array(EV_TRANSFER_BYTES);
          data.set(account(accounts), 0);
          data.set(account(accounts), 32);
          data.set(mints[rand(2)]!, 64);
          u128le(data, 96, amount());
          events.push({ bundle: b, op: rand(5), kind: EventKind.Transfer, data });
        }
        const fee = new Uint8Array(EV_FEE_BYTES);
        fee.set(account(accounts), 0);
        fee.set(account(accounts), 32);
        u128le(fee, 64, amount());
        fee.set(account(accounts), 80);
        u128le(fee, 112, amount());
        events.push({ bundle: b, op: BUNDLE_LEVEL_OP, kind: EventKind.Fee, data: fee });
      }
      const result = new BlockResultView(encodeBlockResult(
        Array.from({ length: bundles }, () => ({ status: 0, gas: 21_000, fee: 5n, nonce: 1n })), events));
      for (let i = 0; i < bundles; i++) {
        const receipt = receiptAt(header, new Uint8Array(200).fill(i + 1), new Uint8Array(32).fill(i), i, result, tokens);
        const want = result.eventsOf(i).map((e) => expected(e, (mint) => tokens.byMintBytes(mint)?.symbol));
        expect(JSON.stringify(receipt.events)).toBe(JSON.stringify(want));
        checked += want.length;
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(tokens.byMintBytes(ntv.mint)?.symbol).toBe('NTV');
  });
});
