// The bigint reference model of the core (docs/core-abi.md): the same rules, the same state root,
// written plainly in TypeScript with bigint arithmetic and hash-wasm's Blake3. It is the oracle of
// the randomized tests and the baseline of bench/core.ts, so it stays straightforward and honest:
// string-keyed Maps, per-bundle overlays, no wasm.

import { createBLAKE3 } from 'hash-wasm';

type Hasher = Awaited<ReturnType<typeof createBLAKE3>>;

export const S = {
  OK: 0, MALFORMED_BUNDLE: 1, EMPTY_BUNDLE: 2, TOO_MANY_OPS: 3, OP_NOT_ENABLED: 4, UNSIGNED_NOT_ALLOWED: 5,
  KEY_NOT_AUTHORIZED: 6, PUBKEY_MISMATCH: 7, EXPIRED: 8, NONCE_TOO_LOW: 9, NONCE_TOO_HIGH: 10,
  MAX_GAS_TOO_LOW: 11, INSUFFICIENT_FEE_BALANCE: 12, BLOCK_GAS_LIMIT: 13, INVALID_GENESIS: 14, INVALID_INPUT: 15,
  OUT_OF_GAS: 64, INSUFFICIENT_BALANCE: 65, UNKNOWN_TOKEN: 66, ZERO_AMOUNT: 67, AMOUNT_OVERFLOW: 68,
  SYMBOL_RESERVED: 69, SYMBOL_TAKEN: 70, INVALID_SYMBOL: 71, INVALID_NAME: 72, INVALID_DECIMALS: 73, ZERO_SUPPLY: 74,
} as const;

const U128 = (1n << 128n) - 1n;
const GAS_BASE = 5000n, GAS_TRANSFER = 16000n, GAS_CREATE_TOKEN = 45000n;
const NTV = new Uint8Array(32);
const TREASURY = new Uint8Array(32);
TREASURY[31] = 3;

export interface RefCtx {
  height: bigint; timestamp: bigint; proposer: Uint8Array; gasPrice: bigint; chainId: bigint;
  allowUnsigned: boolean; blockGasLimit: bigint;
}
export interface RefBundleInput { bytes: Uint8Array; auth: number; keyHash?: Uint8Array; pubkey?: Uint8Array }
export interface RefResult { status: number; gasUsed: bigint; fee: bigint; nonce: bigint }
export interface RefEvent { bundleIndex: number; opIndex: number; kind: number; data: Uint8Array }
export interface RefGenesis {
  chainId: bigint; timestamp: bigint;
  tokens: Array<{ mint: Uint8Array; name: string; symbol: string; decimals: number; kind: number; creator: Uint8Array; originChain?: string; originContract?: string }>;
  balances: Array<{ account: Uint8Array; mint: Uint8Array; amount: bigint }>;
  reservedSymbols: string[];
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const cat = (...p: Uint8Array[]) => {
  const out = new Uint8Array(p.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of p) { out.set(x, o); o += x.length; }
  return out;
};
const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
function le(v: bigint, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) { out[i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}
function rdLe(b: Uint8Array, o: number, n: number): bigint {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!);
  return v;
}
const upper = (b: Uint8Array) => b.map((c) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c));
const utf8 = new TextEncoder();
function validUtf8(b: Uint8Array): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; }
}

class Malformed extends Error {}
class Reader {
  o = 0;
  constructor(readonly b: Uint8Array) {}
  take(n: number) { if (this.o + n > this.b.length) throw new Malformed(); const v = this.b.subarray(this.o, this.o + n); this.o += n; return v; }
  u8() { return this.take(1)[0]!; }
  u32() { return Number(rdLe(this.take(4), 0, 4)); }
  u64() { return rdLe(this.take(8), 0, 8); }
  u128() { return rdLe(this.take(16), 0, 16); }
  vec() { return this.take(this.u32()); }
  tag() { const t = this.u8(); if (t > 1) throw new Malformed(); return t === 1; }
}

type Op = { kind: 0; to: Uint8Array; token: Uint8Array; amount: bigint }
  | { kind: 33; name: Uint8Array; symbol: Uint8Array; decimals: number; supply: bigint; owner: Uint8Array };
interface Decoded { user: Uint8Array; ops: Op[]; maxGas: bigint; prio: bigint; validUntil: bigint; nonce: bigint; sigLen: number; expiry: bigint | null; pubkey: Uint8Array | null }

