// Account keys, guardian recovery and multi-sig in the core (docs/accounts.md): statuses in their
// documented order, roles at authorization, the timelock bounds of mainnet and testnet, key records
// and key_count, a multi-sig's all-or-nothing execution and the gas a proposal prepays. The random
// sequences of test/core/random.test.ts compare the same rules with the bigint reference.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { accountKey, decodeAccount, decodeKeyRecord, keyRecordKey } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import { multiSigTxKey, decodeMultiSigTxFields, keyListKey, pendingRecoveryKey } from '../../src/abi/state.js';
import { encodeBundle, encodeOps, addr, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig } from './harness.js';

const TS = 1_700_000_100n;
const sha = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const ctx = (over: Partial<BlockContext> = {}): BlockContext => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const raw = (disc: number, f: (w: W) => void): Op => {
  const w = new W();
  f(w);
  return { kind: 'raw', disc, bytes: w.bytes() };
};
const addKey = (pk: Uint8Array, kt: number, role: number) => raw(1, (w) => { w.vec(pk); w.u8(kt); w.u8(role); });
const removeKey = (h: Uint8Array) => raw(2, (w) => w.raw(h));
const rotateKey = (old: Uint8Array, pk: Uint8Array, kt: number) => raw(3, (w) => { w.raw(old); w.vec(pk); w.u8(kt); });
const list = (disc: number, accts: Uint8Array[], threshold: number, tail: (w: W) => void) => raw(disc, (w) => { w.u32(accts.length); for (const a of accts) w.raw(a); w.u8(threshold); tail(w); });
const setRecovery = (g: Uint8Array[], t: number, lock: bigint) => list(77, g, t, (w) => w.u64(lock));
const initiate = (a: Uint8Array, pk: Uint8Array) => raw(78, (w) => { w.raw(a); w.vec(pk); w.u8(0); });
const approveRec = (a: Uint8Array, h: Uint8Array) => raw(79, (w) => { w.raw(a); w.raw(h); });
const cancel = raw(80, () => {});
const finalize = (a: Uint8Array) => raw(81, (w) => w.raw(a));
const key = (n: number) => new Uint8Array(32).fill(n);

let nonces = new Map<string, bigint>();
let unique = 0n; // a bundle retried at the same nonce is new bytes, not ALREADY_INCLUDED
const bundle = (user: Uint8Array, ops: Op[], sig?: { keyHash: Uint8Array; auth?: number }): BundleInput => {
  const k = Buffer.from(user).toString('hex');
  const nonce = nonces.get(k) ?? 0n;
  const auth = sig ? sig.auth ?? 1 : 0;
  return {
    bytes: encodeBundle({ user, ops, nonce, maxGas: 2_000_000n, maxPriorityFee: 0n, validUntil: TS + 10_000_000n + unique++, signature: sig ? new Uint8Array(auth === 1 ? 64 : 3309) : undefined }),
    auth, keyHash: sig?.keyHash,
  };
};

async function setup() {
  nonces = new Map();
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  let height = 1n;
  const run = (bundles: BundleInput[], over: Partial<BlockContext> = {}) => {
    const r = core.applyBlock(ctx({ height: height++, ...over }), bundles);
    bundles.forEach((b, i) => {
      const st = r.results[i]!.status;
      if (st === Status.OK) {
        const user = Buffer.from(b.bytes.subarray(0, 32)).toString('hex');
        nonces.set(user, (nonces.get(user) ?? 0n) + 1n);
      }
    });
    store.apply(core.commitBlock().writes);
    return r;
  };
  return { core, run };
}

