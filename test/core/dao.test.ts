// DAOs in the core (CreateDao 85, DaoPropose 86, DaoVote 87, DaoExecute 88, DaoCancel 89, DaoUnlock
// 90; docs/dao.md), run in lockstep with the bigint reference (testkit/reference.ts):
// every block's statuses, events and state root must agree. A DAO whose treasury pays after a passed
// vote and its execution delay; a vote that cannot be doubled by moving the locked tokens; borrowed
// tokens (an allowance) that carry no weight; every refusal changing nothing.
import { describe, expect, it } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { balanceKey } from '../../src/core/records.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status } from '../../src/core/status.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, encodeOps, addr, hex, type Op, W } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf } from './harness.js';

const VOTE = mintOf(60);
let seq = 0; // distinct bundle bytes, so a retried failure is not ALREADY_INCLUDED
const raw = (disc: number, f: (w: W) => void): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
const createDao = (mint: Uint8Array, quorum = 2000, threshold = 5000, period = 5n, delay = 2n, pt = 100n, name = 'Grants') =>
  raw(85, (w) => { w.str(name); w.raw(mint); w.u16(quorum); w.u16(threshold); w.u64(period); w.u64(delay); w.u128(pt); });
const propose = (dao: Uint8Array, ops: Op[] | null, title = 'Pay') => raw(86, (w) => { w.raw(dao); w.str(title); w.str('why'); if (ops) { w.u8(1); encodeOps(w, ops); } else w.u8(0); });
const voteOp = (dao: Uint8Array, id: bigint, yes: boolean) => raw(87, (w) => { w.raw(dao); w.u64(id); w.u8(yes ? 1 : 0); });
const idOp = (disc: number) => (dao: Uint8Array, id: bigint) => raw(disc, (w) => { w.raw(dao); w.u64(id); });
const [execute, cancel, unlock] = [idOp(88), idOp(89), idOp(90)];
const pay = (to: Uint8Array, token: Uint8Array, amount: bigint): Op => ({ kind: 'transfer', to, token, amount });