function decode(bytes: Uint8Array): Decoded | number {
  const r = new Reader(bytes);
  try {
    const user = r.take(32);
    const n = r.u32();
    if (n === 0) return S.EMPTY_BUNDLE;
    if (n > 64) return S.TOO_MANY_OPS;
    const ops: Op[] = [];
    for (let i = 0; i < n; i++) {
      const d = r.u8();
      if (d === 0) ops.push({ kind: 0, to: r.take(32), token: r.take(32), amount: r.u128() });
      else if (d === 33) {
        const name = r.vec();
        if (!validUtf8(name)) return S.MALFORMED_BUNDLE;
        const symbol = r.vec();
        if (!validUtf8(symbol)) return S.MALFORMED_BUNDLE;
        ops.push({ kind: 33, name, symbol, decimals: r.u8(), supply: r.u128(), owner: r.take(32) });
      } else if (d <= 119) return S.OP_NOT_ENABLED;
      else return S.MALFORMED_BUNDLE;
    }
    const maxGas = r.u64(), prio = r.u64(), validUntil = r.u64(), nonce = r.u64();
    const sigLen = r.vec().length;
    if (sigLen !== 0 && sigLen !== 64 && sigLen !== 3309) return S.MALFORMED_BUNDLE;
    const expiry = r.tag() ? r.u64() : null;
    let pubkey: Uint8Array | null = null;
    if (r.tag()) {
      pubkey = r.vec();
      if (pubkey.length !== 32 && pubkey.length !== 1952) return S.MALFORMED_BUNDLE;
    }
    if (r.o !== bytes.length) return S.MALFORMED_BUNDLE;
    return { user, ops, maxGas, prio, validUntil, nonce, sigLen, expiry, pubkey };
  } catch (e) {
    if (e instanceof Malformed) return S.MALFORMED_BUNDLE;
    throw e;
  }
}

function tokenRecord(name: Uint8Array, symbol: Uint8Array, decimals: number, supply: bigint, creator: Uint8Array,
  owner: Uint8Array, createdAt: bigint, height: bigint, kind: number, flags: number, oc: Uint8Array, ok: Uint8Array): Uint8Array {
  return cat(new Uint8Array([1]), le(BigInt(name.length), 4), name, le(BigInt(symbol.length), 4), symbol,
    new Uint8Array([decimals]), le(supply, 16), le(supply, 16), creator, owner, le(createdAt, 8), le(height, 8),
    new Uint8Array([kind, flags]), le(BigInt(oc.length), 4), oc, le(BigInt(ok.length), 4), ok);
}

export class Reference {
  /** committed state: hex(key) → value */
  readonly state = new Map<string, Uint8Array>();
  /** the open block's writes: hex(key) → value | null (deleted) */
  private block = new Map<string, Uint8Array | null>();
  /** the open bundle's writes */
  private bundle: Map<string, Uint8Array | null> | null = null;
  private buckets = new Map<number, Array<{ path: Uint8Array; leaf: Uint8Array }>>();
  private nodes = new Map<number, Uint8Array>();
  private root: Uint8Array = new Uint8Array(32);
  private constructor(
    private readonly h: Hasher,
    private readonly hLeaf: Hasher,
    private readonly hBucket: Hasher,
    private readonly hNode: Hasher,
  ) {}

  static async create(): Promise<Reference> {
    // K_x = Blake3("ntv.state-root.x"); the three tree hashes are Blake3 keyed_hash with them.
    const plain = await createBLAKE3();
    const k = (d: string) => {
      plain.init();
      plain.update(d);
      return plain.digest('binary');
    };
    return new Reference(
      await createBLAKE3(),
      await createBLAKE3(256, k('ntv.state-root.leaf')),
      await createBLAKE3(256, k('ntv.state-root.bucket')),
      await createBLAKE3(256, k('ntv.state-root.node')),
    );
  }

  private keyed(h: Hasher, ...parts: Uint8Array[]): Uint8Array {
    h.init();
    for (const p of parts) h.update(p);
    return h.digest('binary');
  }

  blake3(...parts: Uint8Array[]): Uint8Array {
    this.h.init();
    for (const p of parts) this.h.update(p);
    return this.h.digest('binary');
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const k = hex(key);
    if (this.bundle?.has(k)) return this.bundle.get(k) ?? undefined;
    if (this.block.has(k)) return this.block.get(k) ?? undefined;
    return this.state.get(k);
  }
  private put(key: Uint8Array, v: Uint8Array | null) {
    (this.bundle ?? this.block).set(hex(key), v);
  }
  private bal(a: Uint8Array, m: Uint8Array): bigint {
    const v = this.get(cat(new Uint8Array([2]), a, m));
    return v ? rdLe(v, 0, 16) : 0n;
  }
  private setBal(a: Uint8Array, m: Uint8Array, v: bigint) {
    const key = cat(new Uint8Array([2]), a, m);
    if (v === 0n && !this.get(key)) return; // deleting an absent key is not a write (as in the core)
    this.put(key, v === 0n ? null : le(v, 16));
  }

