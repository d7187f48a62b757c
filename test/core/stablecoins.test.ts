// STD-8 stablecoins in the core (docs/stablecoins.md; spec §2.1, §3, §7 item 4): the lifecycle
// step by step and a table of every FiatToken negative case, each run on the wasm core and the
// bigint reference side by side (same status, events and state root), with the state checked
// unchanged after every refusal. The movement rules are checked on every shared path: Transfer,
// TransferFrom, the DEX (swap and liquidity) and a schedule run.
import { describe, expect, it } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { balanceKey, decodeBalance } from '../../src/core/records.js';
import { decodeStableCoinFields, decodeTokenFields, stableBlacklistKey, stableKey, stableProfileKey, decodeStableProfileFields, tokenKey, stableOnboardingKey, decodeStableOnboardingFields } from '../../src/abi/state.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status, statusName } from '../../src/core/status.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, encodeOps, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, type TwinCtx } from './harness.js';

const GOV = (() => { const a = new Uint8Array(32); a[31] = 9; return a; })();
const FOUNDATION = (() => { const a = new Uint8Array(32); a[31] = 3; return a; })();
const ZERO = new Uint8Array(32);
const U128 = (1n << 128n) - 1n;
const USDX = mintOf(1); // a genesis stablecoin (kind 2): governance holds its roles
const PLAIN = mintOf(2); // an STD-7 token
const OWNER = addr(1), MASTER = addr(2), PAUSER = addr(3), BLACKLISTER = addr(4), MINTER = addr(5), GUARD = addr(6);
const COSIG_A = addr(7), COSIG_B = addr(8), ALICE = addr(10), BOB = addr(11), MALLORY = addr(12), QMINTER = addr(13);

const op = (disc: number, f: (w: W) => void): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
const u64 = (v: bigint) => { const w = new W(); w.u64(v); return Uint8Array.from(w.bytes()); };
const accounts = (...a: Uint8Array[]) => Uint8Array.from(a.flatMap((x) => [...x]));
export const ops = {
  mint: (t: Uint8Array, to: Uint8Array, amount: bigint) => op(54, (w) => { w.raw(t); w.raw(to); w.u128(amount); }),
  burn: (t: Uint8Array, amount: bigint) => op(55, (w) => { w.raw(t); w.u128(amount); }),
  pause: (t: Uint8Array, p: boolean) => op(56, (w) => { w.raw(t); w.u8(p ? 1 : 0); }),
  blacklist: (t: Uint8Array, a: Uint8Array, add: boolean) => op(57, (w) => { w.raw(t); w.raw(a); w.u8(add ? 1 : 0); }),
  transferRole: (t: Uint8Array, role: number, to: Uint8Array) => op(58, (w) => { w.raw(t); w.u8(role); w.raw(to); }),
  minter: (t: Uint8Array, action: number, m: Uint8Array, allowance = 0n, limit = 0n) => op(59, (w) => { w.raw(t); w.u8(action); w.raw(m); w.u128(allowance); w.u128(limit); }),
  handover: (t: Uint8Array, r: Uint8Array[]) => op(60, (w) => { w.raw(t); for (const x of r) w.raw(x); }),
  cancel: (t: Uint8Array, id: bigint) => op(61, (w) => { w.raw(t); w.raw(u64(id)); }),
  execute: (t: Uint8Array, id: bigint) => op(62, (w) => { w.raw(t); w.raw(u64(id)); }),
  freeze: (t: Uint8Array) => op(63, (w) => w.raw(t)),
  unfreeze: (t: Uint8Array) => op(64, (w) => w.raw(t)),
  guardians: (t: Uint8Array, g: Uint8Array[]) => op(65, (w) => { w.raw(t); w.vec(accounts(...g)); }),
  security: (t: Uint8Array, timelock: bigint, threshold: bigint, signers: number, cos: Uint8Array[], quantum: boolean) =>
    op(66, (w) => { w.raw(t); w.u64(timelock); w.u128(threshold); w.u8(signers); w.vec(accounts(...cos)); w.u8(quantum ? 1 : 0); }),
  approveMint: (t: Uint8Array, id: bigint) => op(67, (w) => { w.raw(t); w.raw(u64(id)); }),
  raiseCap: (t: Uint8Array, cap: bigint) => op(68, (w) => { w.raw(t); w.u128(cap); }),
  verify: (t: Uint8Array) => op(69, (w) => w.raw(t)),
  proof: (t: Uint8Array, method: number, chainId: bigint, subject: Uint8Array, detail: string | Uint8Array, sig: Uint8Array) => op(70, (w) => {
    w.raw(t); w.u8(method); w.u64(chainId); w.raw(subject); w.vec(typeof detail === 'string' ? new TextEncoder().encode(detail) : detail); w.vec(sig);
  }),
  create: (c: { name?: string; symbol: string; decimals?: number; roles?: Uint8Array[]; guardians?: Uint8Array[]; origins?: Array<[string, string]>; cap?: bigint;
    quantum?: boolean; threshold?: bigint; signers?: number; cosigners?: Uint8Array[]; timelock?: bigint; epoch?: bigint }) => op(53, (w) => {
    w.str(c.name ?? 'USD X'); w.str(c.symbol); w.u8(c.decimals ?? 6); w.str('USD'); w.str('X Issuer');
    for (const r of c.roles ?? [OWNER, MASTER, PAUSER, BLACKLISTER]) w.raw(r);
    w.vec(accounts(...(c.guardians ?? [GUARD])));
    const o = new W();
    o.u32((c.origins ?? []).length);
    for (const [chain, contract] of c.origins ?? []) { o.str(chain); o.str(contract); }
    w.vec(o.bytes());
    w.u128(c.cap ?? 0n); w.u8(c.quantum ? 1 : 0); w.u128(c.threshold ?? 0n); w.u8(c.signers ?? 0);
    w.vec(accounts(...(c.cosigners ?? []))); w.u64(c.timelock ?? 0n); w.u64(c.epoch ?? 0n);
  }),
  transfer: (t: Uint8Array, to: Uint8Array, amount: bigint): Op => ({ kind: 'transfer', to, token: t, amount }),
  approve: (t: Uint8Array, spender: Uint8Array, amount: bigint) => op(51, (w) => { w.raw(t); w.raw(spender); w.u128(amount); }),
  transferFrom: (t: Uint8Array, from: Uint8Array, to: Uint8Array, amount: bigint) => op(52, (w) => { w.raw(t); w.raw(from); w.raw(to); w.u128(amount); }),
  createPool: (a: Uint8Array, b: Uint8Array, x: bigint, y: bigint) => op(28, (w) => { w.raw(a); w.raw(b); w.u128(x); w.u128(y); w.u64(0n); }),
  addLiquidity: (a: Uint8Array, b: Uint8Array, x: bigint, y: bigint) => op(29, (w) => { w.raw(a); w.raw(b); w.u128(x); w.u128(y); w.u128(0n); }),
  swap: (a: Uint8Array, b: Uint8Array, x: bigint) => op(31, (w) => { w.raw(a); w.raw(b); w.u128(x); w.u128(0n); }),
  schedule: (held: Op[]) => op(49, (w) => { w.u8(0); w.u64(60n); w.u32(1); w.u64(0n); encodeOps(w, held); }),
};