describe('keys (AddKey 1, RemoveKey 2, RotateKey 3)', () => {
  it('checks INVALID_KEY → INVALID_KEY_ROLE → KEY_EXISTS → TOO_MANY_KEYS; records the key with its block; counts keys', async () => {
    const { core, run } = await setup();
    const u = addr(1);
    const r = run([
      bundle(u, [addKey(new Uint8Array(31), 0, 0)]),
      bundle(u, [addKey(new Uint8Array(1952), 0, 0)]),
      bundle(u, [addKey(key(1), 2, 0)]),
      bundle(u, [addKey(key(1), 0, 2)]),
      bundle(u, [addKey(key(1), 0, 1)]),
    ], { height: 7n });
    expect(r.results.map((x) => x.status)).toEqual([Status.INVALID_KEY, Status.INVALID_KEY, Status.INVALID_KEY, Status.INVALID_KEY_ROLE, Status.OK]);
    expect(run([bundle(u, [addKey(key(1), 0, 0)])]).results[0]!.status).toBe(Status.KEY_EXISTS);
    expect(r.results[4]!.gasUsed).toBe(5_000n + 20_000n + 3n * 32n);
    expect(decodeKeyRecord(core.get(keyRecordKey(u, sha(key(1))))!)).toEqual({ keyType: 0, role: 1, pubkey: key(1), addedHeight: 7n, addedAt: TS });
    expect(decodeAccount(core.get(accountKey(u))!).keyCount).toBe(1);
    expect(r.events.find((e) => e.kind === 'KeyAdded')).toMatchObject({ account: u, keyHash: sha(key(1)), keyType: 0, role: 1 });
    // up to 8 keys; the 9th is TOO_MANY_KEYS; an ML-DSA-65 key of 1,952 bytes is accepted
    const more = run([bundle(u, [addKey(new Uint8Array(1952).fill(9), 1, 0), ...[2, 3, 4, 5, 6, 7].map((n) => addKey(key(n), 0, 0))])]);
    expect(more.results[0]!.status).toBe(Status.OK);
    expect(more.results[0]!.gasUsed).toBe(5_000n + 20_000n + 3n * 1952n + 6n * (20_000n + 96n));
    expect(run([bundle(u, [addKey(key(8), 0, 0)])]).results[0]!.status).toBe(Status.TOO_MANY_KEYS);
    expect(decodeAccount(core.get(accountKey(u))!).keyCount).toBe(8);
  });

  it('RemoveKey keeps an owner key; RotateKey swaps keeping the role; an operator key may not manage keys', async () => {
    const { core, run } = await setup();
    const u = addr(2);
    run([bundle(u, [addKey(key(1), 0, 0), addKey(key(2), 0, 1)])]);
    const r = run([
      bundle(u, [removeKey(sha(key(9)))]),
      bundle(u, [removeKey(sha(key(1)))]), // the only owner key
      bundle(u, [rotateKey(sha(key(9)), key(3), 0)]),
      bundle(u, [rotateKey(sha(key(1)), key(2), 0)]), // the new key is already registered
      bundle(u, [rotateKey(sha(key(2)), key(4), 0)]), // the operator key becomes key 4, an operator
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.KEY_NOT_FOUND, Status.LAST_OWNER_KEY, Status.KEY_NOT_FOUND, Status.KEY_EXISTS, Status.OK]);
    expect(core.get(keyRecordKey(u, sha(key(2))))).toBeUndefined();
    expect(decodeKeyRecord(core.get(keyRecordKey(u, sha(key(4))))!).role).toBe(1);
    // signed by the operator key: a transfer passes, AddKey is invalid (never included)
    const op = { keyHash: sha(key(4)) };
    const signed = run([bundle(u, [{ kind: 'transfer', to: addr(3), token: NTV, amount: 1n }], op), bundle(u, [addKey(key(5), 0, 0)], op), bundle(u, [cancel], op)]);
    expect(signed.results.map((x) => x.status)).toEqual([Status.OK, Status.KEY_ROLE_NOT_ALLOWED, Status.KEY_ROLE_NOT_ALLOWED]);
    expect(signed.results[1]!.gasUsed).toBe(0n);
    // the owner key removes the operator; its signature is then KEY_NOT_AUTHORIZED
    run([bundle(u, [removeKey(sha(key(4)))], { keyHash: sha(key(1)) })]);
    expect(run([bundle(u, [{ kind: 'transfer', to: addr(3), token: NTV, amount: 1n }], op)]).results[0]!.status).toBe(Status.KEY_NOT_AUTHORIZED);
    // an ML-DSA-65 signature by an Ed25519 key record is KEY_NOT_AUTHORIZED
    expect(run([bundle(u, [{ kind: 'transfer', to: addr(3), token: NTV, amount: 1n }], { keyHash: sha(key(1)), auth: 2 })]).results[0]!.status).toBe(Status.KEY_NOT_AUTHORIZED);
    expect(decodeAccount(core.get(accountKey(u))!).keyCount).toBe(1);
  });
});

