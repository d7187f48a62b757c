// Randomized differential test: the wasm core against the bigint reference, block by block.
import { describe, it, expect } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { accountKey, balanceKey } from '../../src/core/records.js';
import { Reference } from '../../testkit/reference.js';
import { listPrograms, programKey } from '../../src/domains/programs/reader.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status, statusName } from '../../src/core/status.js';
import { encodeBundle, encodeOps, addr, hex, type Op, W } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, rng } from './harness.js';
import { createHash } from 'node:crypto';

const N_ACCOUNTS = 24;
const DAO_TOKEN = mintOf(60);
const TOKENS = [NTV, mintOf(1), mintOf(2)];
// A market maker outside the random senders: it creates the pools the Conditional schedules watch
// and swaps in them now and then, so their prices move across the schedules' limits.
const MAKER = addr(40);
// The upgrade authority of the random chain's genesis (seed-authority mode, docs/upgrades.md): it
// schedules, approves, rejects and cancels plans now and then, outside the random senders.
const AUTHORITY = addr(41);
// An account that proposes plans for the authority to decide (they wait as pending).
const PROPOSER = addr(42);
const UPGRADE_CONFIG = Uint8Array.from([1, 0, 67, 12, 0, 0, 0, 0, 0, 0, 0, ...AUTHORITY]); // version 1, seed-authority, 67%, 12 blocks
const PAIRS: Array<[Uint8Array, Uint8Array]> = [[NTV, mintOf(1)], [mintOf(1), mintOf(2)], [NTV, mintOf(2)]];
const HORIZON = 315_360_000n;
const U128 = (1n << 128n) - 1n;
const u128le = (v: Uint8Array | undefined) => (v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) | (new DataView(v.buffer, v.byteOffset).getBigUint64(8, true) << 64n) : 0n);
const le32 = (v: number) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v, true); return b; };
const le128 = (v: bigint) => { const b = new Uint8Array(16); new DataView(b.buffer).setBigUint64(0, v & 0xffffffffffffffffn, true); new DataView(b.buffer).setBigUint64(8, v >> 64n, true); return b; };
const TREASURY = addr(0).map((_, i) => (i === 31 ? 3 : 0));
const GOVERNANCE = addr(0).map((_, i) => (i === 31 ? 9 : 0));
const STAKER = addr(300);
const le64 = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
const w64 = le64;
const rawOp = (disc: number, f: (w: W) => void): Op => {
  const w = new W();
  f(w);
  return { kind: 'raw', disc, bytes: w.bytes() };
};
const swapOp = (a: Uint8Array, b: Uint8Array, x: bigint, min: bigint) => rawOp(31, (w) => { w.raw(a); w.raw(b); w.u128(x); w.u128(min); });
const poolKeyOf = (ref: Reference, a: Uint8Array, b: Uint8Array) => Uint8Array.from([7, ...ref.poolAddress(a, b)]);
// STD-8 (docs/stablecoins.md): TK1 and TK2 are genesis stablecoins whose roles the governance
// authority 0x00…09 holds; it sends now and then (unsigned, as a passed proposal would), hands
// roles to a few of the random senders, and creates more stablecoins.
const GOV = (() => { const a = new Uint8Array(32); a[31] = 9; return a; })();
const STABLE_CAST = [GOV, addr(0), addr(1), addr(2), addr(3)];

/** What the schedule part of the generator reached, over all seeds (checked by the last test). */
const reach = { proofs: 0, proofsTwoOfThree: 0, dao: { created: 0, votes: 0, executed: 0, carried: 0, unlocked: 0 }, govExecuted: 0, govCarried: 0, govSpent: 0, govSafety: 0, accounts: new Set<number>(), planStates: new Set<number>(), spent: 0, spentInfinite: 0, runStatus: new Set<number>(), ended: new Set<number>(), duePerBlock: 0, slotsWalked: 0, statuses: new Set<number>() };

/**
 * `gov`: a run focused on protocol proposals (docs/governance.md): mostly well-formed bundles of the
 * staked accounts, each a proposal operation, so that proposals gather votes, pass, fail and run.
 */
