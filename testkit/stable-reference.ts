// The bigint reference of the STD-8 stablecoin rules (docs/stablecoins.md), written from the page
// with plain objects: the StableCoin record decoded whole, changed, encoded whole. Used by
// testkit/reference.ts (the Reference class hands it its state accessors).

export const SS = {
  UNKNOWN_TOKEN: 66, ZERO_AMOUNT: 67, AMOUNT_OVERFLOW: 68, INSUFFICIENT_BALANCE: 65, SYMBOL_TAKEN: 70, INVALID_SYMBOL: 71, INVALID_DECIMALS: 73,
  NOT_STABLECOIN: 150, TOKEN_PAUSED: 151, ADDRESS_BLACKLISTED: 152, NOT_GOVERNANCE: 153, NOT_STABLE_OWNER: 154, NOT_MASTER_MINTER: 155,
  NOT_PAUSER: 156, NOT_BLACKLISTER: 157, NOT_MINTER: 158, NOT_STABLE_GUARDIAN: 159, MINT_FROZEN: 160, MINTER_ALLOWANCE_EXCEEDED: 161,
  EPOCH_LIMIT_EXCEEDED: 162, SUPPLY_CAP_EXCEEDED: 163, QUANTUM_SIGNATURE_REQUIRED: 164, ZERO_ADDRESS_ROLE: 165, PENDING_NOT_DUE: 166,
  PENDING_NOT_FOUND: 167, NOT_COSIGNER: 168, STABLE_ALREADY_APPROVED: 169, CANCEL_NOT_ALLOWED: 170, STD8_LIMIT_REACHED: 171,
  INVALID_STABLE_CONFIG: 172, SUPPLY_CAP_NOT_RAISED: 173, MINTER_EXISTS: 174, MINTER_NOT_FOUND: 175, HANDOVER_PENDING: 176,
  NOT_FOUNDATION: 177, PROOF_ALREADY_RECORDED: 178, INVALID_ISSUER_PROOF: 179,
} as const;

const U128 = (1n << 128n) - 1n;
const GOV = new Uint8Array(32); GOV[31] = 9;
const FOUNDATION = new Uint8Array(32); FOUNDATION[31] = 3;
const ZERO = new Uint8Array(32);
const utf8 = new TextEncoder();

const cat = (...p: Uint8Array[]) => {
  const out = new Uint8Array(p.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of p) { out.set(x, o); o += x.length; }
  return out;
};
const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const isZero = (a: Uint8Array) => a.every((x) => x === 0);
function le(v: bigint, n: number) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn);
  return b;
}
function rd(b: Uint8Array, o: number, n: number) {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!);
  return v;
}

/** A little cursor over record or operation bytes. */
class Cur {
  o = 0;
  constructor(readonly b: Uint8Array) {}
  take(n: number) { const v = this.b.slice(this.o, this.o + n); if (v.length !== n) throw new Error('short'); this.o += n; return v; }
  u8() { return this.take(1)[0]!; }
  u32() { return Number(rd(this.take(4), 0, 4)); }
  u64() { return rd(this.take(8), 0, 8); }
  u128() { return rd(this.take(16), 0, 16); }
  vec() { return this.take(this.u32()); }
}

interface Minter { minter: Uint8Array; allowance: bigint; limit: bigint; epoch: bigint; minted: bigint }
interface Pending { id: bigint; kind: number; role: number; eff: bigint; proposer: Uint8Array; a: Uint8Array; b: Uint8Array; c: Uint8Array; d: Uint8Array; amount: bigint; amount2: bigint; approvals: number }
interface Stable {
  roles: Uint8Array[]; flags: number; verification: number; timelock: bigint; epochLength: bigint; threshold: bigint; signers: number;
  cap: bigint; blacklisted: bigint; nextId: bigint; createdHeight: bigint; guardians: Uint8Array[]; cosigners: Uint8Array[]; minters: Minter[]; pending: Pending[];
}