  genesis(c: RefGenesis): number {
    this.bundle = new Map();
    const st = this.genesisInner(c);
    if (st === S.OK) for (const [k, v] of this.bundle) this.block.set(k, v);
    this.bundle = null;
    return st;
  }
  private genesisInner(c: RefGenesis): number {
    const supply = new Map<string, bigint>();
    const recs = new Map<string, (s: bigint) => Uint8Array>();
    for (const t of c.tokens) {
      const sym = utf8.encode(t.symbol);
      if (sym.length === 0 || sym.length > 32 || t.decimals > 18) return S.INVALID_GENESIS;
      const tk = cat(new Uint8Array([3]), t.mint);
      const sk = cat(new Uint8Array([4]), upper(sym));
      if (this.get(tk)) return S.INVALID_GENESIS; // duplicate mint
      // A bridged asset may have several origins under one symbol: the first in genesis order owns it.
      const symbolFree = !this.get(sk);
      const mk = (s: bigint) => tokenRecord(utf8.encode(t.name), sym, t.decimals, s, t.creator, t.creator, c.timestamp, 0n,
        t.kind, 0, utf8.encode(t.originChain ?? ''), utf8.encode(t.originContract ?? ''));
      recs.set(hex(t.mint), mk);
      supply.set(hex(t.mint), 0n);
      this.put(tk, mk(0n));
      if (symbolFree) this.put(sk, t.mint);
    }
    for (const b of c.balances) {
      const m = hex(b.mint);
      if (!this.get(cat(new Uint8Array([3]), b.mint))) return S.INVALID_GENESIS;
      if (b.amount === 0n) continue;
      const nb = this.bal(b.account, b.mint) + b.amount;
      if (nb > U128) return S.AMOUNT_OVERFLOW;
      this.setBal(b.account, b.mint, nb);
      const ns = supply.get(m)! + b.amount;
      if (ns > U128) return S.AMOUNT_OVERFLOW;
      supply.set(m, ns);
      this.put(cat(new Uint8Array([3]), b.mint), recs.get(m)!(ns));
    }
    for (const s of c.reservedSymbols) {
      const sym = utf8.encode(s);
      if (sym.length === 0 || sym.length > 32) return S.INVALID_GENESIS;
      this.put(cat(new Uint8Array([5]), upper(sym)), new Uint8Array([1]));
    }
    return S.OK;
  }