async function run(seed: number, blocks: number, gov = false, accountsBias = 0, dao = false, onboarding = false) {
  const r = rng(seed);
  const store = new MapStore();
  let core = await Core.create(store);
  const ref = await Reference.create();
  const genesis = {
    chainId: 1618032n,
    timestamp: 1_700_000_000n,
    tokens: [...[...TOKENS, mintOf(3)].map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: 9, kind: i === 0 ? 0 : 2, creator: addr(999) })),
      // DAO seeds: a voting token the maker does not hold, so quorums can be met (docs/dao.md)
      ...(dao ? [{ mint: DAO_TOKEN, name: 'Votes', symbol: 'VOTE', decimals: 0, kind: 1, creator: addr(999) }] : [])],
    balances: [
      ...Array.from({ length: N_ACCOUNTS * 3 }, (_, i) => ({ account: addr(i % N_ACCOUNTS), mint: TOKENS[Math.floor(i / N_ACCOUNTS)]!, amount: BigInt(r.int(3_000_000)) })),
      ...TOKENS.map((mint) => ({ account: MAKER, mint, amount: 10n ** 15n })),
      // what passed proposals spend: the treasury's NTV and GOVERNANCE's own (docs/governance.md)
      { account: TREASURY, mint: NTV, amount: BigInt(r.int(5_000_000)) },
      ...TOKENS.slice(0, 2).map((mint) => ({ account: GOVERNANCE, mint, amount: BigInt(r.int(3_000_000)) })),
      { account: AUTHORITY, mint: NTV, amount: 10n ** 15n },
      { account: PROPOSER, mint: NTV, amount: 10n ** 15n },
      { account: GOV, mint: NTV, amount: 10n ** 15n },
      ...(dao ? Array.from({ length: 12 }, (_, i) => [{ account: addr(i), mint: DAO_TOKEN, amount: BigInt(1000 * (i + 1)) }, { account: addr(i), mint: NTV, amount: 10n ** 12n }]).flat() : []),
    ],
    reservedSymbols: ['USDC', 'usdt'],
    upgradeConfig: UPGRADE_CONFIG,
  };
  core.genesis(genesis);
  expect(ref.genesis(genesis)).toBe(0);
  let c = core.commitBlock();
  let rc = ref.commitBlock();
  expect(hex(c.stateRoot)).toBe(hex(rc.stateRoot));
  store.apply(c.writes);
  // Bonded stake for the proposals' votes (docs/governance.md "Voting weight"). The model has no
  // staking, so the records a vote reads are placed in both committed stores as they are (outside
  // the roots, since neither side writes them): accounts 0–9 delegate to one or two of three
  // validators, and STAKER holds stake that never votes, so quorum is not a given.
  const staked: Array<{ key: Uint8Array; value: Uint8Array }> = [];
  let totalStaked = 0n;
  const delegate = (who: Uint8Array, validators: Uint8Array[], amounts: bigint[]) => {
    staked.push({ key: Uint8Array.from([0x18, ...who]), value: Uint8Array.from([...le32(validators.length), ...validators.flatMap((v) => [...v])]) });
    validators.forEach((v, i) => {
      staked.push({ key: Uint8Array.from([0x12, ...v, ...who]), value: Uint8Array.from([...le128(amounts[i]!), ...new Uint8Array(32 + 1 + 8)]) });
      totalStaked += amounts[i]!;
    });
  };
  const VALIDATORS = [addr(200), addr(201), addr(202)];
  for (let i = 0; i < 10; i++) {
    const vs = r.chance(0.3) ? [VALIDATORS[0]!, VALIDATORS[1 + r.int(2)]!] : [r.pick(VALIDATORS)];
    delegate(addr(i), vs, vs.map(() => BigInt(1 + r.int(1_000_000))));
  }
  delegate(STAKER, [VALIDATORS[2]!], [BigInt(r.int(2_000_000))]);
  const stakingState = new Uint8Array(81);
  stakingState[0] = 1;
  stakingState.set(le128(totalStaked), 57);
  staked.push({ key: Uint8Array.of(0x14), value: stakingState });
  store.apply(staked);
  for (const { key, value } of staked) ref.state.set(hex(key), value);
  let chainHeight = 0n;
  const revealed = new Set<number>();
  let created = 0;
  const statuses = new Map<number, number>();
  // bundles included in earlier blocks, replayed byte for byte now and then (an attacker holding a
  // copy; docs/core-abi.md "Failed bundles: fee and replay")
  const seen: BundleInput[] = [];
  // schedule ids and owners from committed ScheduleCreated events, for cancels
  const schedules: Array<{ id: Uint8Array; owner: Uint8Array }> = [];
  let ts = 1_700_000_000n;

  // The maker: a pool it lacks, else a swap of up to 10^8 raw units (a few percent of a reserve)
  // in a random direction.
  const makerBundle = (): BundleInput => {
    const acc = ref.get(accountKey(MAKER));
    const nonce = acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n;
    const missing = PAIRS.find(([a, b]) => !ref.get(poolKeyOf(ref, a, b)));
    let op: Op;
    if (missing) {
      // reserves at exactly 1:1, 1:2 or 2:1 until the first swap, so a spot price can equal a limit
      const x = BigInt(1_000_000_000 + r.int(1_000_000_000));
      const [p, q] = r.pick([[1n, 1n], [1n, 2n], [2n, 1n]]);
      op = rawOp(28, (w) => { w.raw(missing[0]); w.raw(missing[1]); w.u128(x * p); w.u128(x * q); w.u64(0n); });
    } else {
      const [a, b] = r.pick(PAIRS);
      const [x, y] = r.chance(0.5) ? [a, b] : [b, a];
      op = swapOp(x, y, BigInt(1 + r.int(100_000_000)), 0n);
    }
    // now and then a batch of valid schedules, so that more are due at once than a block handles
    const ops = [op, ...Array.from({ length: r.chance(0.45) ? 1 + r.int(16) : 0 }, () => createSchedule(MAKER, true))];
    return { bytes: encodeBundle({ user: MAKER, ops, nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: ts + 100n }), auth: 0 };
  };

  // Upgrade governance (docs/upgrades.md): names from a small pool (taken ones come back as
  // UPGRADE_NAME_TAKEN) and bad ones; heights around the block's; URLs around the 512-byte bound;
  // votes and cancels mostly on the active plan.
  const upgradeNames = Array.from({ length: 8 }, (_, i) => `v0.${i}.0`);
  const activeUpgrade = (): string | undefined => {
    const v = ref.get(Uint8Array.of(0x5f));
    if (!v) return undefined;
    const n = new DataView(v.buffer, v.byteOffset).getUint32(9, true);
    return n > 0 ? Buffer.from(v.subarray(13, 13 + n)).toString('latin1') : undefined;
  };
  const upgradeOp = (height: number, authority = false): Op => {
    // the authority mostly schedules when nothing is active and decides when something is
    const p = authority ? (activeUpgrade() === undefined ? r.int(56) : 45 + r.int(55)) : r.int(100);
    const bad = () => r.pick(['', 'bad name', 'x'.repeat(65), '..', 'ok_Name-1']);
    const name = r.chance(0.7) ? activeUpgrade() ?? r.pick(upgradeNames) : r.chance(0.85) ? r.pick(upgradeNames) : bad();
    if (p < 45) {
      const url = (n: number) => 'u'.repeat(n);
      return rawOp(15, (w) => {
        w.str(r.chance(0.15) ? bad() : r.pick(upgradeNames));
        w.u64(BigInt(Math.max(0, height + r.pick([1, 2, 3, 4, 6, 10, 20, 0, -1]))));
        w.str(url(r.chance(0.1) ? 513 : r.pick([0, 30, 512])));
        w.raw(new Uint8Array(32).fill(r.chance(0.15) ? 0 : 0xab));
        w.str(url(r.chance(0.1) ? 513 : r.pick([0, 30, 512])));
      });
    }
    if (p < 85) return rawOp(17, (w) => { w.str(name); w.u8(r.chance(0.75) ? 1 : 0); });
    return rawOp(16, (w) => w.str(name));
  };
  const governanceBundle = (user: Uint8Array, op: Op): BundleInput => {
    const acc = ref.get(accountKey(user));
    const nonce = acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n;
    return { bytes: encodeBundle({ user, ops: [op], nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: ts + 100n }), auth: 0 };
  };

  // The operations a schedule holds: mostly ones that can run (and fail now and then), sometimes
  // ones a schedule may not hold (CreateToken, over 4,096 bytes, 0 or 17 of them, schedule ops).
  const heldOp = (user: Uint8Array): Op => {
    const p = r.int(100);
    if (p < 55) {
      const token = r.pick(TOKENS);
      return { kind: 'transfer', to: addr(r.int(N_ACCOUNTS + 5)), token, amount: r.pick([0n, 1n, BigInt(1 + r.int(50_000)), BigInt(r.int(3_000_000)), u128le(ref.get(balanceKey(user, token))) + 1n]) };
    }
    if (p < 75) {
      const [a, b] = r.chance(0.9) ? r.pick(PAIRS) : [NTV, mintOf(77)];
      return r.chance(0.5) ? swapOp(a, b, BigInt(1 + r.int(200_000)), r.pick([0n, 0n, 1n, 10n ** 12n])) : swapOp(b, a, BigInt(1 + r.int(200_000)), 0n);
    }
    if (p < 82) {
      const w = new W();
      const name = r.pick(['dca', 'tip-jar', `p${r.int(6)}-x`, 'ab']);
      w.str(name);
      // Alone in the list, JSON of 4,083 − name bytes makes the held Vec<Operation> exactly 4,096
      // bytes (count 4, disc. 1, two length-prefixed strings); one more is over the bound.
      const edge = 4096 - 4 - 1 - 4 - name.length - 4;
      w.vec(new Uint8Array(r.pick([10, 200, edge, edge + 1, 5000])).fill(0x7b));
      return { kind: 'raw', disc: 48, bytes: w.bytes() };
    }
    if (p < 84) return r.chance(0.5) ? approveOp(user) : transferFromOp(user);
    if (p < 86) return { kind: 'createToken', name: 'Held', symbol: `H${r.int(9)}`, decimals: 6, supply: 1000n, owner: user };
    if (p < 90) return rawOp(119, (w) => w.raw(new Uint8Array(32).fill(3))); // runs and fails NOT_VALIDATOR
    if (p < 93) return rawOp(50, (w) => w.raw(new Uint8Array(32))); // not inside a schedule: MALFORMED_BUNDLE
    if (p < 96) return rawOp(49, (w) => { w.u8(0); w.u64(60n); w.u32(1); w.u64(0n); encodeOps(w, [{ kind: 'transfer', to: user, token: NTV, amount: 1n }]); });
    return { kind: 'raw', disc: r.pick([3, 70, 118]), bytes: new Uint8Array(40) }; // OP_NOT_ENABLED, or (RotateKey 3) not allowed inside a schedule: MALFORMED_BUNDLE
  };

  // `good`: only values within the bounds and operations a schedule may hold (the maker's batches).
  const createSchedule = (user: Uint8Array, good = false): Op => {
    const w = new W();
    let held: Op[];
    if (r.chance(0.6)) {
      // Recurring { interval u64, runs u32, first_run u64 }: bounds 60 s … 10 years, ≥ 1 run, first ≤ 10 years ahead
      w.u8(0);
      w.u64(BigInt(good ? r.pick([60, 90, 150]) : r.pick([60, 60, 61, 90, 150, 400, 59, 0, 315_360_000, 315_360_001])));
      w.u32(good ? r.pick([2, 3, 5, 8, 20]) : r.pick([1, 2, 3, 3, 5, 8, 0]));
      w.u64(good ? r.pick([0n, ts + 30n, ts + 300n]) : r.pick([0n, 0n, ts - 50n, ts, ts + 30n, ts + 61n, ts + 300n, ts + 3000n, ts + HORIZON, ts + HORIZON + 1n]));
      held = good ? [{ kind: 'transfer', to: addr(r.int(N_ACCOUNTS)), token: r.pick(TOKENS), amount: BigInt(1 + r.int(1000)) }]
        : Array.from({ length: r.chance(0.03) ? 0 : r.chance(0.03) ? 17 : 1 + (r.chance(0.3) ? r.int(3) : 0) }, () => heldOp(user));
    } else if (good) {
      const [base, quote] = r.pick(PAIRS);
      w.u8(1);
      w.raw(base);
      w.raw(quote);
      w.u8(r.int(2));
      const [num, den] = r.pick([[1n, 1n], [1n, 2n], [2n, 1n], [3n, 2n], [2n, 3n]]);
      w.u128(num);
      w.u128(den);
      w.u64(ts + BigInt(200 + r.int(20_000)));
      held = [r.chance(0.5) ? swapOp(base, quote, BigInt(1 + r.int(300_000)), 0n) : swapOp(quote, base, BigInt(1 + r.int(300_000)), 0n)];
    } else {
      // Conditional { base, quote, direction, price_num u128, price_den u128, expiry }
      const [x, y] = r.chance(0.9) ? r.pick(PAIRS) : r.chance(0.5) ? [NTV, NTV] : [NTV, mintOf(77)];
      const [base, quote] = r.chance(0.5) ? [x, y] : [y, x];
      w.u8(1);
      w.raw(base);
      w.raw(quote);
      w.u8(r.pick([0, 1, 0, 1, 2]));
      const [num, den] = r.pick([[1n, 1n], [1n, 2n], [2n, 1n], [3n, 2n], [2n, 3n], [1n, 3n], [3n, 1n], [0n, 1n], [1n, 0n], [U128, 1n], [1n, U128]]);
      w.u128(num);
      w.u128(den);
      w.u64(r.pick([ts - 1n, ts, ts + 1n, ts + 200n, ts + 2000n, ts + 20_000n, ts + HORIZON, ts + HORIZON + 1n]));
      const q = r.int(100);
      const amount = r.chance(0.9) ? BigInt(1 + r.int(300_000)) : 10n ** 13n; // 10^13: more than any sender holds
      if (q < 80) held = [r.chance(0.5) ? swapOp(base, quote, amount, r.pick([0n, 0n, 1n, 10n ** 12n])) : swapOp(quote, base, amount, 0n)];
      else if (q < 88) held = [swapOp(NTV, mintOf(77), amount, 0n)]; // not its pair
      else if (q < 94) held = [swapOp(base, quote, amount, 0n), swapOp(quote, base, 1n, 0n)]; // not exactly one
      else held = [heldOp(user)];
    }
    encodeOps(w, held);
    return { kind: 'raw', disc: 49, bytes: w.bytes() };
  };

  // ERC-20 allowances (docs/allowances.md). Approve: mostly a token with a balance, sometimes NTV
  // (refused) or an unknown mint; amounts 0 (revoke), small, large, and the infinite 2^128−1.
  const allowanceToken = () => (r.chance(0.08) ? NTV : r.chance(0.04) ? mintOf(77) : r.pick([mintOf(1), mintOf(2)]));
  const approveOp = (user: Uint8Array): Op => {
    const token = allowanceToken();
    const spender = addr(r.int(N_ACCOUNTS + 3));
    const amount = r.pick([0n, 1n, BigInt(r.int(100_000)), BigInt(r.int(3_000_000)), U128, U128, U128 - 1n]);
    return rawOp(51, (w) => { w.raw(token); w.raw(spender); w.u128(amount); });
  };
  // TransferFrom by `user` as the spender: an owner that approved it now and then, amounts around
  // the allowance and the owner's balance, to the owner itself or someone else.
  const transferFromOp = (user: Uint8Array): Op => {
    // mostly an (owner, token) that approved `user` in committed state, when there is one
    const granted: Array<[Uint8Array, Uint8Array]> = [];
    for (let o = 0; o < N_ACCOUNTS + 3; o++) {
      for (const t of [mintOf(1), mintOf(2)]) if (ref.get(Uint8Array.from([0x0c, ...addr(o), ...t, ...user]))) granted.push([addr(o), t]);
    }
    const [owner, token] = granted.length > 0 && r.chance(0.85) ? r.pick(granted) : [addr(r.int(8)), allowanceToken()];
    const allowed = u128le(ref.get(Uint8Array.from([0x0c, ...owner, ...token, ...user])));
    const have = u128le(ref.get(balanceKey(owner, token)));
    const amount = r.pick([0n, 1n, allowed, allowed + 1n, allowed / 2n, have, have + 1n, have / 3n, BigInt(r.int(50_000))]);
    const to = r.chance(0.1) ? owner : r.chance(0.05) ? user : addr(r.int(N_ACCOUNTS + 5));
    return rawOp(52, (w) => { w.raw(token); w.raw(owner); w.raw(to); w.u128(amount); });
  };

  // Accounts (docs/accounts.md): keys from a small per-account pool (so adds collide, removes and
  // rotations find them, and bundles get signed by them), guardians and multi-sigs among the senders.
  const keyPool = (who: number, j: number, kt: number) => new Uint8Array(kt === 1 ? 1952 : 32).fill((who * 7 + j) & 0xff);
  const sha = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
  // guardians, signers and recovery targets mostly among a circle of six, so they meet
  const circle = () => addr(r.chance(0.85) ? r.int(6) : r.int(N_ACCOUNTS + 2));
  /** n distinct accounts of the circle (not `user`), now and then a repeat or `user` itself. */
  const accountList = (n: number, user: Uint8Array) => {
    const list: Uint8Array[] = [];
    for (let i = 0; list.length < n && i < 40; i++) {
      const a = circle();
      if (!list.some((x) => hex(x) === hex(a)) && hex(a) !== hex(user)) list.push(a);
    }
    if (r.chance(0.08) && list.length > 0) list.push(list[0]!);
    if (r.chance(0.08)) list.push(user);
    return list;
  };
  const listOp = (disc: number, list: Uint8Array[], threshold: number, tail: (w: W) => void) => rawOp(disc, (w) => { w.u32(list.length); for (const a of list) w.raw(a); w.u8(threshold); tail(w); });
  const accountOp = (who: number, user: Uint8Array): Op => {
    const p = r.int(100);
    const kt = r.chance(0.8) ? 0 : r.chance(0.9) ? 1 : 2;
    const pk = r.chance(0.95) ? keyPool(who, r.int(4), kt) : new Uint8Array(31).fill(9);
    if (p < 15) return rawOp(1, (w) => { w.vec(pk); w.u8(kt); w.u8(r.pick([0, 0, 1, 1, 2])); });
    if (p < 22) return rawOp(2, (w) => w.raw(r.chance(0.3) ? user : r.chance(0.9) ? sha(keyPool(who, r.int(4), r.chance(0.8) ? 0 : 1)) : addr(77)));
    if (p < 28) return rawOp(3, (w) => { w.raw(r.chance(0.4) ? user : sha(keyPool(who, r.int(4), 0))); w.vec(pk); w.u8(kt); });
    if (p < 38) {
      const g = accountList(r.chance(0.05) ? 11 : r.chance(0.05) ? 0 : 1 + r.int(4), user);
      return listOp(77, g, r.chance(0.85) ? 1 + r.int(Math.max(1, g.length)) : r.pick([0, 5, 11]), (w) => w.u64(BigInt(r.chance(0.8) ? r.pick([10, 30, 60, 200]) : r.pick([5, 86_400, 2_592_000, 2_592_001]))));
    }
    const target = circle();
    const tw = target[28]! * 16777216 + target[29]! * 65536 + target[30]! * 256 + target[31]!; // addr(n) ends in n
    if (p < 52) return rawOp(78, (w) => { w.raw(target); w.vec(keyPool(tw, r.chance(0.8) ? 9 : 8, kt === 2 ? 0 : kt)); w.u8(kt); });
    if (p < 66) return rawOp(79, (w) => { w.raw(target); w.raw(sha(keyPool(tw, r.chance(0.8) ? 9 : 8, r.chance(0.9) ? 0 : 1))); });
    if (p < 71) return rawOp(80, () => {});
    if (p < 80) return rawOp(81, (w) => w.raw(target));
    if (p < 86) {
      const sg = accountList(r.chance(0.05) ? 17 : r.chance(0.03) ? 0 : 1 + r.int(4), user);
      if (r.chance(0.3)) sg.push(user);
      return listOp(22, sg, r.chance(0.85) ? 1 + r.int(Math.max(1, Math.min(sg.length, 3))) : r.pick([0, 9]), (w) => w.str(r.chance(0.1) ? 'L'.repeat(65) : 'treasury'));
    }
    const ms = multisigs.length > 0 && r.chance(0.9) ? r.pick(multisigs) : addr(88);
    if (p < 93) {
      const held: Op[] = Array.from({ length: r.chance(0.03) ? 17 : 1 + r.int(3) }, () => r.chance(0.7)
        ? { kind: 'transfer' as const, to: addr(r.int(N_ACCOUNTS + 2)), token: r.pick(TOKENS), amount: r.pick([1n, 1000n, BigInt(r.int(3_000_000))]) }
        : r.chance(0.5) ? approveOp(ms) : r.chance(0.5) ? rawOp(81, (w) => w.raw(addr(r.int(N_ACCOUNTS)))) : rawOp(r.pick([1, 22, 49]), (w) => w.raw(new Uint8Array(8))));
      return rawOp(23, (w) => { w.raw(ms); encodeOps(w, held); w.str(r.chance(0.1) ? 'D'.repeat(257) : 'pay'); });
    }
    return rawOp(r.pick([24, 24, 25]), (w) => { w.raw(ms); w.u64(BigInt(r.int(4))); });
  };
  const multisigs: Uint8Array[] = [];
  // STD-8 operations (docs/stablecoins.md) among a small cast, so roles, minters, pending changes
  // and limits meet each other; stablecoins created in the run join the genesis ones.
  const stables = [mintOf(3)];
  const castMember = () => (r.chance(0.05) ? new Uint8Array(32) : r.pick(STABLE_CAST));
  const accountsVec = (max: number) => {
    const n = r.pick([0, 1, 2, 3, max + 1]);
    const out = new Uint8Array(32 * n);
    for (let i = 0; i < n; i++) out.set(r.chance(0.05) ? out.subarray(0, 32) : castMember(), 32 * i);
    return out;
  };
  const stableAmount = () => r.pick([0n, 1n, 500n, 5_000n, 20_000n, 20_000n, 30_000n, 1_000_000n, U128]);
  /** StableIssuerProof (docs/stablecoins.md "Issuer onboarding"): mostly well-formed, so a coin gathers two of three proofs. */
  const proofOp = (tok: (w: W) => void): Op => rawOp(70, (w) => {
    const m = r.pick([0, 0, 1, 1, 2, 2, 3]);
    const good = r.chance(0.8);
    tok(w); w.u8(m); w.u64(m === 0 && good ? 1n : r.chance(0.2) ? 5n : 0n);
    const subject = new Uint8Array(32);
    if (m === 0) subject.fill(good ? 0xab : 1, good ? 12 : 0); else if (good || r.chance(0.5)) subject.fill(0xcd);
    w.raw(subject);
    w.vec(m !== 0 && good ? new TextEncoder().encode(r.pick(['example.com', 'Docs 2026/1'])) : r.chance(0.2) ? new Uint8Array(129) : new Uint8Array(0));
    w.vec(new Uint8Array(m === 0 && good ? 65 : r.pick([0, 64])));
  });
  const stableOp = (): Op => {
    // onboarding seeds: issuer-onboarding proofs often (other seeds draw exactly as before)
    if (onboarding && r.chance(0.25)) return proofOp((w) => w.raw(r.pick(stables)));
    const token = r.chance(0.03) ? NTV : r.chance(0.02) ? mintOf(77) : r.chance(0.06) ? r.pick([mintOf(1), mintOf(2)]) : r.pick(stables);
    const id = () => w64(BigInt(r.int(10)));
    const p = r.int(100);
    const tok = (w: W) => w.raw(token);
    if (p < 16) return rawOp(54, (w) => { tok(w); w.raw(r.chance(0.7) ? addr(r.int(N_ACCOUNTS)) : castMember()); w.u128(stableAmount()); });
    if (p < 21) return rawOp(55, (w) => { tok(w); w.u128(stableAmount()); });
    if (p < 26) return rawOp(56, (w) => { tok(w); w.u8(r.chance(0.15) ? 1 : 0); });
    if (p < 32) return rawOp(57, (w) => { tok(w); w.raw(r.chance(0.5) ? addr(r.int(N_ACCOUNTS)) : castMember()); w.u8(r.chance(0.6) ? 1 : 0); });
    if (p < 39) return rawOp(58, (w) => { tok(w); w.u8(r.int(4)); w.raw(castMember()); });
    if (p < 52) return rawOp(59, (w) => { tok(w); w.u8(r.pick([0, 0, 1, 2])); w.raw(castMember()); w.u128(stableAmount()); w.u128(r.pick([0n, 0n, 1_000n, 100_000n])); });
    if (p < 55) return rawOp(60, (w) => { tok(w); for (let i = 0; i < 4; i++) w.raw(castMember()); });
    if (p < 60) return rawOp(61, (w) => { tok(w); w.raw(id()); });
    if (p < 70) return rawOp(62, (w) => { tok(w); w.raw(id()); });
    if (p < 73) return rawOp(63, tok);
    if (p < 76) return rawOp(64, tok);
    if (p < 80) return rawOp(65, (w) => { tok(w); w.vec(accountsVec(8)); });
    if (p < 87) return rawOp(66, (w) => { tok(w); w.u64(r.pick([0n, 1n, 2n, 4n, 1_000_001n])); w.u128(r.pick([0n, 0n, 1_000n, 10_000n])); w.u8(r.pick([0, 1, 1, 2, 3])); w.vec(accountsVec(8)); w.u8(r.chance(0.05) ? 1 : 0); });
    if (p < 93) return rawOp(67, (w) => { tok(w); w.raw(id()); });
    if (p < 95) return rawOp(68, (w) => { tok(w); w.u128(r.pick([0n, 1_000n, 10n ** 9n, 10n ** 12n])); });
    if (p < 97) return onboarding && r.chance(0.8) ? proofOp(tok) : rawOp(69, tok);
    // CreateStableToken: mostly valid, with short timelocks and epochs so they expire within a run
    return rawOp(53, (w) => {
      w.str(r.pick(['Stable', '', 'N'.repeat(65)]));
      w.str(r.pick(['TK1', 'usdc', `SD${r.int(30)}`, `SD${r.int(30)}`, 'x-y']));
      w.u8(r.pick([6, 18, 19]));
      w.str(r.pick(['USD', 'EUR', '']));
      w.str('Issuer');
      for (let i = 0; i < 4; i++) w.raw(r.chance(0.97) ? r.pick(STABLE_CAST) : new Uint8Array(32));
      w.vec(accountsVec(8));
      const ow = new W();
      const n = r.pick([0, 1, 2, 9]);
      ow.u32(n);
      for (let i = 0; i < n; i++) { ow.str(r.pick(['ethereum', 'solana', ''])); ow.str(`0x${i}${r.int(100)}`); }
      w.vec(r.chance(0.1) ? new Uint8Array(0) : ow.bytes());
      w.u128(r.pick([0n, 0n, 50_000n, 10n ** 9n]));
      w.u8(r.chance(0.2) ? 1 : 0);
      w.u128(r.pick([0n, 0n, 1_000n]));
      w.u8(r.pick([0, 1, 2]));
      w.vec(accountsVec(8));
      w.u64(r.pick([0n, 1n, 3n]));
      w.u64(r.pick([0n, 2n, 5n, 2_000_000n]));
    });
  };

  // CancelSchedule of the sender's own schedule (active or ended), someone else's, or an unknown id.
  const cancelSchedule = (user: Uint8Array): Op => {
    const own = schedules.filter((x) => hex(x.owner) === hex(user));
    const id = own.length > 0 && r.chance(0.7) ? r.pick(own).id : schedules.length > 0 && r.chance(0.7) ? r.pick(schedules).id : new Uint8Array(32).fill(r.int(256));
    return rawOp(50, (w) => w.raw(id));
  };

  // Protocol proposals (docs/governance.md): CreateProposal with every action (a parameter change
  // is refused NO_CHAIN_PARAMS: this ledger has no staking parameters), votes, executions and
  // cancels of known, unknown and finished ids.
  const proposalCount = () => { const v = ref.get(Uint8Array.of(0x5a)); return v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) : 0n; };
  // mostly one of the latest proposals (the ones still open), sometimes any or an unknown id
  const anyId = () => {
    const n = Number(proposalCount());
    return r.chance(0.05) ? BigInt(r.pick([0, 1_000_000])) : r.chance(0.6) && n > 0 ? BigInt(Math.max(1, n - r.int(3))) : BigInt(1 + r.int(n + 1));
  };
  const carriedOp = (): Op => {
    const p = r.int(10);
    if (p < 6) {
      const token = r.pick(TOKENS.slice(0, 2));
      return { kind: 'transfer', to: addr(r.int(N_ACCOUNTS)), token, amount: r.pick([0n, 1n, BigInt(r.int(400_000)), u128le(ref.get(balanceKey(GOVERNANCE, token))) + 1n]) };
    }
    if (p < 8) return { kind: 'createToken', name: 'Governed', symbol: `G${r.int(6)}`, decimals: 6, supply: BigInt(r.pick([0, 1000])), owner: addr(r.int(N_ACCOUNTS)) };
    return approveOp(GOVERNANCE);
  };
  const govOp = (): Op => {
    const p = r.int(100);
    if (p < 18) {
      return rawOp(18, (w) => {
        w.str(r.chance(0.05) ? r.pick(['', 'x'.repeat(129)]) : r.pick(['Fund grants', 't', 'x'.repeat(128)]));
        w.str(r.chance(0.03) ? 'd'.repeat(4097) : r.pick(['', 'why', 'd'.repeat(4096)]));
        const tag = r.pick([0, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7, 8]);
        w.u8(tag);
        if (tag === 1) { w.u8(r.int(9)); w.u128(BigInt(r.int(20_000))); }
        else if (tag === 2) {
          const t = u128le(ref.get(balanceKey(TREASURY, NTV)));
          w.raw(r.chance(0.05) ? TREASURY : addr(r.int(N_ACCOUNTS + 3)));
          w.u128(r.pick([0n, 1n, BigInt(r.int(500_000)), t / 3n, t, t + 1n]));
        } else if (tag === 3) {
          w.str(r.chance(0.1) ? r.pick(['', 'c'.repeat(129)]) : r.pick(['ethereum', 'solana']));
          w.str(r.chance(0.05) ? '' : r.pick(['0xabc', '0xdef', 'c'.repeat(128)]));
          w.u8(r.pick([0, 1, 2, 3, 3, 4]));
        } else if (tag === 4) { w.raw(addr(r.int(5))); w.u8(r.int(4)); }
        else if (tag >= 5) {
          if (r.chance(0.03)) encodeOps(w, [{ kind: 'raw', disc: 48, bytes: (() => { const x = new W(); x.str('big'); x.vec(new Uint8Array(4100).fill(0x7b)); return x.bytes(); })() }]);
          else encodeOps(w, Array.from({ length: 1 + r.int(3) }, carriedOp));
        }
      });
    }
    if (p < 72) return rawOp(19, (w) => { w.u64(anyId()); w.u8(r.chance(0.75) ? 1 : 0); });
    if (p < 92) return rawOp(20, (w) => w.u64(r.chance(0.05) ? anyId() : BigInt(1 + r.int(Math.max(1, Number(proposalCount()))))));
    return rawOp(21, (w) => w.u64(anyId()));
  };

  // DAOs (docs/dao.md): created on the voting token (now and then on NTV, an unknown
  // or another token, or with a config out of range), proposals with and without operations the
  // DAO's treasury runs, votes that lock balances, executions, cancels and unlocks, and transfers
  // that fund the treasuries.
  const daoCount = (dao: Uint8Array) => { const v = ref.get(Uint8Array.from([0x61, ...dao])); return v ? Number(new DataView(v.buffer, v.byteOffset).getBigUint64(117, true)) : 0; };
  const daoOp = (): Op => {
    const daos = createdAddresses(0x62, 'ntv-dao');
    const dao = daos.length > 0 && r.chance(0.95) ? r.pick(daos.slice(0, 3)) : new Uint8Array(32).fill(r.int(256));
    const n = daoCount(dao);
    const id = r.chance(0.05) ? BigInt(r.pick([0, 1_000_000])) : BigInt(n > 0 && r.chance(0.7) ? Math.max(1, n - r.int(2)) : 1 + r.int(n + 1));
    const p = r.int(100);
    if (p < 2 || daos.length < 3 && r.chance(0.3)) {
      return rawOp(85, (w) => {
        w.str(r.chance(0.05) ? r.pick(['', 'x'.repeat(65)]) : r.pick(['Grants', 'x'.repeat(64)]));
        w.raw(r.chance(0.85) ? DAO_TOKEN : r.pick([NTV, mintOf(77), TOKENS[1]!]));
        w.u16(r.chance(0.05) ? r.pick([0, 10001]) : r.pick([1, 500, 1000, 2500, 10000]));
        w.u16(r.chance(0.05) ? r.pick([4999, 10000]) : r.pick([5000, 6000, 9999]));
        w.u64(r.chance(0.03) ? r.pick([0n, 1_000_001n]) : r.pick([1n, 20n, 60n, 150n]));
        w.u64(r.chance(0.03) ? 1_000_001n : r.pick([0n, 0n, 30n, 200n]));
        w.u128(r.pick([0n, 0n, 0n, 0n, 2000n, 10n ** 9n]));
      });
    }
    if (p < 25) {
      return rawOp(86, (w) => {
        w.raw(dao);
        w.str(r.chance(0.05) ? r.pick(['', 'x'.repeat(129)]) : r.pick(['Pay the team', 't']));
        w.str(r.chance(0.03) ? 'd'.repeat(4097) : r.pick(['', 'why']));
        if (r.chance(0.3)) { w.u8(0); return; }
        w.u8(1);
        const carried = (): Op => {
          const token = r.pick([NTV, DAO_TOKEN, TOKENS[1]!]);
          return r.chance(0.85) ? { kind: 'transfer', to: addr(r.int(N_ACCOUNTS)), token, amount: r.pick([0n, 1n, BigInt(r.int(5000)), u128le(ref.get(balanceKey(dao, token))) + 1n]) }
            : { kind: 'createToken', name: 'DaoToken', symbol: `D${r.int(6)}`, decimals: 6, supply: 1000n, owner: addr(r.int(N_ACCOUNTS)) };
        };
        if (r.chance(0.03)) encodeOps(w, [{ kind: 'raw', disc: 48, bytes: (() => { const x = new W(); x.str('big'); x.vec(new Uint8Array(4100).fill(0x7b)); return x.bytes(); })() }]);
        else encodeOps(w, Array.from({ length: 1 + r.int(3) }, carried));
      });
    }
    // executions and unlocks mostly of any earlier proposal (most have ended by then)
    const older = n > 0 && r.chance(0.8) ? BigInt(1 + r.int(n)) : id;
    if (p < 55) return rawOp(87, (w) => { w.raw(dao); w.u64(id); w.u8(r.chance(0.75) ? 1 : 0); });
    if (p < 68) return rawOp(88, (w) => { w.raw(dao); w.u64(older); });
    if (p < 74) return rawOp(89, (w) => { w.raw(dao); w.u64(id); });
    if (p < 90) return rawOp(90, (w) => { w.raw(dao); w.u64(older); });
    const token = r.pick([NTV, DAO_TOKEN, TOKENS[1]!]);
    return { kind: 'transfer', to: dao, token, amount: BigInt(r.int(20_000)) };
  };

  // Presales and staking pools (docs/presales.md, docs/staking-pools.md): their own differential
  // test (test/core/presales.test.ts) reaches every path; here they mix with everything else. The
  // accounts hold too little NTV for a presale's 100 NTV pool fee, so presales mostly fail; pools
  // run with small amounts.
  const createdAddresses = (prefix: number, tag: string) => {
    const v = ref.get(Uint8Array.of(prefix));
    const n = v ? Number(new DataView(v.buffer, v.byteOffset).getBigUint64(0, true)) : 0;
    return Array.from({ length: n }, (_, i) => ref.blake3(new TextEncoder().encode(tag), le64(BigInt(i + 1))));
  };
  const launchpadOp = (): Op => {
    const p = r.int(10);
    const small = () => r.pick([0n, 1n, BigInt(1 + r.int(1000)), BigInt(r.int(100_000))]);
    if (p < 2) {
      return rawOp(95, (w) => {
        w.raw(r.pick(TOKENS)); w.raw(r.pick(TOKENS)); w.u128(r.pick([0n, 1n, 1_000_000_000n])); w.u128(r.pick([0n, 100_000n])); w.u128(r.pick([50_000n, 200_000n]));
        w.u128(r.pick([1n, 1000n])); w.u128(r.pick([1000n, 100_000n])); w.u64(ts); w.u64(ts + BigInt(r.pick([0, 100, 1000]))); w.u8(r.pick([0, 0x10])); w.u8(r.pick([0, 0x27, 0x28]));
        w.u64(r.pick([0n, 86_400n]));
      });
    }
    if (p < 3) {
      const all = createdAddresses(0x6a, 'ntv.presale.v1');
      const target = all.length > 0 && r.chance(0.8) ? r.pick(all) : new Uint8Array(32).fill(r.int(256));
      const disc = 96 + r.int(4);
      return rawOp(disc, (w) => { w.raw(target); if (disc === 96) w.u128(small()); });
    }
    if (p < 5) {
      return rawOp(100, (w) => {
        w.raw(r.chance(0.95) ? r.pick(TOKENS) : mintOf(77)); w.raw(r.pick(TOKENS)); w.u128(r.pick([0n, 1n, 100n, 10_000n])); w.u64(r.pick([0n, 5n, 30n]));
        w.u128(r.pick([0n, 1_000_000n])); w.u128(r.pick([0n, 100_000n, 2_000_000n]));
      });
    }
    const all = createdAddresses(0x6d, 'ntv.staking-pool.v1');
    const pool = all.length > 0 && r.chance(0.9) ? r.pick(all) : new Uint8Array(32).fill(r.int(256));
    const disc = r.pick([101, 101, 102, 103, 104]);
    return rawOp(disc, (w) => { w.raw(pool); if (disc !== 103) w.u128(small()); });
  };

  for (let height = 1; height <= blocks; height++) {
    // Mostly a few seconds a block; now and then a minute or several, and sometimes over an hour
    // (more than the 64 slots one block walks), so runs come due, queue up and carry over.
    // Steps of exactly an interval put a block at exactly `previous due + interval`.
    ts += BigInt(r.chance(0.5) ? 1 + r.int(3) : r.chance(0.25) ? r.pick([60, 90, 120, 150]) : r.chance(0.6) ? 20 + r.int(100) : r.chance(0.75) ? 120 + r.int(600) : 3900 + r.int(1500));
    // Now and then a jump of many heights, so that 500-block voting periods end within a run.
    chainHeight += gov ? BigInt(r.chance(0.1) ? 100 + r.int(300) : 1 + r.int(25)) : r.chance(0.12) ? BigInt(50 + r.int(300)) : 1n;
    const ctx = {
      height: chainHeight, timestamp: ts, proposer: addr(r.int(N_ACCOUNTS + 2)), gasPrice: BigInt(r.pick([0, 0, 1, 10, 7])),
      chainId: 1618032n, allowUnsigned: gov || !r.chance(0.1), blockGasLimit: !gov && r.chance(0.15) ? 150_000n : 10_000_000n,
    };
    const bundles: BundleInput[] = [];
    const nb = r.int(30);
    const pendingNonce = new Map<number, bigint>();
    if (!gov && r.chance(0.6)) bundles.push(makerBundle());
    if (r.chance(0.25)) bundles.push(governanceBundle(AUTHORITY, upgradeOp(height, true)));
    if (r.chance(0.25)) bundles.push(governanceBundle(PROPOSER, r.chance(0.8) ? upgradeOp(height, true) : rawOp(16, (w) => w.str(activeUpgrade() ?? 'v0.1.0'))));
    // TK3's setup by its owner (governance): short timelock, a cosigned threshold, a guardian and
    // three minters queued at block 1 and executed at block 4, so the mint rules are in play.
    if (height === 1 || height === 4) {
      const t3 = (w: W) => w.raw(mintOf(3));
      const ops: Op[] = height === 1 ? [
        rawOp(66, (w) => { t3(w); w.u64(2n); w.u128(10_000n); w.u8(1); w.vec(Uint8Array.from([...addr(1), ...addr(2)])); w.u8(0); }),
        rawOp(65, (w) => { t3(w); w.vec(Uint8Array.from([...addr(2), ...addr(3)])); }),
        ...[0, 1, 3].map((a) => rawOp(59, (w) => { t3(w); w.u8(0); w.raw(addr(a)); w.u128(60_000n); w.u128(25_000n); })),
      ] : [0, 1, 2].map((id) => rawOp(62, (w) => { t3(w); w.raw(w64(BigInt(id))); }));
      const acc = ref.get(accountKey(GOV));
      const nonce = pendingNonce.get(1_000_000) ?? (acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n);
      pendingNonce.set(1_000_000, nonce + 1n);
      bundles.push({ bytes: encodeBundle({ user: GOV, ops, nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: ts + 100n }), auth: 0 });
    }
    for (let k = 0; k < nb; k++) {
      if (gov) {
        // accounts 0–9 hold stake, 10 and 11 none; one proposal operation, now and then with a transfer after it
        const who = r.int(12);
        const user = addr(who);
        const acc = ref.get(accountKey(user));
        const nonce = pendingNonce.get(who) ?? (acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n);
        pendingNonce.set(who, nonce + 1n);
        const ops = [dao ? daoOp() : govOp(), ...(r.chance(0.1) ? [{ kind: 'transfer', to: addr(r.int(12)), token: NTV, amount: BigInt(r.int(3_000_000)) } as Op] : [])];
        bundles.push({ bytes: encodeBundle({ user, ops, nonce, maxGas: 200_000n, maxPriorityFee: 0n, validUntil: ts + 100_000n }), auth: 0 });
        continue;
      }
      if (seen.length > 0 && r.chance(0.1)) {
        bundles.push(seen[seen.length - 1 - r.int(Math.min(seen.length, r.chance(0.5) ? 8 : 40))]!);
        continue;
      }
      // a third of the senders hold stake (accounts 0–9), so proposals gather votes
      // the circle (accounts 0–5) acts more in the accounts seeds
      // now and then the STD-8 governance sender (GOV), whose operations are stablecoin ones
      const stableGov = accountsBias === 0 && r.chance(onboarding ? 0.25 : 0.07);
      const who = stableGov ? 1_000_000 : accountsBias > 0 && r.chance(0.6) ? r.int(6) : r.chance(0.2) ? r.int(10) : r.int(N_ACCOUNTS + 3);
      const user = stableGov ? GOV : addr(who);
      const acc = ref.get(accountKey(user));
      const base = pendingNonce.get(who) ?? (acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n);
      let nonce = base;
      if (r.chance(0.08)) nonce = base + 1n;
      else if (r.chance(0.05) && base > 0n) nonce = base - 1n;
      const ops: Op[] = [];
      // bundles signed by a key of the account's pool carry account operations more often, so an
      // operator key meets AddKey & co. (KEY_ROLE_NOT_ALLOWED)
      const auth0 = accountsBias > 0 && r.chance(0.25) ? 'signed-pool' : 'other';
      const nops = r.chance(0.03) ? 0 : r.chance(0.02) ? 65 : 1 + (r.chance(0.3) ? r.int(4) : 0);
      for (let o = 0; o < nops; o++) {
        if (accountsBias > 0 && r.chance(accountsBias)) {
          if (multisigs.length > 0 && r.chance(0.1)) ops.push({ kind: 'transfer', to: r.pick(multisigs), token: r.pick(TOKENS), amount: BigInt(r.int(500_000)) }); // fund a multi-sig
          else ops.push(accountOp(who, user));
        } else if (stableGov || (who < 4 && r.chance(0.3)) || r.chance(0.02)) {
          ops.push(stableOp());
        } else if (r.chance(0.06)) {
          const sym = r.pick(['abc', 'ABC', 'usdc', 'tk1', 'x-y', '', 'Q'.repeat(17), `S${created}`, `Z${r.int(5)}`]);
          ops.push({ kind: 'createToken', name: r.pick(['Name', '', 'N'.repeat(65), 'Ünïcode']), symbol: sym, decimals: r.pick([0, 6, 18, 19]), supply: BigInt(r.pick([0, 1, 1_000_000])), owner: addr(r.int(N_ACCOUNTS)) });
          created++;
        } else if (r.chance(0.04)) {
          // RegisterProgram (disc. 48): a few shared names (owner conflicts, replacements), bad
          // names, sizes around the 16,384-byte bound, and now and then non-UTF-8 JSON.
          const w = new W();
          w.str(r.pick(['dca', 'dca', 'tip-jar', 'my_prog', 'ab', 'Upper', '-lead', 'x'.repeat(65), `p${r.int(6)}-x`]));
          const size = r.pick([0, 1, 40, 300, 16384, 16385]);
          const json = new Uint8Array(size).fill(0x7b);
          if (size > 0 && r.chance(0.1)) json[0] = 0xff;
          w.vec(json);
          ops.push({ kind: 'raw', disc: 48, bytes: w.bytes() });
        } else if (r.chance(0.08)) {
          ops.push(createSchedule(user));
          // now and then cancelled again in the same bundle (the id is known before it exists)
          if (r.chance(0.1)) ops.push(rawOp(50, (w) => w.raw(ref.blake3(new TextEncoder().encode('schedule'), user, le64(nonce), Uint8Array.of(ops.length - 1, 0, 0, 0)))));
        } else if (r.chance(0.03)) {
          ops.push(cancelSchedule(user));
        } else if (r.chance(0.12)) {
          ops.push(approveOp(user));
        } else if (r.chance(0.16)) {
          ops.push(transferFromOp(user));
        // biome-ignore lint/suspicious/noDuplicateElseIf: r.chance() draws the next number of the seeded generator at each call, so an equal-looking condition is not a repeat
        } else if (accountsBias === 0 && r.chance(0.08)) {
          ops.push(launchpadOp());
        } else if (accountsBias === 0 && r.chance(0.05)) {
          ops.push(upgradeOp(height));
        } else if (accountsBias === 0 && r.chance(who < 10 ? 0.6 : 0.05)) {
          ops.push(govOp());
        } else if (r.chance(0.01)) {
          // reserved discriminants on both sides of every enabled range (0, 4–14, 28–69, 71–76, 119;
          // docs/bundle-format.md "Operation"), 119 itself with random bytes, and non-operations
          // (119, RotateConsensusKey, is enabled: random bytes are short, MALFORMED_BUNDLE, or NOT_VALIDATOR)
          ops.push({ kind: 'raw', disc: r.chance(0.15) ? 119 : r.pick([27, 82, 84, 93, 115, 118, 120, 200]), bytes: new Uint8Array(r.int(40)) });
        } else {
          const token = r.chance(0.05) ? mintOf(77) : r.pick(TOKENS);
          const bal = ref.get(balanceKey(user, token));
          const have = bal ? new DataView(bal.buffer, bal.byteOffset).getBigUint64(0, true) : 0n;
          const amount = r.pick([0n, 1n, BigInt(r.int(100_000)), have, have + 1n, have / 2n, BigInt(r.int(2_000_000))]);
          ops.push({ kind: 'transfer', to: r.chance(0.05) ? user : addr(r.int(N_ACCOUNTS + 5)), token, amount });
        }
      }
      let auth = 0;
      let keyHash: Uint8Array | undefined;
      let pubkey: Uint8Array | undefined;
      let signature: Uint8Array | undefined;
      let senderPubkey: Uint8Array | null = null;
      if (auth0 === 'signed-pool') {
        // a key of the account's pool: registered by AddKey, RotateKey or a recovery, or not (the
        // core decides: KEY_NOT_AUTHORIZED, KEY_ROLE_NOT_ALLOWED)
        auth = r.chance(0.8) ? 1 : 2;
        signature = new Uint8Array(auth === 1 ? 64 : 3309).fill(7);
        keyHash = sha(keyPool(who, r.chance(0.8) ? r.int(4) : 9, auth - 1)); // 9: the recovery key
      } else if (!stableGov && r.chance(0.2)) {
        auth = 1;
        signature = new Uint8Array(64).fill(7);
        if (revealed.has(who) || r.chance(0.3)) {
          keyHash = r.chance(0.9) ? user : addr(5000 + who);
          if (r.chance(0.5)) {
            pubkey = new Uint8Array(32).fill(who);
            senderPubkey = r.chance(0.9) ? pubkey : new Uint8Array(32).fill(1);
          }
        } else {
          keyHash = user;
          pubkey = new Uint8Array(32).fill(who);
          senderPubkey = pubkey;
        }
      }
      let bytes = encodeBundle({
        user, ops, nonce,
        maxGas: r.chance(0.05) ? 4999n : r.chance(0.05) ? 20_000n : r.chance(0.1) ? 200_000n : 100_000n,
        maxPriorityFee: BigInt(r.pick([0, 0, 3])),
        validUntil: r.chance(0.05) ? ts - 1n : ts + 100n,
        expiry: r.chance(0.1) ? (r.chance(0.5) ? ts : ts - 1n) : null,
        signature, senderPubkey,
      });
      if (r.chance(0.02)) bytes = Uint8Array.from([...bytes, 0]); // trailing byte
      if (r.chance(0.02)) bytes = bytes.subarray(0, r.int(bytes.length));
      if (r.chance(0.01)) auth = r.pick([0, 1, 2, 3]);
      bundles.push({ bytes, auth, keyHash, pubkey });
    }
    const got = core.applyBlock(ctx, bundles);
    const want = ref.applyBlock(ctx, bundles);
    for (let i = 0; i < bundles.length; i++) {
      const g = got.results[i]!, w = want.results[i]!;
      expect({ block: height, i, ...g }).toEqual({ block: height, i, ...w });
      statuses.set(g.status, (statuses.get(g.status) ?? 0) + 1);
      reach.statuses.add(g.status);
      if (g.status === 0 || g.status >= 64) seen.push(bundles[i]!);
      if (g.status === 0) {
        const who = Number(new DataView(bundles[i]!.bytes.buffer, bundles[i]!.bytes.byteOffset).getUint32(28, false));
        if (bundles[i]!.auth === 1) revealed.add(who);
      }
    }
    expect(got.gasUsed).toBe(want.gasUsed);
    expect(got.fees).toBe(want.fees);
    expect(got.events.length).toBe(want.events.length);
    // the reference's raw events through the same typed decoder
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    for (const e of want.events) if (e.kind === 16) reach.runStatus.add(e.data[68]! | (e.data[69]! << 8));
    reach.duePerBlock = Math.max(reach.duePerBlock, ref.lastDuePass.handled);
    reach.slotsWalked = Math.max(reach.slotsWalked, ref.lastDuePass.slots);
    if (r.chance(0.15)) {
      core.revertBlock();
      ref.revertBlock();
      expect(hex(core.stateRoot())).toBe(hex(ref.stateRoot()));
      continue;
    }
    c = core.commitBlock();
    rc = ref.commitBlock();
    expect(hex(c.stateRoot), `root at ${height}`).toBe(hex(rc.stateRoot));
    expect(c.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rc.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
    store.apply(c.writes);
    for (const e of want.events) if (e.kind === 17) schedules.push({ id: e.data.slice(0, 32), owner: e.data.slice(32, 64) });
    for (const e of want.events) if (e.kind === 42) multisigs.push(e.data.slice(0, 32));
    for (const e of want.events) if (e.kind >= 35 && e.kind <= 44) reach.accounts.add(e.kind);
    // key, recovery and multi-sig records of the senders (docs/accounts.md "State layout")
    for (let a = 0; a < N_ACCOUNTS; a++) {
      for (const k of [Uint8Array.from([0x50, ...addr(a)]), Uint8Array.from([0x51, ...addr(a)]), Uint8Array.from([0x52, ...addr(a)])]) {
        expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
      }
    }
    for (const ms of multisigs) {
      for (const k of [Uint8Array.from([0x53, ...ms]), Uint8Array.from([0x54, ...ms, 0, 0, 0, 0, 0, 0, 0, 0])]) {
        expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
      }
    }
    for (const e of want.events) if (e.kind === 20) stables.push(e.data.slice(0, 32));
    for (const e of want.events) if (e.kind === 24) { reach.proofs++; if (e.data[97]! >= 2) reach.proofsTwoOfThree++; }
    // the STD-8 records, token records (supply, flags) and profiles (docs/stablecoins.md "State layout")
    for (const m of stables) {
      for (const k of [Uint8Array.from([0x40, ...m]), Uint8Array.from([3, ...m]), Uint8Array.from([0x42, ...m]), Uint8Array.from([0x44, ...m])]) {
        expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
      }
    }
    // the schedule records and the due cursor (docs/core-abi.md 0x33, 0x35)
    for (const { id } of schedules) {
      const k = Uint8Array.from([0x33, ...id]);
      expect(core.get(k) && hex(core.get(k)!)).toEqual(hex(ref.get(k)!));
      reach.ended.add(ref.get(k)![34]!);
    }
    expect(core.get(Uint8Array.of(0x35)) && hex(core.get(Uint8Array.of(0x35))!)).toEqual(ref.get(Uint8Array.of(0x35)) && hex(ref.get(Uint8Array.of(0x35))!));
    for (let a = 0; a < N_ACCOUNTS + 5; a++) {
      for (const t of TOKENS) {
        const k = balanceKey(addr(a), t);
        expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
      }
      const k = accountKey(addr(a));
      expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
    }
    // the upgrade records (docs/upgrades.md 0x5D–0x5F)
    for (const name of upgradeNames) {
      const k = Uint8Array.from([0x5d, ...Buffer.from(name, 'latin1')]);
      expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
      const plan = ref.get(k);
      if (plan) reach.planStates.add(plan[1]!);
    }
    expect(core.get(Uint8Array.of(0x5f)) && hex(core.get(Uint8Array.of(0x5f))!)).toEqual(ref.get(Uint8Array.of(0x5f)) && hex(ref.get(Uint8Array.of(0x5f))!));
    // the program records and their list index (docs/core-abi.md 0x30–0x32)
    for (const name of ['dca', 'tip-jar', 'my_prog', ...Array.from({ length: 6 }, (_, i) => `p${i}-x`)]) {
      const k = programKey(name);
      expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
    }
    expect(listPrograms(core, 100).map((p) => [p.name, p.revision, hex(p.owner)])).toEqual(listPrograms(ref, 100).map((p) => [p.name, p.revision, hex(p.owner)]));
    // Now and then, continue on a fresh instance that reads the committed writes through kv_get.
    if (r.chance(0.1)) {
      core = await Core.create(store);
      expect(hex(core.stateRoot())).toBe(hex(rc.stateRoot));
    }
  }
  // the proposal records (0x58) and the safety records their executions wrote
  for (let id = 1n; id <= proposalCount() + 1n; id++) {
    const k = new Uint8Array(9);
    k[0] = 0x58;
    new DataView(k.buffer).setBigUint64(1, id, false);
    expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
  }
  // the DAO records (0x61) and their proposals (0x63)
  for (const d of createdAddresses(0x62, 'ntv-dao')) {
    const k = Uint8Array.from([0x61, ...d]);
    expect(core.get(k) && hex(core.get(k)!)).toEqual(ref.get(k) && hex(ref.get(k)!));
    for (let id = 1n; id <= BigInt(daoCount(d)); id++) {
      const pk = Uint8Array.from([0x63, ...d, ...new Uint8Array(8)]);
      new DataView(pk.buffer).setBigUint64(33, id, false);
      expect(core.get(pk) && hex(core.get(pk)!)).toEqual(ref.get(pk) && hex(ref.get(pk)!));
    }
  }
  for (const [key, v] of Object.entries(ref.daoReach)) reach.dao[key as keyof typeof reach.dao] += v;
  reach.govExecuted += ref.governanceReach.executed;
  reach.govCarried += ref.governanceReach.carried;
  reach.govSpent += ref.governanceReach.spent;
  reach.govSafety += ref.governanceReach.safety;
  reach.spent += ref.allowanceReach.spent;
  reach.spentInfinite += ref.allowanceReach.infinite;
  return statuses;
}