function decodeStable(v: Uint8Array): Stable {
  const c = new Cur(v);
  c.u8();
  const roles = [c.take(32), c.take(32), c.take(32), c.take(32)];
  const s: Stable = { roles, flags: c.u8(), verification: c.u8(), timelock: c.u64(), epochLength: c.u64(), threshold: c.u128(), signers: c.u8(),
    cap: c.u128(), blacklisted: c.u64(), nextId: c.u64(), createdHeight: c.u64(), guardians: [], cosigners: [], minters: [], pending: [] };
  for (let n = c.u32(); n > 0; n--) s.guardians.push(c.take(32));
  for (let n = c.u32(); n > 0; n--) s.cosigners.push(c.take(32));
  for (let n = c.u32(); n > 0; n--) s.minters.push({ minter: c.take(32), allowance: c.u128(), limit: c.u128(), epoch: c.u64(), minted: c.u128() });
  for (let n = c.u32(); n > 0; n--) {
    s.pending.push({ id: c.u64(), kind: c.u8(), role: c.u8(), eff: c.u64(), proposer: c.take(32), a: c.take(32), b: c.take(32), c: c.take(32), d: c.take(32),
      amount: c.u128(), amount2: c.u128(), approvals: c.u8() });
  }
  return s;
}
function encodeStable(s: Stable): Uint8Array {
  const list = (xs: Uint8Array[]) => cat(le(BigInt(xs.length), 4), ...xs);
  return cat(new Uint8Array([1]), ...s.roles, new Uint8Array([s.flags, s.verification]), le(s.timelock, 8), le(s.epochLength, 8), le(s.threshold, 16),
    new Uint8Array([s.signers]), le(s.cap, 16), le(s.blacklisted, 8), le(s.nextId, 8), le(s.createdHeight, 8),
    list(s.guardians), list(s.cosigners),
    list(s.minters.map((m) => cat(m.minter, le(m.allowance, 16), le(m.limit, 16), le(m.epoch, 8), le(m.minted, 16)))),
    list(s.pending.map((p) => cat(le(p.id, 8), new Uint8Array([p.kind, p.role]), le(p.eff, 8), p.proposer, p.a, p.b, p.c, p.d, le(p.amount, 16), le(p.amount2, 16), new Uint8Array([p.approvals])))));
}

/** The default record of a genesis stablecoin: governance holds the four roles. */
export function genesisStableRecord(): Uint8Array {
  return encodeStable({ roles: [GOV, GOV, GOV, GOV], flags: 0, verification: 0, timelock: 720n, epochLength: 720n, threshold: 0n, signers: 0, cap: 0n,
    blacklisted: 0n, nextId: 0n, createdHeight: 0n, guardians: [], cosigners: [], minters: [], pending: [] });
}
export function profileRecord(currency: Uint8Array, issuer: Uint8Array, origins: Uint8Array): Uint8Array {
  return cat(new Uint8Array([1]), le(BigInt(currency.length), 4), currency, le(BigInt(issuer.length), 4), issuer, le(0n, 4), origins.length ? origins : le(0n, 4));
}

/** What the reference offers the STD-8 rules: its state, balances and Blake3. */
export interface Host {
  get(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, v: Uint8Array | null): void;
  bal(a: Uint8Array, m: Uint8Array): bigint;
  setBal(a: Uint8Array, m: Uint8Array, v: bigint): void;
  blake3(...p: Uint8Array[]): Uint8Array;
}
export interface Ev { bundleIndex: number; opIndex: number; kind: number; data: Uint8Array }

const tokenKey = (m: Uint8Array) => cat(new Uint8Array([3]), m);
const stableKey = (m: Uint8Array) => cat(new Uint8Array([0x40]), m);
const blKey = (m: Uint8Array, a: Uint8Array) => cat(new Uint8Array([0x41]), m, a);