  applyBlock(ctx: RefCtx, bundles: RefBundleInput[]) {
    const results: RefResult[] = [];
    const events: RefEvent[] = [];
    let blockGas = 0n;
    let fees = 0n;
    bundles.forEach((bi, index) => {
      const evs: RefEvent[] = [];
      const res = (status: number, nonce: bigint, gas = 0n, fee = 0n) => results.push({ status, gasUsed: gas, fee, nonce });
      const d = decode(bi.bytes);
      if (typeof d === 'number') return res(d, 0n);
      const user = d.user;
      const acct = this.get(cat(new Uint8Array([1]), user));
      const acctNonce = acct ? rdLe(acct, 0, 8) : 0n;
      let keyCount = acct ? Number(rdLe(acct, 8, 2)) : 0;
      const keyHash = bi.keyHash ?? new Uint8Array(32);
      const pk = bi.pubkey ?? new Uint8Array(0);
      const expect = bi.auth === 0 ? 0 : bi.auth === 1 ? 64 : 3309;
      if (bi.auth > 2 || expect !== d.sigLen) return res(S.MALFORMED_BUNDLE, d.nonce);
      let reveal = false;
      if (bi.auth === 0) {
        if (!ctx.allowUnsigned) return res(S.UNSIGNED_NOT_ALLOWED, d.nonce);
      } else {
        const kr = this.get(cat(new Uint8Array([6]), user, keyHash));
        if (kr) {
          if (kr[0] !== bi.auth - 1) return res(S.KEY_NOT_AUTHORIZED, d.nonce);
        } else if (keyCount === 0) {
          if (!eq(keyHash, user)) return res(S.PUBKEY_MISMATCH, d.nonce);
          const want = bi.auth === 1 ? 32 : 1952;
          if (!d.pubkey || d.pubkey.length !== want || pk.length !== want || !eq(pk, d.pubkey)) return res(S.PUBKEY_MISMATCH, d.nonce);
          reveal = true;
        } else return res(S.KEY_NOT_AUTHORIZED, d.nonce);
      }
      if (ctx.timestamp > d.validUntil || (d.expiry !== null && ctx.timestamp > d.expiry)) return res(S.EXPIRED, d.nonce);
      if (d.nonce < acctNonce) return res(S.NONCE_TOO_LOW, d.nonce);
      if (d.nonce > acctNonce) return res(S.NONCE_TOO_HIGH, d.nonce);
      if (d.maxGas < GAS_BASE) return res(S.MAX_GAS_TOO_LOW, d.nonce);
      let gas = GAS_BASE;
      for (const op of d.ops) gas += op.kind === 0 ? GAS_TRANSFER : GAS_CREATE_TOKEN;
      if (gas > d.maxGas) return res(S.OUT_OF_GAS, d.nonce);
      if (blockGas + gas > ctx.blockGasLimit) return res(S.BLOCK_GAS_LIMIT, d.nonce);
      const fee = gas * (ctx.gasPrice + d.prio);
      if (fee > U128 || this.bal(user, NTV) < fee) return res(S.INSUFFICIENT_FEE_BALANCE, d.nonce);

      this.bundle = new Map();
      let st: number = S.OK;
      if (reveal) {
        this.put(cat(new Uint8Array([6]), user, keyHash), cat(new Uint8Array([bi.auth - 1, 0]), le(BigInt(pk.length), 4), pk));
        keyCount = 1;
        evs.push({ bundleIndex: index, opIndex: 0xffff, kind: 2, data: cat(user, keyHash, new Uint8Array([bi.auth - 1])) });
      }
      if (fee > 0n) {
        this.setBal(user, NTV, this.bal(user, NTV) - fee);
        const toT = (fee * 20n) / 100n;
        const toP = fee - toT;
        const np = this.bal(ctx.proposer, NTV) + toP;
        if (np > U128) st = S.AMOUNT_OVERFLOW;
        else {
          this.setBal(ctx.proposer, NTV, np);
          const nt = this.bal(TREASURY, NTV) + toT;
          if (nt > U128) st = S.AMOUNT_OVERFLOW;
          else {
            this.setBal(TREASURY, NTV, nt);
            evs.push({ bundleIndex: index, opIndex: 0xffff, kind: 3, data: cat(user, ctx.proposer, le(toP, 16), TREASURY, le(toT, 16)) });
          }
        }
      }
      for (let k = 0; k < d.ops.length && st === S.OK; k++) st = this.execOp(ctx, d, d.ops[k]!, index, k, evs);
      const overlay = this.bundle;
      this.bundle = null;
      if (st !== S.OK) return res(st, d.nonce);
      for (const [k, v] of overlay) this.block.set(k, v);
      this.put(cat(new Uint8Array([1]), user), cat(le(d.nonce + 1n, 8), le(BigInt(keyCount), 2)));
      blockGas += gas;
      fees += fee;
      events.push(...evs);
      res(S.OK, d.nonce, gas, fee);
    });
    return { gasUsed: blockGas, fees, results, events };
  }