describe('core vs bigint reference (randomized)', () => {
  for (const seed of [11, 12, 13, 14, 15]) {
    it(`governance seed ${seed}: proposals, votes, executions and cancels agree with the reference`, async () => {
      await run(seed, 80, true);
    });
  }
  for (const seed of [21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]) {
    it(`DAO seed ${seed}: DAOs, proposals, locking votes, executions, cancels and unlocks agree with the reference`, async () => {
      await run(seed, 80, true, 0, true);
    });
  }
  it('the DAO seeds reach every DAO rule', () => {
    console.log(reach.dao, [...reach.statuses].filter((x) => x >= 245 && x <= 250).map(statusName));
    // Executions and unlocks are rarer at random (a whole balance locks per vote, so fewer proposals
    // reach quorum); test/core/dao.test.ts runs each rule against the same reference as well.
    for (const st of [Status.INVALID_DAO_CONFIG, Status.DAO_NOT_FOUND, Status.BELOW_PROPOSAL_THRESHOLD, Status.NO_LOCKED_VOTE, Status.EXECUTION_DELAY_PENDING,
      Status.VOTING_CLOSED, Status.NO_VOTING_POWER, Status.PROPOSAL_REJECTED, Status.NOT_PROPOSER, Status.INVALID_PROPOSAL_TEXT]) {
      expect(reach.statuses.has(st), statusName(st)).toBe(true);
    }
    expect(reach.dao.created, 'DAOs created').toBeGreaterThan(10);
    expect(reach.dao.votes, 'votes locked').toBeGreaterThan(20);
    expect(reach.dao.executed, 'DAO proposals executed').toBeGreaterThan(2);
    expect(reach.dao.carried, 'DAO proposals whose operations ran as the DAO').toBeGreaterThan(0);
    expect(reach.dao.unlocked, 'votes unlocked').toBeGreaterThan(0);
  });
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 22, 23, 24, 25, 26, 27, 28]) {
    it(`seed ${seed}: identical statuses, gas, fees, events, balances, nonces, writes and roots`, async () => {
      const statuses = await run(seed, 60);
      // the generator must reach most statuses
      if (seed === 1) console.log(Object.fromEntries([...statuses].map(([k, v]) => [statusName(k), v])));
      expect(statuses.size).toBeGreaterThan(12);
      expect(statuses.get(Status.ALREADY_INCLUDED) ?? 0, 'replayed failed bundles').toBeGreaterThan(0);
    });
  }
  // Sequences with issuer-onboarding proofs among the STD-8 operations (docs/stablecoins.md "Issuer onboarding").
  for (const seed of [41, 42, 43]) {
    it(`seed ${seed} (issuer onboarding): identical statuses, events, onboarding records, verification and roots`, async () => {
      await run(seed, 60, false, 0, false, true);
    });
  }
  // Sequences where most operations are key, recovery and multi-sig ones (docs/accounts.md).
  for (const seed of [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]) {
    it(`seed ${seed} (accounts): identical statuses, gas, fees, events, balances, nonces, writes and roots`, async () => {
      await run(seed, 100, false, 0.6);
    });
  }
  // Hard to reach at random (the maker keeps schedules active): with none active for over an hour
  // (more than the 64 slots one block walks), a new schedule restarts the cursor at its block's
  // slot and runs in that block (docs/schedules.md).
  it('an idle cursor restarts at the creating block\'s slot', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    const ref = await Reference.create();
    const user = addr(1);
    const genesis = { chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [] as string[],
      tokens: [{ mint: NTV, name: 'N', symbol: 'NTV', decimals: 9, kind: 0, creator: addr(999) }], balances: [{ account: user, mint: NTV, amount: 10n ** 12n }] };
    core.genesis(genesis);
    ref.genesis(genesis);
    store.apply(core.commitBlock().writes);
    ref.commitBlock();
    const once = (nonce: bigint, ts: bigint) => {
      const w = new W();
      w.u8(0); w.u64(60n); w.u32(1); w.u64(0n);
      encodeOps(w, [{ kind: 'transfer', to: addr(2), token: NTV, amount: 5n }]);
      return { bytes: encodeBundle({ user, ops: [{ kind: 'raw', disc: 49, bytes: w.bytes() }], nonce, maxGas: 100_000n, maxPriorityFee: 0n, validUntil: ts + 10n }), auth: 0 };
    };
    let runs = 0;
    for (const [height, ts] of [[1n, 1_700_000_060n], [2n, 1_700_009_000n]] as const) {
      const ctx = { height, timestamp: ts, proposer: addr(500), gasPrice: 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 10_000_000n };
      const bundles = [once(height - 1n, ts)];
      const got = core.applyBlock(ctx, bundles);
      const want = ref.applyBlock(ctx, bundles);
      expect(got.results).toEqual(want.results);
      expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
      runs += want.events.filter((e) => e.kind === 16).length;
      const c = core.commitBlock();
      expect(hex(c.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
      store.apply(c.writes);
      expect(runs).toBe(Number(height)); // each block runs the schedule it created
    }
  });
  it('the seeds reach every governance rule', () => {
    console.log({ executed: reach.govExecuted, carried: reach.govCarried, spent: reach.govSpent, safety: reach.govSafety, st: [...reach.statuses].filter((x) => x >= 230).map(statusName) });
    for (const st of [Status.INVALID_PROPOSAL_TEXT, Status.TREASURY_INSUFFICIENT, Status.INVALID_SAFETY_TARGET, Status.INVALID_PROPOSAL_OPERATIONS,
      Status.NO_VOTING_POWER, Status.PROPOSAL_NOT_FOUND, Status.VOTING_CLOSED, Status.ALREADY_VOTED, Status.VOTING_NOT_ENDED, Status.PROPOSAL_REJECTED,
      Status.PROPOSAL_NOT_EXECUTABLE, Status.NOT_PROPOSER, Status.PROPOSAL_NOT_CANCELLABLE, Status.NO_CHAIN_PARAMS]) {
      expect(reach.statuses.has(st), statusName(st)).toBe(true);
    }
    expect(reach.govExecuted, 'proposals executed').toBeGreaterThan(5);
    expect(reach.govCarried, 'proposals whose operations ran as GOVERNANCE').toBeGreaterThan(0);
    expect(reach.govSpent, 'treasury spends').toBeGreaterThan(0);
    expect(reach.govSafety, 'contract safety levels set').toBeGreaterThan(0);
  });
  it('the seeds reach every upgrade rule', () => {
    for (const st of [Status.INVALID_UPGRADE_NAME, Status.INVALID_UPGRADE_URL, Status.UPGRADE_HEIGHT_PASSED, Status.INVALID_UPGRADE_CHECKSUM,
      Status.UPGRADE_NAME_TAKEN, Status.UPGRADE_NOT_FOUND, Status.UPGRADE_NOT_PENDING,
      Status.UPGRADE_NOT_ACTIVE, Status.NOT_UPGRADE_AUTHORITY]) {
      expect(reach.statuses.has(st), `${statusName(st)} in ${[...reach.statuses].filter((x) => x >= 260 && x < 280).sort()} states ${[...reach.planStates]}`).toBe(true);
    }
    // (ALREADY_VOTED_UPGRADE needs full mode, where one vote does not decide: test/core/upgrades.test.ts)
    // pending, approved, rejected, expired, applied (a cancelled plan, 3, and a second approval of
    // one recovery, RECOVERY_ALREADY_APPROVED, are rare in the merged generator's draws: the targeted
    // tests test/core/upgrades.test.ts and test/core/accounts.test.ts drive both on purpose)
    console.log('upgrade statuses', [...reach.statuses].filter((x) => x >= 260 && x < 280).sort());
    expect([...reach.planStates].sort()).toEqual(expect.arrayContaining([0, 1, 2, 4, 5]));
  });
  it('the seeds reach the STD-8 rules', () => {
    // What the random sequences reach; test/core/stablecoins.test.ts drives every STD-8 status
    // (blacklisted parties, frozen minting, early execution, non-cosigners …) on purpose.
    const want = ['OK', 'NOT_STABLECOIN', 'NOT_GOVERNANCE', 'NOT_STABLE_OWNER', 'NOT_MASTER_MINTER', 'NOT_PAUSER',
      'NOT_BLACKLISTER', 'NOT_MINTER', 'NOT_STABLE_GUARDIAN', 'MINTER_ALLOWANCE_EXCEEDED', 'EPOCH_LIMIT_EXCEEDED', 'ZERO_ADDRESS_ROLE',
      'PENDING_NOT_FOUND', 'CANCEL_NOT_ALLOWED', 'INVALID_STABLE_CONFIG', 'SUPPLY_CAP_NOT_RAISED', 'MINTER_EXISTS', 'MINTER_NOT_FOUND', 'HANDOVER_PENDING',
      'NOT_FOUNDATION', 'PROOF_ALREADY_RECORDED', 'INVALID_ISSUER_PROOF'] as const;
    const missing = want.filter((n) => !reach.statuses.has(Status[n]));
    expect(missing).toEqual([]);
    // issuer onboarding: proofs recorded, and coins reaching two of three (Verified unless Issuer-Held)
    expect(reach.proofs, 'proofs recorded').toBeGreaterThan(5);
    expect(reach.proofsTwoOfThree, 'a second distinct proof').toBeGreaterThan(0);
  });
  it('the seeds reach every allowance rule', () => {
    for (const st of [Status.INSUFFICIENT_ALLOWANCE, Status.NATIVE_NOT_APPROVABLE]) expect(reach.statuses.has(st), statusName(st)).toBe(true);
    // allowances spent, finite and infinite (docs/allowances.md)
    expect(reach.spent, 'TransferFrom within a finite allowance').toBeGreaterThan(10);
    expect(reach.spentInfinite, 'TransferFrom on an infinite allowance').toBeGreaterThan(3);
  });
  it('the seeds reach every account, recovery and multi-sig rule', () => {
    for (const st of [Status.KEY_ROLE_NOT_ALLOWED, Status.INVALID_KEY, Status.INVALID_KEY_ROLE, Status.KEY_EXISTS, Status.KEY_NOT_FOUND, Status.LAST_OWNER_KEY,
      Status.INVALID_GUARDIANS, Status.INVALID_THRESHOLD, Status.INVALID_TIMELOCK, Status.RECOVERY_NOT_CONFIGURED, Status.NOT_GUARDIAN,
      Status.RECOVERY_PENDING, Status.NO_PENDING_RECOVERY, Status.RECOVERY_TIMELOCK_ELAPSED,
      Status.INVALID_SIGNERS, Status.INVALID_MULTISIG_FIELD, Status.MULTISIG_NOT_FOUND,
      Status.NOT_MULTISIG_SIGNER, Status.MULTISIG_TX_NOT_FOUND]) {
      expect(reach.statuses.has(st), `${statusName(st)} (reached: ${[...reach.statuses].filter((x) => x >= 200 || x === 19).map(statusName).join(' ')})`).toBe(true);
    }
    // (RECOVERY_ALREADY_APPROVED, RECOVERY_THRESHOLD_NOT_MET and NOT_APPROVED, a revoke without an
    // approval, became rare when the domains' generators were merged — as did UPGRADE_PLAN_ACTIVE, NOT_UPGRADE_VOTER and
    // TOKEN_PAUSED above; the targeted tests test/core/accounts.test.ts, upgrades.test.ts and
    // stablecoins.test.ts drive each of them in order)
    // keys added and removed, recovery set, initiated and finalized, multi-sigs created, proposals
    // updated and executed (the rarer paths, and every status in order, are in test/core/accounts.test.ts)
    for (const kind of [35, 36, 37, 38, 41, 42, 43, 44]) expect(reach.accounts.has(kind), `event ${kind}`).toBe(true);
  });
  it('the seeds reach every schedule rule', () => {
    console.log({ ...reach, runStatus: [...reach.runStatus].map(statusName), ended: [...reach.ended], statuses: undefined });
    for (const st of [Status.INVALID_SCHEDULE_TRIGGER, Status.INVALID_SCHEDULE_OPERATIONS, Status.SCHEDULE_NOT_FOUND, Status.NOT_SCHEDULE_OWNER, Status.SCHEDULE_NOT_ACTIVE]) {
      expect(reach.statuses.has(st), statusName(st)).toBe(true);
    }
    // runs that succeed, fail in an operation, miss the limit, and cannot pay
    for (const st of [Status.OK, Status.INSUFFICIENT_BALANCE, Status.SLIPPAGE_EXCEEDED, Status.INSUFFICIENT_FEE_BALANCE]) {
      expect(reach.runStatus.has(st), `a run with ${statusName(st)}`).toBe(true);
    }
    // active, completed, failed, expired, cancelled
    expect([...reach.ended].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(reach.duePerBlock, 'a block reaches the 32-entry bound').toBe(32);
    expect(reach.slotsWalked, 'a block reaches the 64-slot bound').toBe(64);
  });
});
