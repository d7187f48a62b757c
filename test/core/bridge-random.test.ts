// Randomized differential test of the bridge (docs/bridge.md): the wasm core against the bigint
// reference, block by block (statuses, gas, fees, events, state roots), on sequences of deposits
// (valid, replayed, under-threshold, forged signers, bad fields), withdrawals (above the balance,
// of a token that did not come over the bridge), claims, pauses, mappings, safety levels and
// attester-set changes. Property: for every token the bridge touched, supply = deposits − withdrawals.
import { describe, it, expect } from 'vitest';
import { Status, statusName } from '../../src/core/status.js';
import { addr, hex } from '../../testkit/encode.js';
import { NTV, rng } from './harness.js';
import {
  Lockstep, attester, attestWithdrawalOp, attestersOp, bridgeGenesis, claimOp, depositOp, enc, FOUNDATION, GOVERNANCE, mappingOp, raw,
  safetyOp, withdrawOp,
} from './bridge-harness.js';

const N = 6;
const reached = new Map<number, number>();

async function run(seed: number, blocks: number) {
  const r = rng(seed);
  const l = await Lockstep.create((ref) => bridgeGenesis(ref, N));
  const usdc = l.ref.blake3(enc.encode('ethereum_USDC'));
  const eurc = l.ref.blake3(enc.encode('ethereum_EURC'));
  let set = [attester(1), attester(2), attester(3)];
  let threshold = 2;
  const txs: Array<{ chain: string; tx: string }> = [];
  const touched = new Map<string, Uint8Array>([[hex(usdc), usdc], [hex(eurc), eurc]]);
  let nextTx = 0;
  const assets = [
    { chain: 'ethereum', contract: '0xA0b8', symbol: 'USDC', decimals: 6 },
    { chain: 'solana', contract: 'EPjF', symbol: 'USDC', decimals: 6 },
    { chain: 'ethereum', contract: '0x1aBa', symbol: 'EURC', decimals: 6 },
    { chain: 'ethereum', contract: '0x6982', symbol: 'PEPE', decimals: 18 },
    { chain: 'base', contract: '0xbase', symbol: 'PEPE', decimals: 18 },
    { chain: 'bsc', contract: '0x8AC7', symbol: 'USDC', decimals: 18 },
    { chain: 'solana', contract: 'Wif1', symbol: 'WIF', decimals: 6 },
  ];
  for (let b = 0; b < blocks; b++) {
    const bundles = [];
    const used = new Set<string>();
    const nb = 1 + r.int(6);
    for (let i = 0; i < nb; i++) {
      const p = r.int(100);
      const who = addr(r.int(N));
      if (used.has(hex(who))) continue;
      used.add(hex(who));
      let op;
      if (p < 45) {
        const a = r.pick(assets);
        const replay = txs.length > 0 && r.chance(0.15);
        const t = replay ? r.pick(txs) : { chain: a.chain, tx: `0x${(nextTx++).toString(16)}` };
        if (!replay) txs.push(t);
        const signers = r.chance(0.85) ? set.slice(0, Math.max(threshold, 1 + r.int(set.length))) : r.pick([[set[0]!], [set[0]!, set[0]!], [attester(9), ...set]]);
        op = depositOp({
          chain: r.chance(0.03) ? 'mars' : t.chain, tx: t.tx, contract: a.contract, symbol: a.symbol,
          amount: r.chance(0.03) ? 0n : r.chance(0.02) ? (1n << 128n) - 1n : 1n + r.big(10n ** 12n), decimals: r.chance(0.05) ? 9 : a.decimals,
          recipient: r.chance(0.03) ? new Uint8Array(32) : addr(r.int(N)), signers,
        });
        for (const m of [usdc, eurc, l.ref.blake3(enc.encode(`${a.chain}_${a.symbol}`)), l.ref.blake3(enc.encode(`${a.chain}_${a.symbol}_${a.contract}`))]) touched.set(hex(m), m);
      } else if (p < 70) {
        const mint = r.pick([...touched.values(), NTV]);
        const have = l.balance(who, mint);
        op = withdrawOp(mint, have > 0n && r.chance(0.8) ? 1n + r.big(have) : 1n + r.big(10n ** 6n), r.pick(['ethereum', 'solana', 'base', 'mars']), r.chance(0.95) ? `0x${r.int(1000)}` : '');
      } else if (p < 78 && txs.length > 0) {
        const t = r.pick(txs);
        op = claimOp(t.chain, t.tx);
      } else if (p < 84) {
        const mint = r.pick([usdc, eurc]);
        op = raw(56, (w) => { w.raw(mint); w.u8(r.chance(0.5) ? 1 : 0); });
        bundles.push(l.bundle(GOVERNANCE, [op]));
        continue;
      } else if (p < 88) {
        const a = r.pick(assets);
        op = safetyOp(a.chain, a.contract, r.pick([0, 2, 3]));
        bundles.push(l.bundle(GOVERNANCE, [op]));
        continue;
      } else if (p < 92) {
        const a = r.pick(assets);
        op = mappingOp(a.chain, a.contract, r.pick([usdc, eurc, NTV]));
        bundles.push(l.bundle(r.chance(0.8) ? FOUNDATION : who, [op]));
        continue;
      } else if (p < 95) {
        const ns = [attester(1), attester(2), attester(3), attester(4)].filter(() => r.chance(0.7));
        const th = 1 + r.int(Math.max(ns.length, 1) + 1);
        op = attestersOp(ns, th);
        bundles.push(l.bundle(GOVERNANCE, [op]));
        if (ns.length > 0 && th <= ns.length) { set = ns; threshold = th; }
        continue;
      } else {
        op = attestWithdrawalOp(BigInt(1 + r.int(5)), 'ethereum', '0x1', usdc, 1n, set.slice(0, threshold));
      }
      bundles.push(l.bundle(who, [op]));
    }
    for (const st of l.block(bundles, r.chance(0.5) ? 0n : 1n)) reached.set(st, (reached.get(st) ?? 0) + 1);
    // the property, after every block
    for (const m of touched.values()) {
      const b = l.bridged(m);
      if (!b) continue;
      expect(l.supply(m), hex(m)).toBe(b.deposited - b.withdrawn);
    }
  }
}

describe('bridge random sequences against the reference', () => {
  it('ten seeds: statuses, events, roots agree; supply = deposits − withdrawals', async () => {
    for (let seed = 1; seed <= 10; seed++) await run(seed * 7919, 40);
    const names = [...reached.keys()].map(statusName);
    for (const s of [Status.OK, Status.BRIDGE_ALREADY_PROCESSED, Status.BRIDGE_BELOW_THRESHOLD, Status.BRIDGE_NOT_ATTESTER, Status.BRIDGE_DUPLICATE_SIGNER,
      Status.BRIDGE_UNKNOWN_CHAIN, Status.INSUFFICIENT_BALANCE, Status.BRIDGE_NOT_BRIDGED_TOKEN, Status.BRIDGE_DECIMALS_MISMATCH]) {
      expect(names, statusName(s)).toContain(statusName(s));
    }
  }, 240_000);
});