  private execOp(ctx: RefCtx, d: Decoded, op: Op, index: number, k: number, evs: RefEvent[]): number {
    const user = d.user;
    if (op.kind === 0) {
      if (op.amount === 0n) return S.ZERO_AMOUNT;
      if (!this.get(cat(new Uint8Array([3]), op.token))) return S.UNKNOWN_TOKEN;
      const fb = this.bal(user, op.token);
      if (fb < op.amount) return S.INSUFFICIENT_BALANCE;
      if (!eq(op.to, user)) {
        const tb = this.bal(op.to, op.token) + op.amount;
        if (tb > U128) return S.AMOUNT_OVERFLOW;
        this.setBal(op.to, op.token, tb);
        this.setBal(user, op.token, fb - op.amount);
      }
      evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(user, op.to, op.token, le(op.amount, 16)) });
      return S.OK;
    }
    if (op.name.length === 0 || op.name.length > 64) return S.INVALID_NAME;
    if (op.symbol.length === 0 || op.symbol.length > 16 || !/^[A-Za-z0-9]+$/.test(Buffer.from(op.symbol).toString('latin1'))) return S.INVALID_SYMBOL;
    if (op.decimals > 18) return S.INVALID_DECIMALS;
    if (op.supply === 0n) return S.ZERO_SUPPLY;
    const up = upper(op.symbol);
    if (this.get(cat(new Uint8Array([5]), up))) return S.SYMBOL_RESERVED;
    const sk = cat(new Uint8Array([4]), up);
    if (this.get(sk)) return S.SYMBOL_TAKEN;
    const mint = this.blake3(utf8.encode('std7-mint'), user, up, le(ctx.timestamp, 8), le(d.nonce, 8));
    const tk = cat(new Uint8Array([3]), mint);
    if (this.get(tk)) return S.SYMBOL_TAKEN;
    this.put(tk, tokenRecord(op.name, op.symbol, op.decimals, op.supply, user, op.owner, ctx.timestamp, ctx.height, 1, 1, new Uint8Array(0), new Uint8Array(0)));
    this.put(sk, mint);
    const ob = this.bal(op.owner, mint) + op.supply;
    if (ob > U128) return S.AMOUNT_OVERFLOW;
    this.setBal(op.owner, mint, ob);
    evs.push({ bundleIndex: index, opIndex: k, kind: 1, data: cat(mint, user, op.owner, le(op.supply, 16)) });
    return S.OK;
  }

  revertBlock() {
    this.block = new Map();
  }

  stateRoot() {
    return this.root;
  }

  private node(i: number) {
    return this.nodes.get(i) ?? new Uint8Array(32);
  }

  /** Commit: the same bucketed Merkle tree as the core (docs/core-abi.md "State root"). */
  commitBlock(): { stateRoot: Uint8Array; writes: Array<{ key: Uint8Array; value: Uint8Array | null }> } {
    const keys = [...this.block.keys()].sort((a, b) => Buffer.compare(unhex(a), unhex(b)));
    const writes: Array<{ key: Uint8Array; value: Uint8Array | null }> = [];
    const dirtyBuckets = new Set<number>();
    for (const k of keys) {
      const key = unhex(k);
      const v = this.block.get(k)!;
      if (v) this.state.set(k, v);
      else this.state.delete(k);
      writes.push({ key, value: v });
      const path = this.blake3(key);
      const b = (path[0]! << 8) | path[1]!;
      const list = this.buckets.get(b) ?? [];
      const i = list.findIndex((e) => Buffer.compare(e.path, path) >= 0);
      const at = i < 0 ? list.length : i;
      const found = at < list.length && eq(list[at]!.path, path);
      if (v) {
        const leaf = this.keyed(this.hLeaf, path, v);
        if (found) list[at]!.leaf = leaf;
        else list.splice(at, 0, { path, leaf });
      } else if (found) list.splice(at, 1);
      this.buckets.set(b, list);
      dirtyBuckets.add(b);
    }
    this.block = new Map();
    let level = new Set<number>();
    for (const b of [...dirtyBuckets].sort((x, y) => x - y)) {
      const list = this.buckets.get(b)!;
      const h = list.length === 0 ? new Uint8Array(32) : this.keyed(this.hBucket, ...list.flatMap((e) => [e.path, e.leaf]));
      this.nodes.set(65536 + b, h);
      level.add(65536 + b);
    }
    const dirtyNodes = new Set(level);
    while (level.size > 0 && !level.has(1)) {
      const next = new Set<number>();
      for (const i of level) next.add(i >> 1);
      for (const p of next) {
        const l = this.node(2 * p), r = this.node(2 * p + 1);
        const zero = l.every((x) => x === 0) && r.every((x) => x === 0);
        this.nodes.set(p, zero ? new Uint8Array(32) : this.keyed(this.hNode, l, r));
        dirtyNodes.add(p);
      }
      level = next;
    }
    this.root = this.node(1);
    for (const b of [...dirtyBuckets].sort((x, y) => x - y)) {
      const list = this.buckets.get(b)!;
      writes.push({ key: new Uint8Array([0xf0, b >> 8, b & 0xff]), value: list.length ? cat(...list.flatMap((e) => [e.path, e.leaf])) : null });
    }
    for (const i of [...dirtyNodes].sort((x, y) => x - y)) {
      if (i >= 4096) continue; // levels 12-16 are recomputed from the bucket records, not stored
      const h = this.node(i);
      const key = new Uint8Array(5);
      key[0] = 0xf1;
      new DataView(key.buffer).setUint32(1, i, false);
      writes.push({ key, value: h.every((x) => x === 0) ? null : h });
    }
    return { stateRoot: this.root, writes };
  }
}