describe('recovery (77–81)', () => {
  it('timelock bounds: 24 h–30 days on mainnet, 10 s–30 days on testnet; guardians and threshold checked first', async () => {
    const { run } = await setup();
    const u = addr(1);
    const g = [addr(2), addr(3), addr(4)];
    const statuses = (ops: Op[], over: Partial<BlockContext> = {}) => run(ops.map((op) => bundle(u, [op])), over).results.map((x) => x.status);
    expect(statuses([
      setRecovery([], 1, 86_400n), setRecovery([addr(2), addr(2)], 1, 86_400n), setRecovery([u], 1, 86_400n),
      setRecovery(Array.from({ length: 11 }, (_, i) => addr(100 + i)), 1, 86_400n),
      setRecovery(g, 0, 86_400n), setRecovery(g, 4, 0n), setRecovery(g, 2, 9n), setRecovery(g, 2, 2_592_001n),
    ])).toEqual([Status.INVALID_GUARDIANS, Status.INVALID_GUARDIANS, Status.INVALID_GUARDIANS, Status.INVALID_GUARDIANS, Status.INVALID_THRESHOLD, Status.INVALID_THRESHOLD, Status.INVALID_TIMELOCK, Status.INVALID_TIMELOCK]);
    // mainnet (no unsigned bundles): signed by a registered key, 10 s is too short, 24 h is the floor
    run([bundle(u, [addKey(key(1), 0, 0)])]);
    const signed = (op: Op) => run([bundle(u, [op], { keyHash: sha(key(1)) })], { allowUnsigned: false }).results[0]!.status;
    expect(signed(setRecovery(g, 2, 10n))).toBe(Status.INVALID_TIMELOCK);
    expect(signed(setRecovery(g, 2, 86_399n))).toBe(Status.INVALID_TIMELOCK);
    expect(signed(setRecovery(g, 2, 86_400n))).toBe(Status.OK);
    expect(statuses([setRecovery(g, 2, 10n)])).toEqual([Status.OK]); // testnet
  });

  it('initiate, approve, finalize in order; cancel only during the timelock; all keys replaced', async () => {
    const { core, run } = await setup();
    const u = addr(1);
    const [g1, g2, g3] = [addr(2), addr(3), addr(4)];
    run([bundle(u, [addKey(key(1), 0, 0), addKey(key(2), 0, 1), setRecovery([g1, g2, g3], 2, 100n)])]);
    const at = (dt: bigint, bundles: BundleInput[]) => run(bundles, { timestamp: TS + dt }).results.map((x) => x.status);
    expect(at(0n, [bundle(addr(9), [initiate(u, key(7))]), bundle(g1, [initiate(addr(8), key(7))]), bundle(g1, [initiate(u, new Uint8Array(33))])]))
      .toEqual([Status.NOT_GUARDIAN, Status.RECOVERY_NOT_CONFIGURED, Status.INVALID_KEY]);
    expect(at(10n, [bundle(g1, [initiate(u, key(7))]), bundle(g2, [initiate(u, key(6))]), bundle(u, [setRecovery([g1], 1, 100n)])]))
      .toEqual([Status.OK, Status.RECOVERY_PENDING, Status.RECOVERY_PENDING]);
    expect(at(20n, [bundle(g1, [approveRec(u, sha(key(7)))]), bundle(g2, [approveRec(u, sha(key(6)))]), bundle(addr(9), [approveRec(u, sha(key(7)))]), bundle(addr(9), [finalize(u)])]))
      .toEqual([Status.RECOVERY_ALREADY_APPROVED, Status.RECOVERY_KEY_MISMATCH, Status.NOT_GUARDIAN, Status.RECOVERY_TIMELOCK_ACTIVE]);
    expect(at(110n, [bundle(addr(9), [finalize(u)])])).toEqual([Status.RECOVERY_THRESHOLD_NOT_MET]); // timelock elapsed, one approval
    expect(at(110n, [bundle(u, [cancel])])).toEqual([Status.RECOVERY_TIMELOCK_ELAPSED]);
    expect(at(111n, [bundle(g3, [approveRec(u, sha(key(7)))]), bundle(addr(9), [finalize(u)]), bundle(addr(8), [finalize(u)])]))
      .toEqual([Status.OK, Status.OK, Status.NO_PENDING_RECOVERY]);
    expect(core.get(keyRecordKey(u, sha(key(1))))).toBeUndefined();
    expect(core.get(keyRecordKey(u, sha(key(2))))).toBeUndefined();
    expect(decodeKeyRecord(core.get(keyRecordKey(u, sha(key(7))))!)).toMatchObject({ role: 0, pubkey: key(7) });
    expect(core.get(keyListKey(u))).toEqual(sha(key(7)));
    expect(decodeAccount(core.get(accountKey(u))!).keyCount).toBe(1);
    expect(core.get(pendingRecoveryKey(u))).toBeUndefined();
    // a cancelled recovery: the owner stops it inside the timelock, nothing else changes
    expect(at(200n, [bundle(g2, [initiate(u, key(5))]), bundle(u, [cancel]), bundle(g1, [approveRec(u, sha(key(5)))])]))
      .toEqual([Status.OK, Status.OK, Status.NO_PENDING_RECOVERY]);
    expect(core.get(keyRecordKey(u, sha(key(5))))).toBeUndefined();
  });
});