/** Offsets of TokenRecord.total_supply and .flags. */
function tokenOffsets(rec: Uint8Array) {
  const nl = Number(rd(rec, 1, 4));
  const sl = Number(rd(rec, 5 + nl, 4));
  const supply = 5 + nl + 4 + sl + 1;
  return { supply, flags: supply + 16 + 16 + 32 + 32 + 8 + 8 + 1 };
}

/** The movement rule (docs/stablecoins.md "Where the rules hold"): paused, then the blacklist; 0 = allowed. */
export function guard(h: Host, mint: Uint8Array, ...accounts: Uint8Array[]): number {
  if (isZero(mint)) return 0;
  const rec = h.get(tokenKey(mint));
  if (!rec) return 0;
  const f = rec[tokenOffsets(rec).flags]!;
  if (f & 2) return SS.TOKEN_PAUSED;
  if (f & 4) for (const a of accounts) if (h.get(blKey(mint, a))) return SS.ADDRESS_BLACKLISTED;
  return 0;
}

/** The operation's Borsh shape as the core's decoder checks it; the raw fields, or null (MALFORMED_BUNDLE). */
export function decodeStableOp(d: number, take: (n: number) => Uint8Array, u8: () => number, vec: () => Uint8Array, validUtf8: (b: Uint8Array) => boolean): Uint8Array | null {
  const parts: Uint8Array[] = [];
  const t = (n: number) => { const v = take(n); parts.push(v); return v; };
  const v = () => { const x = vec(); parts.push(le(BigInt(x.length), 4), x); return x; };
  const s = () => validUtf8(v());
  const byte = (max: number) => { const x = u8(); parts.push(new Uint8Array([x])); return x <= max; };
  const fixed: Record<number, [number, number, number] | number> = { 54: 80, 55: 48, 56: [32, 1, 33], 57: [64, 1, 65], 58: [32, 3, 65], 59: [32, 2, 97], 60: 160, 61: 40, 62: 40, 63: 32, 64: 32, 67: 40, 68: 48, 69: 32 };
  if (d === 53) {
    if (!s() || !s()) return null;
    t(1);
    if (!s() || !s()) return null;
    t(128); v(); v(); t(16);
    if (!byte(1)) return null;
    t(16); t(1); v(); t(16);
  } else if (d === 65) { t(32); v(); }
  else if (d === 66) { t(57); v(); if (!byte(1)) return null; }
  else if (d === 70) { t(32); if (!byte(2)) return null; t(40); v(); v(); }
  else {
    const f = fixed[d]!;
    if (typeof f === 'number') t(f);
    else { t(f[0]); if (!byte(f[1])) return null; t(f[2] - f[0] - 1); }
  }
  return cat(...parts);
}

const HEIGHT_MAX_TIMELOCK = 1_000_000n;