/** The canonical mint of a created stablecoin: Blake3("<first origin chain>_<SYMBOL>"), "std8_" without one. */
async function mintOfCreated(ref: Reference, symbol: string, chain = 'std8') {
  return ref.blake3(new TextEncoder().encode(`${chain}_${symbol}`));
}

async function setup() {
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  const everyone = [GOV, FOUNDATION, OWNER, MASTER, PAUSER, BLACKLISTER, MINTER, GUARD, COSIG_A, COSIG_B, ALICE, BOB, MALLORY, QMINTER];
  const genesis = {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: ['RSVD'],
    tokens: [
      { mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) },
      { mint: USDX, name: 'USD X', symbol: 'USDG', decimals: 6, kind: 2, creator: new Uint8Array(32).fill(0xff), originChain: 'ethereum', originContract: '0xabc' },
      { mint: PLAIN, name: 'Plain', symbol: 'PLN', decimals: 6, kind: 1, creator: new Uint8Array(32).fill(0xff) },
    ],
    balances: [
      ...everyone.map((a) => ({ account: a, mint: NTV, amount: 10n ** 15n })),
      ...[ALICE, BOB, MALLORY].flatMap((a) => [{ account: a, mint: USDX, amount: 1_000_000n }, { account: a, mint: PLAIN, amount: 10n ** 12n }]),
    ],
    stablecoins: [{ mint: USDX, currency: 'USD', issuer: 'Genesis Issuer', origins: [{ chain: 'ethereum', contract: '0xabc' }] }],
  };
  core.genesis(genesis);
  expect(ref.genesis(genesis)).toBe(0);
  const c0 = core.commitBlock();
  store.apply(c0.writes);
  expect(hex(c0.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
  const nonces = new Map<string, bigint>();
  let height = 0n;
  const state = {
    height: () => height,
    /** Empty blocks until `h` (so a timelock or an epoch can pass). */
    advanceTo(h: bigint) {
      while (height < h - 1n) { height++; run([]); }
    },
  };
  const ctx = (): TwinCtx => ({ height, timestamp: 1_700_000_000n + height * 2n, proposer: addr(500), gasPrice: 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n });
  function run(bundles: BundleInput[]) {
    const got = core.applyBlock(ctx(), bundles);
    const want = ref.applyBlock(ctx(), bundles);
    expect(got.results).toEqual(want.results);
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    const c = core.commitBlock();
    const rc = ref.commitBlock();
    expect(hex(c.stateRoot)).toBe(hex(rc.stateRoot));
    store.apply(c.writes);
    return { got, writes: c.writes };
  }
  /**
   * One bundle in its own block; returns its status and events. auth 2: an ML-DSA-65-signed bundle
   * revealing a key that hashes to the account (the host checked the signature).
   */
  function send(user: Uint8Array, list: Op[], auth: 0 | 1 | 2 = 0) {
    height++;
    const nonce = nonces.get(hex(user)) ?? 0n;
    const sig = auth === 0 ? undefined : new Uint8Array(auth === 1 ? 64 : 3309);
    const pk = auth === 0 ? undefined : new Uint8Array(auth === 1 ? 32 : 1952).fill(user[31]!);
    const bytes = encodeBundle({ user, ops: list, nonce, maxGas: 5_000_000n, maxPriorityFee: 0n, validUntil: 1_700_000_000n + height * 2n + 60n, signature: sig, senderPubkey: nonce === 0n ? pk : null });
    const { got } = run([{ bytes, auth, keyHash: auth ? user : undefined, pubkey: auth && nonce === 0n ? pk : undefined }]);
    const status = got.results[0]!.status;
    nonces.set(hex(user), nonce + 1n); // a failed bundle pays and is listed; the next one takes a fresh nonce
    if (status !== 0) nonces.set(hex(user), nonce); // failed: the nonce stays (spec §5.8)
    return { status, events: got.events.filter((e) => e.kind !== 'Fee' && e.kind !== 'KeyRegistered') };
  }
  const stable = (m: Uint8Array) => decodeStableCoinFields(store.get(stableKey(m))!);
  const token = (m: Uint8Array) => decodeTokenFields(store.get(tokenKey(m))!);
  const balance = (a: Uint8Array, t: Uint8Array) => decodeBalance(store.get(balanceKey(a, t)) ?? new Uint8Array(16));
  /** The whole ledger but fees and nonces: what a refused operation must leave unchanged. */
  const snapshot = () => [...store.map.entries()].filter(([k]) => !k.startsWith('01') && !k.startsWith('f0') && !k.startsWith('f1') && !k.startsWith('f2')
    && !(k.startsWith('02') && k.endsWith(hex(NTV)))).sort().map(([k, v]) => `${k}=${hex(v)}`).join('\n');
  return { core, ref, store, send, stable, token, balance, snapshot, state };
}

/** Set up a created stablecoin with minters and guardians, timelock 5, epoch length 10. */
async function lifecycleToken() {
  const env = await setup();
  const { send } = env;
  const mint = await mintOfCreated(env.ref, 'USDX', 'ethereum');
  expect(send(GOV, [ops.create({ symbol: 'USDX', origins: [['ethereum', '0xa0b8']], timelock: 5n, epoch: 10n, cap: 10_000_000n,
    threshold: 100_000n, signers: 2, cosigners: [COSIG_A, COSIG_B] })]).status).toBe(0);
  return { ...env, mint };
}

describe('STD-8 stablecoins in the core', () => {
  it('genesis stablecoins are full records held by governance, with their profiles', async () => {
    const { stable, store } = await setup();
    const s = stable(USDX);
    expect(s.owner).toEqual(GOV);
    expect(s.masterMinter).toEqual(GOV);
    expect(s.verification).toBe(0);
    expect(s.timelock).toBe(720n);
    expect(s.epochLength).toBe(720n);
    const p = decodeStableProfileFields(store.get(stableProfileKey(USDX))!);
    expect([p.currency, p.issuer, p.origins.map((o) => `${o.chain}:${o.contract}`)]).toEqual(['USD', 'Genesis Issuer', ['ethereum:0xabc']]);
    expect(store.get(stableKey(PLAIN))).toBeUndefined();
  });

  it('lifecycle: create, minters, epoch limit, pause, freeze, roles, cosigned mint, handover', async () => {
    const env = await lifecycleToken();
    const { send, stable, token, balance, mint, state } = env;
    expect(token(mint).kind).toBe(2);
    expect(stable(mint).guardians).toEqual([GUARD]);
    // a minter addition waits for the timelock
    const add = send(MASTER, [ops.minter(mint, 0, MINTER, 1_000_000n, 60_000n)]);
    expect(add.status).toBe(0);
    const queued = add.events[0] as { kind: string; pendingId: bigint; effectiveHeight: bigint };
    expect(queued.kind).toBe('StablePending');
    expect(send(ALICE, [ops.execute(mint, queued.pendingId)]).status).toBe(Status.PENDING_NOT_DUE);
    state.advanceTo(queued.effectiveHeight);
    expect(send(ALICE, [ops.execute(mint, queued.pendingId)]).status).toBe(0);
    expect(stable(mint).minters.map((m) => hex(m.minter))).toEqual([hex(MINTER)]);
    // mints within the epoch limit, then over it, then again in the next epoch
    expect(send(MINTER, [ops.mint(mint, ALICE, 50_000n)]).status).toBe(0);
    expect(balance(ALICE, mint)).toBe(50_000n);
    expect(send(MINTER, [ops.mint(mint, ALICE, 20_000n)]).status).toBe(Status.EPOCH_LIMIT_EXCEEDED);
    const epochLen = stable(mint).epochLength;
    state.advanceTo((state.height() / epochLen + 1n) * epochLen);
    expect(send(MINTER, [ops.mint(mint, ALICE, 20_000n)]).status).toBe(0);
    expect(token(mint).totalSupply).toBe(70_000n);
    expect(stable(mint).minters[0]!.allowance).toBe(930_000n);
    // pause blocks a transfer and a DEX swap, and minting; unpause restores them
    expect(send(ALICE, [ops.createPool(NTV, mint, 1_000_000n, 40_000n)]).status).toBe(0);
    expect(send(PAUSER, [ops.pause(mint, true)]).status).toBe(0);
    expect(send(ALICE, [ops.transfer(mint, BOB, 1n)]).status).toBe(Status.TOKEN_PAUSED);
    expect(send(ALICE, [ops.swap(NTV, mint, 1000n)]).status).toBe(Status.TOKEN_PAUSED);
    expect(send(ALICE, [ops.swap(mint, NTV, 1000n)]).status).toBe(Status.TOKEN_PAUSED);
    expect(send(MINTER, [ops.mint(mint, ALICE, 1n)]).status).toBe(Status.TOKEN_PAUSED);
    expect(send(PAUSER, [ops.pause(mint, false)]).status).toBe(0);
    expect(send(ALICE, [ops.swap(NTV, mint, 1000n)]).status).toBe(0);
    // guardian freeze (immediate) blocks minting only; only the owner unfreezes
    expect(send(GUARD, [ops.freeze(mint)]).status).toBe(0);
    expect(send(MINTER, [ops.mint(mint, ALICE, 1n)]).status).toBe(Status.MINT_FROZEN);
    expect(send(ALICE, [ops.transfer(mint, BOB, 1n)]).status).toBe(0);
    expect(send(GUARD, [ops.unfreeze(mint)]).status).toBe(Status.NOT_STABLE_OWNER);
    expect(send(OWNER, [ops.unfreeze(mint)]).status).toBe(0);
    // a role transfer applies only after the timelock; a guardian cancels another one
    const rt = send(OWNER, [ops.transferRole(mint, 2, BOB)]).events[0] as { pendingId: bigint; effectiveHeight: bigint };
    expect(send(BOB, [ops.pause(mint, true)]).status).toBe(Status.NOT_PAUSER);
    state.advanceTo(rt.effectiveHeight);
    expect(send(BOB, [ops.execute(mint, rt.pendingId)]).status).toBe(0);
    expect(stable(mint).pauser).toEqual(BOB);
    const rt2 = send(OWNER, [ops.transferRole(mint, 0, MALLORY)]).events[0] as { pendingId: bigint; effectiveHeight: bigint };
    expect(send(GUARD, [ops.cancel(mint, rt2.pendingId)]).status).toBe(0);
    state.advanceTo(rt2.effectiveHeight);
    expect(send(MALLORY, [ops.execute(mint, rt2.pendingId)]).status).toBe(Status.PENDING_NOT_FOUND);
    expect(stable(mint).owner).toEqual(OWNER);
    // a mint above the threshold waits for two of the cosigners (the epoch limit lifted first)
    expect(send(MASTER, [ops.minter(mint, 2, MINTER, 1_000_000n, 0n)]).status).toBe(0);
    const big = send(MINTER, [ops.mint(mint, BOB, 150_000n)]);
    expect(big.status).toBe(0);
    const pm = big.events[0] as { pendingId: bigint };
    expect(balance(BOB, mint)).toBe(1n);
    expect(send(MALLORY, [ops.approveMint(mint, pm.pendingId)]).status).toBe(Status.NOT_COSIGNER);
    expect(send(COSIG_A, [ops.approveMint(mint, pm.pendingId)]).status).toBe(0);
    expect(send(COSIG_A, [ops.approveMint(mint, pm.pendingId)]).status).toBe(Status.STABLE_ALREADY_APPROVED);
    expect(balance(BOB, mint)).toBe(1n);
    expect(send(COSIG_B, [ops.approveMint(mint, pm.pendingId)]).status).toBe(0);
    expect(balance(BOB, mint)).toBe(150_001n);
    // a handover moves the four roles at once after at least 720 blocks; the issuer becomes Issuer-Held
    const ho = send(OWNER, [ops.handover(mint, [ALICE, ALICE, ALICE, ALICE])]).events[0] as { pendingId: bigint; effectiveHeight: bigint };
    expect(ho.effectiveHeight - state.height()).toBe(720n);
    state.advanceTo(ho.effectiveHeight - 1n);
    expect(send(ALICE, [ops.execute(mint, ho.pendingId)]).status).toBe(Status.PENDING_NOT_DUE);
    expect(send(ALICE, [ops.execute(mint, ho.pendingId)]).status).toBe(0);
    const s = stable(mint);
    expect([s.owner, s.masterMinter, s.pauser, s.blacklister]).toEqual([ALICE, ALICE, ALICE, ALICE]);
    expect(s.verification).toBe(2);
  });

  it('the quantum requirement: a mint only from an ML-DSA-65-signed bundle', async () => {
    const { send, mint, state, balance } = await lifecycleToken();
    const id = (send(MASTER, [ops.minter(mint, 0, QMINTER, 1000n, 0n)]).events[0] as { pendingId: bigint; effectiveHeight: bigint });
    state.advanceTo(id.effectiveHeight);
    expect(send(ALICE, [ops.execute(mint, id.pendingId)]).status).toBe(0);
    expect(send(OWNER, [ops.security(mint, 5n, 100_000n, 2, [COSIG_A, COSIG_B], true)]).status).toBe(0);
    expect(send(QMINTER, [ops.mint(mint, ALICE, 10n)], 0).status).toBe(Status.QUANTUM_SIGNATURE_REQUIRED);
    expect(send(QMINTER, [ops.mint(mint, ALICE, 10n)], 1).status).toBe(Status.QUANTUM_SIGNATURE_REQUIRED);
    const qm = addr(14); // a fresh account whose first signed send reveals an ML-DSA-65 key
    const id2 = send(MASTER, [ops.minter(mint, 0, qm, 1000n, 0n)]).events[0] as { pendingId: bigint; effectiveHeight: bigint };
    state.advanceTo(id2.effectiveHeight);
    expect(send(ALICE, [ops.execute(mint, id2.pendingId)]).status).toBe(0);
    expect(send(GOV, [ops.transfer(NTV, qm, 10n ** 12n)]).status).toBe(0);
    expect(send(qm, [ops.mint(mint, ALICE, 10n)], 2).status).toBe(0);
    expect(balance(ALICE, mint)).toBe(10n);
  });

  it('pause and blacklist hold on every path that moves the token', async () => {
    const { send, snapshot } = await setup();
    // governance holds USDX's roles (genesis): blacklist MALLORY
    expect(send(GOV, [ops.blacklist(USDX, MALLORY, true)]).status).toBe(0);
    expect(send(ALICE, [ops.createPool(NTV, USDX, 10n ** 9n, 100_000n)]).status).toBe(0);
    expect(send(ALICE, [ops.approve(USDX, MALLORY, 1000n), ops.approve(USDX, BOB, 1000n)]).status).toBe(0);
    const refused: Array<[Uint8Array, Op, number]> = [
      [MALLORY, ops.transfer(USDX, BOB, 1n), Status.ADDRESS_BLACKLISTED],
      [ALICE, ops.transfer(USDX, MALLORY, 1n), Status.ADDRESS_BLACKLISTED],
      [BOB, ops.transferFrom(USDX, ALICE, MALLORY, 1n), Status.ADDRESS_BLACKLISTED],
      [MALLORY, ops.transferFrom(USDX, ALICE, BOB, 1n), Status.OK], // the spender is not a party; ALICE → BOB moves
      [MALLORY, ops.swap(USDX, NTV, 100n), Status.ADDRESS_BLACKLISTED],
      [MALLORY, ops.swap(NTV, USDX, 10_000_000n), Status.ADDRESS_BLACKLISTED],
      [MALLORY, ops.addLiquidity(NTV, USDX, 10_000n, 10n), Status.ADDRESS_BLACKLISTED],
      [MALLORY, ops.burn(USDX, 1n), Status.ADDRESS_BLACKLISTED],
    ];
    for (const [user, o, want] of refused) {
      const got = send(user, [o]).status;
      expect(statusName(got), statusName(want)).toBe(statusName(want));
    }
    // pause: every path, whoever moves
    expect(send(GOV, [ops.pause(USDX, true)]).status).toBe(0);
    const paused = snapshot();
    for (const [user, o] of [[ALICE, ops.transfer(USDX, BOB, 1n)], [BOB, ops.transferFrom(USDX, ALICE, BOB, 1n)], [ALICE, ops.swap(USDX, NTV, 100n)],
      [ALICE, ops.swap(NTV, USDX, 10_000_000n)], [ALICE, ops.addLiquidity(NTV, USDX, 10_000n, 10n)], [ALICE, ops.burn(USDX, 1n)]] as Array<[Uint8Array, Op]>) {
      expect(statusName(send(user, [o]).status)).toBe('TOKEN_PAUSED');
    }
    expect(snapshot()).toBe(paused);
    // NTV and other tokens are untouched by the pause
    expect(send(ALICE, [ops.transfer(NTV, BOB, 1n), ops.transfer(PLAIN, BOB, 1n)]).status).toBe(0);
  });

  it('every FiatToken negative case is refused with its rule and changes nothing', async () => {
    const env = await lifecycleToken();
    const { send, snapshot, mint, state } = env;
    const add = send(MASTER, [ops.minter(mint, 0, MINTER, 1_000n, 0n)]).events[0] as { pendingId: bigint; effectiveHeight: bigint };
    state.advanceTo(add.effectiveHeight);
    expect(send(ALICE, [ops.execute(mint, add.pendingId)]).status).toBe(0);
    expect(send(BLACKLISTER, [ops.blacklist(mint, MALLORY, true)]).status).toBe(0);
    const pendingRole = send(OWNER, [ops.transferRole(mint, 1, BOB)]).events[0] as { pendingId: bigint };
    const unknown = mintOf(99);
    const table: Array<[string, Uint8Array, Op, number]> = [
      ['executing a pending change early', ALICE, ops.execute(mint, pendingRole.pendingId), Status.PENDING_NOT_DUE],
      // a caller without the role, for each write
      ['mint by a non-minter', ALICE, ops.mint(mint, ALICE, 1n), Status.NOT_MINTER],
      ['pause by a non-pauser', ALICE, ops.pause(mint, true), Status.NOT_PAUSER],
      ['unpause by a non-pauser', OWNER, ops.pause(mint, false), Status.NOT_PAUSER],
      ['blacklist by a non-blacklister', ALICE, ops.blacklist(mint, BOB, true), Status.NOT_BLACKLISTER],
      ['role transfer by a non-owner', MASTER, ops.transferRole(mint, 0, ALICE), Status.NOT_STABLE_OWNER],
      ['minter change by a non-master-minter', OWNER, ops.minter(mint, 2, MINTER, 5n, 0n), Status.NOT_MASTER_MINTER],
      ['handover by a non-owner', GUARD, ops.handover(mint, [ALICE, ALICE, ALICE, ALICE]), Status.NOT_STABLE_OWNER],
      ['freeze by a non-guardian', OWNER, ops.freeze(mint), Status.NOT_STABLE_GUARDIAN],
      ['unfreeze by a guardian', GUARD, ops.unfreeze(mint), Status.NOT_STABLE_OWNER],
      ['guardians set by a non-owner', GUARD, ops.guardians(mint, [ALICE]), Status.NOT_STABLE_OWNER],
      ['security by a non-owner', MASTER, ops.security(mint, 5n, 0n, 0, [], false), Status.NOT_STABLE_OWNER],
      ['issuer verified by a non-governance account', OWNER, ops.verify(mint), Status.NOT_GOVERNANCE],
      // amounts
      ['a zero mint', MINTER, ops.mint(mint, ALICE, 0n), Status.ZERO_AMOUNT],
      ['a mint above the allowance', MINTER, ops.mint(mint, ALICE, 1_001n), Status.MINTER_ALLOWANCE_EXCEEDED],
      ['an overflowing mint', MINTER, ops.mint(mint, ALICE, U128), Status.MINTER_ALLOWANCE_EXCEEDED],
      ['a zero burn', ALICE, ops.burn(mint, 0n), Status.ZERO_AMOUNT],
      ['a burn above the balance', ALICE, ops.burn(mint, U128), Status.INSUFFICIENT_BALANCE],
      // blacklist
      ['a mint to a blacklisted address', MINTER, ops.mint(mint, MALLORY, 1n), Status.ADDRESS_BLACKLISTED],
      ['control: a permitted mint', MINTER, ops.mint(mint, ALICE, 1n), Status.OK],
      // unknown token, not a stablecoin
      ['an unknown token', PAUSER, ops.pause(unknown, true), Status.UNKNOWN_TOKEN],
      ['an STD-7 token', PAUSER, ops.pause(PLAIN, true), Status.NOT_STABLECOIN],
      // roles to the zero address
      ['a role transfer to the zero address', OWNER, ops.transferRole(mint, 2, ZERO), Status.ZERO_ADDRESS_ROLE],
      ['a handover to the zero address', OWNER, ops.handover(mint, [ALICE, ZERO, ALICE, ALICE]), Status.ZERO_ADDRESS_ROLE],
      ['a zero-address minter', MASTER, ops.minter(mint, 0, ZERO, 1n, 0n), Status.ZERO_ADDRESS_ROLE],
      // pending changes
      ['cancelling one that does not exist', OWNER, ops.cancel(mint, 999n), Status.PENDING_NOT_FOUND],
      ['cancelling by someone else', ALICE, ops.cancel(mint, pendingRole.pendingId), Status.CANCEL_NOT_ALLOWED],
      ['approving a mint that does not exist', COSIG_A, ops.approveMint(mint, 999n), Status.PENDING_NOT_FOUND],
      ['removing a minter that is not one', MASTER, ops.minter(mint, 1, BOB), Status.MINTER_NOT_FOUND],
      ['adding a minter twice', MASTER, ops.minter(mint, 0, MINTER, 1n), Status.MINTER_EXISTS],
      // supply cap: governance only, and only up
      ['the owner raising the supply cap', OWNER, ops.raiseCap(mint, 20_000_000n), Status.NOT_GOVERNANCE],
      ['governance lowering the supply cap', GOV, ops.raiseCap(mint, 5_000_000n), Status.SUPPLY_CAP_NOT_RAISED],
      // creation
      ['creating from a non-governance account', OWNER, ops.create({ symbol: 'NEWX' }), Status.NOT_GOVERNANCE],
      ['creating with a symbol already taken', GOV, ops.create({ symbol: 'usdx', origins: [['ethereum', '0x1']] }), Status.SYMBOL_TAKEN],
      ['creating with a symbol of a genesis token', GOV, ops.create({ symbol: 'PLN' }), Status.SYMBOL_TAKEN],
      ['creating with a bad symbol', GOV, ops.create({ symbol: 'x-y' }), Status.INVALID_SYMBOL],
      ['creating with more signers than cosigners', GOV, ops.create({ symbol: 'NEWY', threshold: 5n, signers: 2, cosigners: [ALICE] }), Status.INVALID_STABLE_CONFIG],
      ['creating with a duplicate guardian', GOV, ops.create({ symbol: 'NEWZ', guardians: [ALICE, ALICE] }), Status.INVALID_STABLE_CONFIG],
      ['creating with a zero role', GOV, ops.create({ symbol: 'NEWW', roles: [OWNER, ZERO, PAUSER, BLACKLISTER] }), Status.ZERO_ADDRESS_ROLE],
    ];
    for (const [what, user, o, want] of table) {
      const before = snapshot();
      const got = send(user, [o]).status;
      expect(statusName(got), what).toBe(statusName(want));
      if (want !== Status.OK) expect(snapshot(), `${what}: state unchanged`).toBe(before);
    }
    // a blacklisted minter cannot mint
    expect(send(BLACKLISTER, [ops.blacklist(mint, MINTER, true)]).status).toBe(0);
    const before = snapshot();
    expect(statusName(send(MINTER, [ops.mint(mint, ALICE, 1n)]).status)).toBe('ADDRESS_BLACKLISTED');
    expect(snapshot()).toBe(before);
    // paused and frozen block minting
    expect(send(BLACKLISTER, [ops.blacklist(mint, MINTER, false)]).status).toBe(0);
    expect(send(GUARD, [ops.freeze(mint)]).status).toBe(0);
    expect(statusName(send(MINTER, [ops.mint(mint, ALICE, 1n)]).status)).toBe('MINT_FROZEN');
    // a second pending handover
    expect(send(OWNER, [ops.handover(mint, [ALICE, ALICE, ALICE, ALICE])]).status).toBe(0);
    expect(statusName(send(OWNER, [ops.handover(mint, [BOB, BOB, BOB, BOB])]).status)).toBe('HANDOVER_PENDING');
    // the supply cap
    expect(send(OWNER, [ops.unfreeze(mint)]).status).toBe(0);
    expect(send(MASTER, [ops.minter(mint, 2, MINTER, U128, 0n)]).status).toBe(0);
    expect(statusName(send(MINTER, [ops.mint(mint, ALICE, 10_000_001n)]).status)).toBe('SUPPLY_CAP_EXCEEDED');
    expect(send(GOV, [ops.raiseCap(mint, 20_000_000n)]).status).toBe(0);
    expect(send(GOV, [ops.verify(mint)]).status).toBe(0);
    expect(env.stable(mint).verification).toBe(1);
  });

  it('the blacklist entries and token flags follow the blacklist', async () => {
    const { send, store, token } = await setup();
    expect(send(GOV, [ops.blacklist(USDX, MALLORY, true), ops.blacklist(USDX, BOB, true)]).status).toBe(0);
    expect(store.get(stableBlacklistKey(USDX, MALLORY))).toEqual(Uint8Array.of(1));
    expect(token(USDX).flags & 4).toBe(4);
    // the 0x43 index counts them by their last byte (MALLORY and BOB: addr(12), addr(11))
    const ix = store.get(Uint8Array.from([0x43, ...USDX]))!;
    expect([ix.length, ix[12 * 4], ix[11 * 4], ix[13 * 4]]).toEqual([1024, 1, 1, 0]);
    expect(send(GOV, [ops.blacklist(USDX, MALLORY, false), ops.blacklist(USDX, BOB, false)]).status).toBe(0);
    expect(store.get(stableBlacklistKey(USDX, MALLORY))).toBeUndefined();
    expect(token(USDX).flags & 4).toBe(0);
    expect(store.get(Uint8Array.from([0x43, ...USDX]))).toBeUndefined();
  });

  it('issuer onboarding: two of three proofs, recorded by the foundation, make the issuer Verified (spec §4.16)', async () => {
    const { send, stable, store, snapshot, state } = await setup();
    const admin = new Uint8Array(32); admin.fill(0xab, 12); // an EVM admin address in the last 20 bytes
    const digest = new Uint8Array(32).fill(0xcd);
    const sig = new Uint8Array(65).fill(7);
    const table: Array<[string, Uint8Array, Op, number]> = [
      ['a proof from an account that is not the foundation', OWNER, ops.proof(USDX, 1, 0n, digest, 'usdx.example', new Uint8Array(0)), Status.NOT_FOUNDATION],
      ['a proof for an STD-7 token', FOUNDATION, ops.proof(PLAIN, 1, 0n, digest, 'usdx.example', new Uint8Array(0)), Status.NOT_STABLECOIN],
      ['an admin signature without a chain id', FOUNDATION, ops.proof(USDX, 0, 0n, admin, '', sig), Status.INVALID_ISSUER_PROOF],
      ['an admin signature of 64 bytes', FOUNDATION, ops.proof(USDX, 0, 1n, admin, '', sig.slice(0, 64)), Status.INVALID_ISSUER_PROOF],
      ['an admin address wider than 20 bytes', FOUNDATION, ops.proof(USDX, 0, 1n, digest, '', sig), Status.INVALID_ISSUER_PROOF],
      ['an admin signature with detail', FOUNDATION, ops.proof(USDX, 0, 1n, admin, 'x', sig), Status.INVALID_ISSUER_PROOF],
      ['a domain proof without detail', FOUNDATION, ops.proof(USDX, 1, 0n, digest, '', new Uint8Array(0)), Status.INVALID_ISSUER_PROOF],
      ['a domain proof with a zero digest', FOUNDATION, ops.proof(USDX, 1, 0n, ZERO, 'usdx.example', new Uint8Array(0)), Status.INVALID_ISSUER_PROOF],
      ['a documents proof with 129 bytes of detail', FOUNDATION, ops.proof(USDX, 2, 0n, digest, 'd'.repeat(129), new Uint8Array(0)), Status.INVALID_ISSUER_PROOF],
      ['a documents proof with a signature', FOUNDATION, ops.proof(USDX, 2, 0n, digest, 'ref', sig), Status.INVALID_ISSUER_PROOF],
      ['a documents proof with bad UTF-8', FOUNDATION, ops.proof(USDX, 2, 0n, digest, Uint8Array.of(0xff), new Uint8Array(0)), Status.INVALID_ISSUER_PROOF],
    ];
    for (const [what, user, o, want] of table) {
      const before = snapshot();
      expect(statusName(send(user, [o]).status), what).toBe(statusName(want));
      expect(snapshot(), `${what}: state unchanged`).toBe(before);
    }
    expect(store.get(stableOnboardingKey(USDX))).toBeUndefined();
    // one proof: recorded, still Pending
    const first = send(FOUNDATION, [ops.proof(USDX, 0, 1n, admin, '', sig)]);
    expect(first.status).toBe(0);
    expect(first.events[0]).toMatchObject({ kind: 'StableIssuerProof', method: 0, proofs: 1, verification: 0 });
    expect(stable(USDX).verification).toBe(0);
    // the same method again
    const before = snapshot();
    expect(statusName(send(GOV, [ops.proof(USDX, 0, 5n, admin, '', sig)]).status)).toBe('PROOF_ALREADY_RECORDED');
    expect(snapshot()).toBe(before);
    // the second distinct proof (governance may record, as the keyless foundation acts on mainnet): Verified
    state.advanceTo(state.height() + 3n);
    const second = send(GOV, [ops.proof(USDX, 2, 0n, digest, 'Incorporation 2026-114', new Uint8Array(0))]);
    expect(second.status).toBe(0);
    expect(second.events[0]).toMatchObject({ kind: 'StableIssuerProof', method: 2, proofs: 2, verification: 1 });
    expect(stable(USDX).verification).toBe(1);
    // the third is still recorded; the record lists all three in order
    expect(send(FOUNDATION, [ops.proof(USDX, 1, 0n, digest, 'usdx.example', new Uint8Array(0))]).status).toBe(0);
    const rec = decodeStableOnboardingFields(store.get(stableOnboardingKey(USDX))!);
    expect(rec.proofs.map((p) => [p.method, hex(p.by), p.chainId, p.detail, p.signature.length])).toEqual([
      [0, hex(FOUNDATION), 1n, '', 65], [2, hex(GOV), 0n, 'Incorporation 2026-114', 0], [1, hex(FOUNDATION), 0n, 'usdx.example', 0]]);
    expect(rec.proofs[1]!.height).toBeGreaterThan(rec.proofs[0]!.height);
    expect(stable(USDX).verification).toBe(1);
  });

  it('issuer onboarding does not lower an Issuer-Held coin', async () => {
    const { send, stable, state } = await setup();
    const digest = new Uint8Array(32).fill(1);
    expect(send(GOV, [ops.handover(USDX, [OWNER, MASTER, PAUSER, BLACKLISTER])]).status).toBe(0);
    state.advanceTo(state.height() + 721n);
    expect(send(ALICE, [ops.execute(USDX, 0n)]).status).toBe(0);
    expect(stable(USDX).verification).toBe(2);
    expect(send(FOUNDATION, [ops.proof(USDX, 1, 0n, digest, 'a.example', new Uint8Array(0)), ops.proof(USDX, 2, 0n, digest, 'docs', new Uint8Array(0))]).status).toBe(0);
    expect(stable(USDX).verification).toBe(2);
  });
});