describe('multi-sig (22–25)', () => {
  it('executes at the threshold, as the multi-sig, all or nothing; the proposal prepays its operations\' gas', async () => {
    const { core, run } = await setup();
    const [s1, s2, s3] = [addr(1), addr(2), addr(3)];
    const created = run([bundle(s1, [list(22, [s1, s2, s3], 2, (w) => w.str('treasury'))])]);
    const ms = created.events.find((e) => e.kind === 'MultiSigCreated')! as { account: Uint8Array };
    const msAddr = Uint8Array.from(ms.account);
    run([bundle(addr(4), [{ kind: 'transfer', to: msAddr, token: NTV, amount: 1000n }])]);
    const propose = (ops: Op[]) => raw(23, (w) => { w.raw(msAddr); encodeOps(w, ops); w.str('pay'); });
    const approve = (disc: number, id: bigint) => raw(disc, (w) => { w.raw(msAddr); w.u64(id); });
    const pay = (amount: bigint): Op => ({ kind: 'transfer', to: addr(7), token: NTV, amount });
    const p = run([bundle(s1, [propose([pay(100n)])])]);
    // 30,000 + 3 per byte of the held Vec (4 + 1 + 80) + the held Transfer's 16,000
    expect(p.results[0]!.gasUsed).toBe(5_000n + 30_000n + 3n * 85n + 16_000n);
    const r = run([bundle(addr(9), [approve(24, 0n)]), bundle(s1, [approve(24, 0n)]), bundle(s2, [approve(24, 5n)]), bundle(s3, [approve(25, 0n)])]);
    expect(r.results.map((x) => x.status)).toEqual([Status.NOT_MULTISIG_SIGNER, Status.ALREADY_APPROVED, Status.MULTISIG_TX_NOT_FOUND, Status.NOT_APPROVED]);
    const ok = run([bundle(s2, [approve(24, 0n)])]);
    expect(ok.results[0]!.gasUsed).toBe(5_000n + 20_000n);
    expect(ok.events.map((e) => e.kind)).toEqual(['MultiSigTxUpdated', 'Transfer', 'MultiSigTxExecuted']);
    expect(decodeMultiSigTxFields(core.get(multiSigTxKey(msAddr, 0n))!)).toMatchObject({ state: 1, status: 0 });
    expect(run([bundle(s3, [approve(24, 0n)])]).results[0]!.status).toBe(Status.MULTISIG_TX_NOT_PENDING);
    // one operation fails: the other is reverted with its event, the proposal is failed
    run([bundle(s1, [propose([pay(100n), pay(10_000n)])])]);
    const failed = run([bundle(s3, [approve(24, 1n)])]);
    expect(failed.results[0]!.status).toBe(Status.OK);
    expect(failed.events.map((e) => e.kind)).toEqual(['MultiSigTxUpdated', 'MultiSigTxExecuted']);
    expect(decodeMultiSigTxFields(core.get(multiSigTxKey(msAddr, 1n))!)).toMatchObject({ state: 2, status: Status.INSUFFICIENT_BALANCE });
    // a proposal expires 7 days after it was made
    run([bundle(s1, [propose([pay(1n)])])]);
    expect(run([bundle(s2, [approve(24, 2n)])], { timestamp: TS + 604_801n }).results[0]!.status).toBe(Status.MULTISIG_TX_EXPIRED);
    // key, recovery-configuration and multi-sig operations cannot be held
    expect(run([bundle(s1, [propose([addKey(key(1), 0, 0)])])]).results[0]!.status).toBe(Status.MALFORMED_BUNDLE);
    expect(run([bundle(s1, [list(22, [s1, s1], 1, (w) => w.str('x'))])]).results[0]!.status).toBe(Status.INVALID_SIGNERS);
    expect(run([bundle(s1, [list(22, [s1, s2], 3, (w) => w.str('x'))])]).results[0]!.status).toBe(Status.INVALID_THRESHOLD);
  });
});