async function lockstep() {
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  const genesis = {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [] as string[],
    tokens: [{ mint: NTV, name: 'N', symbol: 'NTV', decimals: 9, kind: 0, creator: addr(999) }, { mint: VOTE, name: 'Votes', symbol: 'VOTE', decimals: 0, kind: 1, creator: addr(999) }],
    balances: [...[0, 1, 2, 3, 4, 5].map((i) => ({ account: addr(i), mint: NTV, amount: 10n ** 12n })),
      ...[1000n, 2000n, 3000n, 4000n].map((amount, i) => ({ account: addr(i), mint: VOTE, amount }))],
  };
  core.genesis(genesis);
  ref.genesis(genesis);
  store.apply(core.commitBlock().writes);
  ref.commitBlock();
  const nonces = new Map<string, bigint>();
  let height = 0n;
  const block = (bundles: Array<[Uint8Array, Op]>) => {
    height += 1n;
    const ctx = { height, timestamp: 1_700_000_000n + height, proposer: addr(50), gasPrice: 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n };
    const inputs: BundleInput[] = bundles.map(([u, op]) => {
      const n = nonces.get(hex(u)) ?? 0n;
      return { bytes: encodeBundle({ user: u, ops: [op], nonce: n, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: (1n << 62n) + BigInt(seq++) }), auth: 0 };
    });
    const got = core.applyBlock(ctx, inputs);
    const want = ref.applyBlock(ctx, inputs);
    expect(got.results).toEqual(want.results);
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    const c = core.commitBlock();
    expect(hex(c.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
    store.apply(c.writes);
    // a failed bundle keeps its nonce (docs/core-abi.md "Failed bundles: fee and replay")
    got.results.forEach((x, i) => { if (x.status === 0) nonces.set(hex(bundles[i]![0]), (nonces.get(hex(bundles[i]![0])) ?? 0n) + 1n); });
    return { statuses: got.results.map((x) => x.status), events: want.events };
  };
  const one = (u: Uint8Array, op: Op) => block([[u, op]]).statuses[0];
  const bal = (a: Uint8Array, m: Uint8Array) => { const v = store.get(balanceKey(a, m)); return v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) : 0n; };
  const until = (h: bigint) => { while (height < h) block([]); };
  return { ref, store, block, one, bal, until, get height() { return height; } };
}

describe('DAOs in the core (lockstep with the reference)', () => {
  it('a passed vote spends from the treasury after the delay; refusals in their order change nothing', async () => {
    const t = await lockstep();
    expect(t.one(addr(0), createDao(NTV))).toBe(Status.INVALID_DAO_CONFIG); // NTV cannot be a DAO token
    expect(t.one(addr(0), createDao(VOTE, 0))).toBe(Status.INVALID_DAO_CONFIG);
    expect(t.one(addr(0), createDao(VOTE, 2000, 4999))).toBe(Status.INVALID_DAO_CONFIG);
    expect(t.one(addr(0), createDao(VOTE, 2000, 5000, 0n))).toBe(Status.INVALID_DAO_CONFIG);
    expect(t.one(addr(0), createDao(VOTE, 2000, 5000, 5n, 2n, 100n, ''))).toBe(Status.INVALID_DAO_CONFIG);
    expect(t.one(addr(0), createDao(mintOf(77)))).toBe(Status.UNKNOWN_TOKEN);
    const created = t.block([[addr(0), createDao(VOTE, 2000, 5000, 20n)]]);
    expect(created.statuses[0]).toBe(0);
    const dao = t.ref.blake3(new TextEncoder().encode('ntv-dao'), new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]));
    expect(created.events.find((e) => e.kind === 51)!.data.subarray(0, 32)).toEqual(dao);
    const escrow = t.ref.blake3(new TextEncoder().encode('ntv-dao-escrow'), dao);
    expect(t.one(addr(5), pay(dao, NTV, 1000n))).toBe(0); // fund the treasury
    const unknown = new Uint8Array(32).fill(7);
    expect(t.one(addr(0), propose(unknown, null))).toBe(Status.DAO_NOT_FOUND);
    expect(t.one(addr(0), propose(dao, null, ''))).toBe(Status.INVALID_PROPOSAL_TEXT);
    expect(t.one(addr(4), propose(dao, null))).toBe(Status.BELOW_PROPOSAL_THRESHOLD); // holds no VOTE
    expect(t.one(addr(0), propose(dao, [pay(addr(7), NTV, 500n)]))).toBe(0); // proposal 1, voting to height + 20
    const end = t.height + 20n;
    expect(t.one(addr(1), voteOp(unknown, 1n, true))).toBe(Status.DAO_NOT_FOUND);
    expect(t.one(addr(1), voteOp(dao, 9n, true))).toBe(Status.PROPOSAL_NOT_FOUND);
    expect(t.one(addr(1), voteOp(dao, 1n, true))).toBe(0);
    expect(t.bal(addr(1), VOTE)).toBe(0n);
    expect(t.bal(escrow, VOTE)).toBe(2000n);
    expect(t.one(addr(1), voteOp(dao, 1n, true))).toBe(Status.ALREADY_VOTED);
    // the locked tokens cannot move to another account to vote again
    expect(t.one(addr(1), pay(addr(2), VOTE, 2000n))).toBe(Status.INSUFFICIENT_BALANCE);
    // borrowed tokens: an allowance of 4,000 VOTE gives its spender no weight
    expect(t.one(addr(3), raw(51, (w) => { w.raw(VOTE); w.raw(addr(4)); w.u128(4000n); }))).toBe(0);
    expect(t.one(addr(4), voteOp(dao, 1n, true))).toBe(Status.NO_VOTING_POWER);
    expect(t.one(addr(2), voteOp(dao, 1n, false))).toBe(0); // 3,000 no
    expect(t.one(addr(0), voteOp(dao, 1n, true))).toBe(0); // 1,000 yes: 3,000 yes vs 3,000 no would fail
    expect(t.one(addr(3), voteOp(dao, 1n, true))).toBe(0); // 4,000 yes: 7,000 vs 3,000 of 10,000
    expect(t.one(addr(1), unlock(dao, 1n))).toBe(Status.VOTE_STILL_LOCKED);
    expect(t.one(addr(5), execute(dao, 1n))).toBe(Status.VOTING_NOT_ENDED);
    expect(t.one(addr(1), cancel(dao, 1n))).toBe(Status.NOT_PROPOSER);
    t.until(end);
    expect(t.one(addr(5), voteOp(dao, 1n, true))).toBe(Status.VOTING_CLOSED); // height end + 1
    expect(t.one(addr(5), execute(dao, 1n))).toBe(Status.EXECUTION_DELAY_PENDING); // end + 2 ≤ end + delay
    expect(t.bal(addr(7), NTV)).toBe(0n);
    expect(t.one(addr(5), execute(dao, 1n))).toBe(0); // end + 3
    expect(t.bal(addr(7), NTV)).toBe(500n);
    expect(t.bal(dao, NTV)).toBe(500n);
    expect(t.one(addr(5), execute(dao, 1n))).toBe(Status.PROPOSAL_NOT_EXECUTABLE);
    expect(t.one(addr(1), unlock(dao, 1n))).toBe(0);
    expect(t.bal(addr(1), VOTE)).toBe(2000n);
    expect(t.one(addr(1), unlock(dao, 1n))).toBe(Status.NO_LOCKED_VOTE);
    expect(t.one(addr(4), unlock(dao, 1n))).toBe(Status.NO_LOCKED_VOTE);
  });

  it('rejected, failing and cancelled proposals', async () => {
    const t = await lockstep();
    t.one(addr(0), createDao(VOTE, 5000, 5000, 10n, 0n, 0n));
    const dao = t.ref.blake3(new TextEncoder().encode('ntv-dao'), new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]));
    expect(t.one(addr(0), propose(dao, null))).toBe(0); // 1: below quorum (1,000 of 10,000 at 50%)
    expect(t.one(addr(0), propose(dao, [pay(addr(7), NTV, 1n)]))).toBe(0); // 2: the treasury is empty
    expect(t.one(addr(5), propose(dao, null))).toBe(0); // 3: threshold 0 lets anyone propose
    expect(t.one(addr(0), voteOp(dao, 1n, true))).toBe(0);
    expect(t.one(addr(3), voteOp(dao, 2n, true))).toBe(0);
    expect(t.one(addr(2), voteOp(dao, 2n, true))).toBe(0);
    expect(t.one(addr(5), cancel(dao, 3n))).toBe(0);
    expect(t.one(addr(5), cancel(dao, 3n))).toBe(Status.PROPOSAL_NOT_CANCELLABLE);
    expect(t.one(addr(1), voteOp(dao, 3n, true))).toBe(Status.VOTING_CLOSED);
    t.until(t.height + 10n);
    expect(t.one(addr(5), execute(dao, 1n))).toBe(Status.PROPOSAL_REJECTED);
    expect(t.one(addr(5), execute(dao, 2n))).toBe(Status.INSUFFICIENT_BALANCE); // stays passed
    expect(t.one(addr(5), pay(dao, NTV, 1n))).toBe(0);
    expect(t.one(addr(5), execute(dao, 2n))).toBe(0);
    expect(t.one(addr(5), execute(dao, 3n))).toBe(Status.PROPOSAL_NOT_EXECUTABLE);
    expect(t.one(addr(3), unlock(dao, 2n))).toBe(0);
    expect(t.bal(addr(3), VOTE)).toBe(4000n);
  });
});