/** One STD-8 operation (53–70) on the reference state; `auth` is the bundle's (0 for a schedule run). */
export function execStableRef(h: Host, ctx: { height: bigint; timestamp: bigint }, auth: number, user: Uint8Array, d: number, f: Uint8Array, index: number, k: number, evs: Ev[]): number {
  const ev = (kind: number, ...data: Uint8Array[]) => evs.push({ bundleIndex: index, opIndex: k, kind, data: cat(...data) });
  const pendingEv = (by: Uint8Array, id: bigint, kind: number, outcome: number, eff: bigint) => ev(22, token, by, le(id, 8), new Uint8Array([kind, outcome]), le(eff, 8));
  const adminEv = (subject: Uint8Array, action: number, value: number) => ev(21, token, user, subject, new Uint8Array([action, value]));
  const c = new Cur(f);
  if (d === 53) return create(h, ctx, user, c, ev);
  const token = c.take(32);
  const trec = h.get(tokenKey(token));
  if (!trec) return SS.UNKNOWN_TOKEN;
  const sv = h.get(stableKey(token));
  if (!sv) return SS.NOT_STABLECOIN;
  const s = decodeStable(sv);
  const save = () => h.put(stableKey(token), encodeStable(s));
  const isOwner = eq(user, s.roles[0]!);
  const isGuardian = s.guardians.some((g) => eq(g, user));
  const tflags = () => { const r = h.get(tokenKey(token))!; return r[tokenOffsets(r).flags]!; };
  const setTflag = (bit: number, on: boolean) => {
    const r = h.get(tokenKey(token))!.slice();
    const o = tokenOffsets(r).flags;
    const nf = on ? r[o]! | bit : r[o]! & ~bit;
    if (nf !== r[o]) { r[o] = nf; h.put(tokenKey(token), r); }
  };
  const supply = () => { const r = h.get(tokenKey(token))!; return rd(r, tokenOffsets(r).supply, 16); };
  const setSupply = (v: bigint) => { const r = h.get(tokenKey(token))!.slice(); r.set(le(v, 16), tokenOffsets(r).supply); h.put(tokenKey(token), r); };
  const queue = (kind: number, eff: bigint): Pending | null => {
    if (s.pending.length >= 16) return null;
    const p: Pending = { id: s.nextId, kind, role: 0, eff, proposer: user, a: ZERO, b: ZERO, c: ZERO, d: ZERO, amount: 0n, amount2: 0n, approvals: 0 };
    s.nextId++;
    s.pending.push(p);
    pendingEv(user, p.id, kind, 0, eff);
    return p;
  };
  const mintState = (minter: Uint8Array, to: Uint8Array) => {
    if (h.get(blKey(token, minter)) || h.get(blKey(token, to))) return SS.ADDRESS_BLACKLISTED;
    if (tflags() & 2) return SS.TOKEN_PAUSED;
    if (s.flags & 1) return SS.MINT_FROZEN;
    return 0;
  };
  const limits = (m: Minter, amount: bigint) => {
    if (m.allowance < amount) return SS.MINTER_ALLOWANCE_EXCEEDED;
    const epoch = ctx.height / s.epochLength;
    if (m.limit !== 0n && (m.epoch === epoch ? m.minted : 0n) + amount > m.limit) return SS.EPOCH_LIMIT_EXCEEDED;
    if (supply() + amount > U128) return SS.AMOUNT_OVERFLOW;
    if (s.cap !== 0n && supply() + amount > s.cap) return SS.SUPPLY_CAP_EXCEEDED;
    return 0;
  };
  const doMint = (m: Minter, to: Uint8Array, amount: bigint) => {
    m.allowance -= amount;
    const epoch = ctx.height / s.epochLength;
    if (m.epoch !== epoch) { m.epoch = epoch; m.minted = 0n; }
    m.minted += amount;
    setSupply(supply() + amount);
    const nb = h.bal(to, token) + amount;
    if (nb > U128) return SS.AMOUNT_OVERFLOW;
    h.setBal(to, token, nb);
    ev(0, ZERO, to, token, le(amount, 16));
    return 0;
  };

  switch (d) {
    case 54: { // StableMint
      const to = c.take(32), amount = c.u128();
      if (amount === 0n) return SS.ZERO_AMOUNT;
      let st = mintState(user, to);
      if (st) return st;
      const m = s.minters.find((x) => eq(x.minter, user));
      if (!m) return SS.NOT_MINTER;
      if ((s.flags & 2) && auth !== 2) return SS.QUANTUM_SIGNATURE_REQUIRED;
      st = limits(m, amount);
      if (st) return st;
      if (s.threshold !== 0n && amount > s.threshold) {
        const p = queue(3, ctx.height);
        if (!p) return SS.STD8_LIMIT_REACHED;
        p.a = user; p.b = to; p.amount = amount;
      } else {
        st = doMint(m, to, amount);
        if (st) return st;
      }
      save();
      return 0;
    }
    case 55: { // StableBurn
      const amount = c.u128();
      if (amount === 0n) return SS.ZERO_AMOUNT;
      const g = guard(h, token, user);
      if (g) return g;
      const b = h.bal(user, token);
      if (b < amount) return SS.INSUFFICIENT_BALANCE;
      h.setBal(user, token, b - amount);
      setSupply(supply() - amount);
      ev(0, user, ZERO, token, le(amount, 16));
      return 0;
    }
    case 56: { // StablePause
      const pause = c.u8() === 1;
      if (!eq(user, s.roles[2]!)) return SS.NOT_PAUSER;
      setTflag(2, pause);
      adminEv(ZERO, 0, pause ? 1 : 0);
      return 0;
    }
    case 57: { // StableBlacklist
      const account = c.take(32), add = c.u8() === 1;
      if (!eq(user, s.roles[3]!)) return SS.NOT_BLACKLISTER;
      const was = !!h.get(blKey(token, account));
      if (add !== was) {
        if (add) { h.put(blKey(token, account), new Uint8Array([1])); s.blacklisted++; } else { h.put(blKey(token, account), null); s.blacklisted--; }
        // 0x43: blacklisted addresses per last address byte, 256 × u32; deleted with the last entry
        const ik = cat(new Uint8Array([0x43]), token);
        if (s.blacklisted === 0n) h.put(ik, null);
        else {
          const ix = (h.get(ik) ?? new Uint8Array(1024)).slice();
          const o = account[31]! * 4;
          ix.set(le(rd(ix, o, 4) + (add ? 1n : -1n), 4), o);
          h.put(ik, ix);
        }
      }
      setTflag(4, s.blacklisted > 0n);
      adminEv(account, 1, add ? 1 : 0);
      save();
      return 0;
    }
    case 58: { // StableTransferRole
      const role = c.u8(), to = c.take(32);
      if (!isOwner) return SS.NOT_STABLE_OWNER;
      if (isZero(to)) return SS.ZERO_ADDRESS_ROLE;
      const p = queue(0, ctx.height + s.timelock);
      if (!p) return SS.STD8_LIMIT_REACHED;
      p.role = role; p.a = to;
      save();
      return 0;
    }
    case 59: { // StableConfigureMinter
      const action = c.u8(), minter = c.take(32), allowance = c.u128(), limit = c.u128();
      if (!eq(user, s.roles[1]!)) return SS.NOT_MASTER_MINTER;
      if (isZero(minter)) return SS.ZERO_ADDRESS_ROLE;
      const i = s.minters.findIndex((x) => eq(x.minter, minter));
      if (action === 0) {
        if (i >= 0) return SS.MINTER_EXISTS;
        const p = queue(1, ctx.height + s.timelock);
        if (!p) return SS.STD8_LIMIT_REACHED;
        p.a = minter; p.amount = allowance; p.amount2 = limit;
        save();
        return 0;
      }
      if (i < 0) return SS.MINTER_NOT_FOUND;
      if (action === 1) s.minters.splice(i, 1);
      else { s.minters[i]!.allowance = allowance; s.minters[i]!.limit = limit; }
      ev(23, token, user, minter, new Uint8Array([action]), le(allowance, 16), le(limit, 16));
      save();
      return 0;
    }
    case 60: { // StableHandover
      const roles = [c.take(32), c.take(32), c.take(32), c.take(32)];
      if (!isOwner) return SS.NOT_STABLE_OWNER;
      if (roles.some(isZero)) return SS.ZERO_ADDRESS_ROLE;
      if (s.pending.some((p) => p.kind === 2)) return SS.HANDOVER_PENDING;
      const p = queue(2, ctx.height + (s.timelock < 720n ? 720n : s.timelock));
      if (!p) return SS.STD8_LIMIT_REACHED;
      [p.a, p.b, p.c, p.d] = roles as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
      save();
      return 0;
    }
    case 61: { // StableCancelPending
      const id = c.u64();
      const i = s.pending.findIndex((p) => p.id === id);
      if (i < 0) return SS.PENDING_NOT_FOUND;
      const p = s.pending[i]!;
      let ok = isGuardian || isOwner;
      if (p.kind === 2) ok = ok || eq(user, FOUNDATION) || eq(user, GOV);
      if (p.kind === 3) ok = ok || eq(user, s.roles[1]!);
      if (!ok) return SS.CANCEL_NOT_ALLOWED;
      s.pending.splice(i, 1);
      pendingEv(user, id, p.kind, 2, p.eff);
      save();
      return 0;
    }
    case 62: { // StableExecutePending
      const id = c.u64();
      const i = s.pending.findIndex((p) => p.id === id);
      if (i < 0 || s.pending[i]!.kind === 3) return SS.PENDING_NOT_FOUND;
      const p = s.pending[i]!;
      if (ctx.height < p.eff) return SS.PENDING_NOT_DUE;
      if (p.kind === 0) { s.roles[p.role] = p.a; adminEv(p.a, 7, p.role); }
      else if (p.kind === 1) {
        if (s.minters.some((x) => eq(x.minter, p.a))) return SS.MINTER_EXISTS;
        if (s.minters.length >= 16) return SS.STD8_LIMIT_REACHED;
        s.minters.push({ minter: p.a, allowance: p.amount, limit: p.amount2, epoch: 0n, minted: 0n });
        ev(23, token, user, p.a, new Uint8Array([0]), le(p.amount, 16), le(p.amount2, 16));
      } else { s.roles = [p.a, p.b, p.c, p.d]; s.verification = 2; }
      s.pending.splice(i, 1);
      pendingEv(user, id, p.kind, 1, p.eff);
      save();
      return 0;
    }
    case 63: case 64: { // StableFreezeMint / StableUnfreezeMint
      const freeze = d === 63;
      if (freeze ? !isGuardian : !isOwner) return freeze ? SS.NOT_STABLE_GUARDIAN : SS.NOT_STABLE_OWNER;
      s.flags = freeze ? s.flags | 1 : s.flags & ~1;
      adminEv(ZERO, 2, freeze ? 1 : 0);
      save();
      return 0;
    }
    case 65: { // StableSetGuardians
      const g = c.vec();
      if (!isOwner) return SS.NOT_STABLE_OWNER;
      const list = accounts(g, 8);
      if (!list) return SS.INVALID_STABLE_CONFIG;
      s.guardians = list;
      adminEv(ZERO, 3, list.length);
      save();
      return 0;
    }
    case 66: { // StableConfigureSecurity
      const timelock = c.u64(), threshold = c.u128(), signers = c.u8(), cs = c.vec(), quantum = c.u8();
      if (!isOwner) return SS.NOT_STABLE_OWNER;
      const list = accounts(cs, 8);
      if (!list) return SS.INVALID_STABLE_CONFIG;
      if (timelock === 0n || timelock > HEIGHT_MAX_TIMELOCK || signers > list.length || (threshold !== 0n && signers === 0)) return SS.INVALID_STABLE_CONFIG;
      s.timelock = timelock; s.threshold = threshold; s.signers = signers; s.cosigners = list;
      s.flags = quantum ? s.flags | 2 : s.flags & ~2;
      for (const p of s.pending) p.approvals = 0;
      adminEv(ZERO, 4, quantum);
      save();
      return 0;
    }
    case 67: { // StableApproveMint
      const id = c.u64();
      const i = s.pending.findIndex((p) => p.id === id);
      if (i < 0 || s.pending[i]!.kind !== 3) return SS.PENDING_NOT_FOUND;
      const p = s.pending[i]!;
      const ci = s.cosigners.findIndex((x) => eq(x, user));
      if (ci < 0) return SS.NOT_COSIGNER;
      if (p.approvals & (1 << ci)) return SS.STABLE_ALREADY_APPROVED;
      p.approvals |= 1 << ci;
      let n = 0;
      for (let b = 0; b < 8; b++) if (p.approvals & (1 << b)) n++;
      if (n < s.signers) { pendingEv(user, id, 3, 3, p.eff); save(); return 0; }
      let st = mintState(p.a, p.b);
      if (st) return st;
      const m = s.minters.find((x) => eq(x.minter, p.a));
      if (!m) return SS.NOT_MINTER;
      st = limits(m, p.amount);
      if (st) return st;
      s.pending.splice(i, 1);
      pendingEv(user, id, 3, 1, p.eff);
      st = doMint(m, p.b, p.amount);
      if (st) return st;
      save();
      return 0;
    }
    case 68: { // StableRaiseSupplyCap
      const cap = c.u128();
      if (!eq(user, GOV)) return SS.NOT_GOVERNANCE;
      if (s.cap === 0n || (cap !== 0n && cap <= s.cap)) return SS.SUPPLY_CAP_NOT_RAISED;
      s.cap = cap;
      adminEv(ZERO, 5, cap === 0n ? 0 : 1);
      save();
      return 0;
    }
    case 70: { // StableIssuerProof (docs/stablecoins.md "Issuer onboarding")
      const method = c.u8(), chainId = c.u64(), subject = c.take(32), detail = c.vec(), sig = c.vec();
      if (!eq(user, FOUNDATION) && !eq(user, GOV)) return SS.NOT_FOUNDATION;
      if (method === 0) {
        if (chainId === 0n || !isZero(subject.slice(0, 12)) || isZero(subject.slice(12)) || sig.length !== 65 || detail.length !== 0) return SS.INVALID_ISSUER_PROOF;
      } else if (chainId !== 0n || isZero(subject) || sig.length !== 0 || detail.length === 0 || detail.length > 128 || !validUtf8Strict(detail)) return SS.INVALID_ISSUER_PROOF;
      const ok = cat(new Uint8Array([0x44]), token);
      const old = h.get(ok);
      const proofs: Uint8Array[] = [];
      const methods = new Set<number>();
      if (old) {
        const oc = new Cur(old);
        oc.u8();
        for (let n = oc.u32(); n > 0; n--) {
          const start = oc.o;
          methods.add(oc.u8()); oc.take(32 + 8 + 8 + 32); oc.vec(); oc.vec();
          proofs.push(old.slice(start, oc.o));
        }
      }
      if (methods.has(method)) return SS.PROOF_ALREADY_RECORDED;
      proofs.push(cat(new Uint8Array([method]), user, le(ctx.height, 8), le(chainId, 8), subject, le(BigInt(detail.length), 4), detail, le(BigInt(sig.length), 4), sig));
      methods.add(method);
      h.put(ok, cat(new Uint8Array([1]), le(BigInt(proofs.length), 4), ...proofs));
      if (methods.size >= 2 && s.verification < 1) s.verification = 1;
      ev(24, token, user, subject, new Uint8Array([method, methods.size, s.verification]));
      save();
      return 0;
    }
    default: { // 69 StableVerifyIssuer
      if (!eq(user, GOV)) return SS.NOT_GOVERNANCE;
      if (s.verification < 1) s.verification = 1;
      adminEv(ZERO, 6, s.verification);
      save();
      return 0;
    }
  }

  function accounts(b: Uint8Array, max: number): Uint8Array[] | null {
    if (b.length % 32 !== 0 || b.length / 32 > max) return null;
    const list: Uint8Array[] = [];
    for (let o = 0; o < b.length; o += 32) {
      const a = b.slice(o, o + 32);
      if (isZero(a) || list.some((x) => eq(x, a))) return null;
      list.push(a);
    }
    return list;
  }

  function create(h: Host, ctx: { height: bigint; timestamp: bigint }, user: Uint8Array, c: Cur, ev: (kind: number, ...d: Uint8Array[]) => void): number {
    if (!eq(user, GOV)) return SS.NOT_GOVERNANCE;
    const name = c.vec(), symbol = c.vec(), decimals = c.u8(), currency = c.vec(), issuer = c.vec();
    const roles = [c.take(32), c.take(32), c.take(32), c.take(32)];
    const g = c.vec(), origins = c.vec(), cap = c.u128(), quantum = c.u8(), threshold = c.u128(), signers = c.u8(), cs = c.vec();
    let timelock = c.u64(), epoch = c.u64();
    if (name.length === 0 || name.length > 64) return SS.INVALID_STABLE_CONFIG;
    if (symbol.length === 0 || symbol.length > 16 || !/^[A-Za-z0-9]+$/.test(Buffer.from(symbol).toString('latin1'))) return SS.INVALID_SYMBOL;
    if (decimals > 18) return SS.INVALID_DECIMALS;
    if (currency.length === 0 || currency.length > 16 || issuer.length === 0 || issuer.length > 128) return SS.INVALID_STABLE_CONFIG;
    const gl = accounts(g, 8), cl = accounts(cs, 8);
    const ol = parseOrigins(origins);
    if (!gl || !cl || !ol) return SS.INVALID_STABLE_CONFIG;
    if (timelock === 0n) timelock = 720n;
    if (epoch === 0n) epoch = 720n;
    if (timelock > HEIGHT_MAX_TIMELOCK || signers > cl.length || (threshold !== 0n && signers === 0)) return SS.INVALID_STABLE_CONFIG;
    if (epoch > HEIGHT_MAX_TIMELOCK) return SS.INVALID_STABLE_CONFIG;
    if (roles.some(isZero)) return SS.ZERO_ADDRESS_ROLE;
    const up = symbol.map((x) => (x >= 0x61 && x <= 0x7a ? x - 0x20 : x));
    const sk = cat(new Uint8Array([4]), up);
    if (h.get(sk)) return SS.SYMBOL_TAKEN;
    const first = ol[0];
    const mint = h.blake3(first ? first.chain : utf8.encode('std8'), utf8.encode('_'), symbol);
    if (h.get(tokenKey(mint))) return SS.SYMBOL_TAKEN;
    const oc = first?.chain ?? new Uint8Array(0), ok = first?.contract ?? new Uint8Array(0);
    h.put(tokenKey(mint), cat(new Uint8Array([1]), le(BigInt(name.length), 4), name, le(BigInt(symbol.length), 4), symbol, new Uint8Array([decimals]),
      le(0n, 16), le(0n, 16), GOV, roles[0]!, le(ctx.timestamp, 8), le(ctx.height, 8), new Uint8Array([2, 0]), le(BigInt(oc.length), 4), oc, le(BigInt(ok.length), 4), ok));
    h.put(sk, mint);
    h.put(cat(new Uint8Array([5]), up), new Uint8Array([1]));
    h.put(stableKey(mint), encodeStable({ roles, flags: quantum ? 2 : 0, verification: 0, timelock, epochLength: epoch, threshold, signers, cap,
      blacklisted: 0n, nextId: 0n, createdHeight: ctx.height, guardians: gl, cosigners: cl, minters: [], pending: [] }));
    h.put(cat(new Uint8Array([0x42]), mint), profileRecord(currency, issuer, origins));
    ev(1, mint, user, roles[0]!, le(0n, 16));
    ev(20, mint, ...roles);
    return 0;
  }

  function parseOrigins(b: Uint8Array): Array<{ chain: Uint8Array; contract: Uint8Array }> | null {
    if (b.length === 0) return [];
    try {
      const c = new Cur(b);
      const n = c.u32();
      if (n > 8) return null;
      const out: Array<{ chain: Uint8Array; contract: Uint8Array }> = [];
      for (let i = 0; i < n; i++) {
        const chain = c.vec(), contract = c.vec();
        for (const x of [chain, contract]) if (x.length === 0 || x.length > 64 || !validUtf8Strict(x)) return null;
        out.push({ chain, contract });
      }
      return c.o === b.length ? out : null;
    } catch {
      return null;
    }
  }
}

function validUtf8Strict(b: Uint8Array): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; }
}
