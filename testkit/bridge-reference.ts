// The bigint reference of the bridge (docs/bridge.md), written again from the page in plain
// TypeScript for testkit/reference.ts: operations 26 and 71–75, records 0x48–0x4C, events 30–34.
// Token movements follow the core's shared paths (moveBalance for the fee, credit/debit with the
// STD-8 rules for mints and burns) and leave the same Transfer events.

import { guard, SS, type Host, type Ev } from './stable-reference.js';

export const BS = {
  BRIDGE_NOT_CONFIGURED: 180, BRIDGE_UNKNOWN_CHAIN: 181, BRIDGE_INVALID_DEPOSIT: 182, BRIDGE_NOT_ATTESTER: 183, BRIDGE_DUPLICATE_SIGNER: 184,
  BRIDGE_BELOW_THRESHOLD: 185, BRIDGE_ALREADY_PROCESSED: 186, BRIDGE_CONTRACT_BLOCKED: 187, BRIDGE_DECIMALS_MISMATCH: 188,
  BRIDGE_NOT_BRIDGED_TOKEN: 189, BRIDGE_NOT_FOUNDATION: 190, BRIDGE_MAPPING_EXISTS: 191, BRIDGE_INVALID_MAPPING: 192,
  BRIDGE_INVALID_ATTESTERS: 193, BRIDGE_NOT_PENDING: 194, BRIDGE_INVALID_DESTINATION: 195, BRIDGE_WITHDRAWAL_NOT_FOUND: 196,
  BRIDGE_ALREADY_ATTESTED: 197,
} as const;

/** docs/bridge.md "Chains": name → withdrawal fee in raw NTV. */
export const REF_CHAINS: ReadonlyMap<string, bigint> = new Map([
  ['ethereum', 2_000_000_000n], ['solana', 500_000_000n], ['base', 500_000_000n], ['bsc', 500_000_000n], ['polygon', 500_000_000n],
  ['arbitrum', 500_000_000n], ['optimism', 500_000_000n], ['avalanche', 500_000_000n], ['bitcoin', 2_000_000_000n], ['monad', 500_000_000n],
  ['dogecoin', 1_000_000_000n], ['litecoin', 1_000_000_000n], ['ton', 500_000_000n],
]);

export type BridgeOp =
  | { kind: 26; chain: Uint8Array; tx: Uint8Array; contract: Uint8Array; symbol: Uint8Array; amount: bigint; decimals: number; recipient: Uint8Array; sigs: Uint8Array }
  | { kind: 71; token: Uint8Array; amount: bigint; chain: Uint8Array; dest: Uint8Array }
  | { kind: 72; chain: Uint8Array; contract: Uint8Array; mint: Uint8Array }
  | { kind: 73; attesters: Uint8Array; threshold: number }
  | { kind: 74; chain: Uint8Array; tx: Uint8Array }
  | { kind: 75; seq: bigint; chain: Uint8Array; dest: Uint8Array; token: Uint8Array; amount: bigint; sigs: Uint8Array }
  | { kind: 76; chain: Uint8Array; contract: Uint8Array; level: number };

export interface BridgeReader { take(n: number): Uint8Array; u8(): number; u64(): bigint; u128(): bigint; vec(): Uint8Array }

export const isBridgeOpKind = (d: number) => d === 26 || (d >= 71 && d <= 76);
export const isBridgeOp = (op: { kind: number }): op is BridgeOp => isBridgeOpKind(op.kind);

/** Decode operation `d`; MALFORMED (null) for a bad string or a signed operation that is not first or is nested. */
export function decodeBridgeOp(r: BridgeReader, d: number, first: boolean, nested: boolean, utf8ok: (b: Uint8Array) => boolean): BridgeOp | null {
  if ((d === 26 || d === 75) && (!first || nested)) return null;
  let ok = true;
  const str = () => { const v = r.vec(); if (!utf8ok(v)) ok = false; return v; };
  let op: BridgeOp;
  switch (d) {
    case 26: op = { kind: 26, chain: str(), tx: str(), contract: str(), symbol: str(), amount: r.u128(), decimals: r.u8(), recipient: r.take(32), sigs: r.vec() }; break;
    case 71: op = { kind: 71, token: r.take(32), amount: r.u128(), chain: str(), dest: str() }; break;
    case 72: op = { kind: 72, chain: str(), contract: str(), mint: r.take(32) }; break;
    case 73: op = { kind: 73, attesters: r.vec(), threshold: r.u8() }; break;
    case 74: op = { kind: 74, chain: str(), tx: str() }; break;
    case 76: op = { kind: 76, chain: str(), contract: str(), level: r.u8() }; break;
    default: op = { kind: 75, seq: r.u64(), chain: str(), dest: str(), token: r.take(32), amount: r.u128(), sigs: r.vec() };
  }
  return ok ? op : null;
}

const cat = (...p: Uint8Array[]) => { const o = new Uint8Array(p.reduce((n, x) => n + x.length, 0)); let i = 0; for (const x of p) { o.set(x, i); i += x.length; } return o; };
const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const isZero = (a: Uint8Array) => a.every((x) => x === 0);
const le = (v: bigint, n: number) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn); return b; };
const rd = (b: Uint8Array, o: number, n: number) => { let v = 0n; for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!); return v; };
const str = (b: Uint8Array) => cat(le(BigInt(b.length), 4), b);
const enc = new TextEncoder();
const dec = new TextDecoder();
const U128 = (1n << 128n) - 1n;
const ZERO = new Uint8Array(32);
const sys = (n: number) => { const a = new Uint8Array(32); a[31] = n; return a; };
const TREASURY = sys(3);
const GOVERNANCE = sys(9);
const BRIDGE_ACCOUNT = new Uint8Array(32).fill(255);
const upper = (b: Uint8Array) => b.map((c) => (c >= 0x61 && c <= 0x7a ? c - 32 : c));
const validSymbol = (b: Uint8Array) => b.length >= 1 && b.length <= 16 && b.every((c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));

interface Token { name: Uint8Array; symbol: Uint8Array; decimals: number; supply: bigint; initial: bigint; rest: Uint8Array; kind: number; flags: number; oc: Uint8Array; ok: Uint8Array }
function decodeToken(v: Uint8Array): Token {
  let o = 1;
  const nl = Number(rd(v, o, 4)); const name = v.slice(o + 4, o + 4 + nl); o += 4 + nl;
  const sl = Number(rd(v, o, 4)); const symbol = v.slice(o + 4, o + 4 + sl); o += 4 + sl;
  const decimals = v[o]!; o += 1;
  const supply = rd(v, o, 16); const initial = rd(v, o + 16, 16); o += 32;
  const rest = v.slice(o, o + 80); o += 80; // creator, owner, created_at, height
  const kind = v[o]!; const flags = v[o + 1]!; o += 2;
  const cl = Number(rd(v, o, 4)); const oc = v.slice(o + 4, o + 4 + cl); o += 4 + cl;
  const kl = Number(rd(v, o, 4)); const ok = v.slice(o + 4, o + 4 + kl);
  return { name, symbol, decimals, supply, initial, rest, kind, flags, oc, ok };
}
function encodeToken(t: Token): Uint8Array {
  return cat(new Uint8Array([1]), str(t.name), str(t.symbol), new Uint8Array([t.decimals]), le(t.supply, 16), le(t.initial, 16), t.rest,
    new Uint8Array([t.kind, t.flags]), str(t.oc), str(t.ok));
}

export interface BridgeCtx { height: bigint; timestamp: bigint }

/** Execute one bridge operation against the reference's state; the status (0 = OK). */
export function execBridgeRef(h: Host, ctx: BridgeCtx, user: Uint8Array, op: BridgeOp, index: number, k: number, evs: Ev[]): number {
  const ev = (kind: number, ...p: Uint8Array[]) => evs.push({ bundleIndex: index, opIndex: k, kind, data: cat(...p) });
  const tokenKey = (m: Uint8Array) => cat(new Uint8Array([3]), m);
  const cfgKey = new Uint8Array([0x48]);
  const cfg = () => {
    const v = h.get(cfgKey);
    if (!v) return null;
    const n = Number(rd(v, 10, 4));
    return { threshold: v[1]!, next: rd(v, 2, 8), set: Array.from({ length: n }, (_, i) => v.slice(14 + 32 * i, 46 + 32 * i)) };
  };
  const putCfg = (threshold: number, next: bigint, set: Uint8Array[]) => h.put(cfgKey, cat(new Uint8Array([1, threshold]), le(next, 8), le(BigInt(set.length), 4), ...set));
  const tagged = (tag: string, a: Uint8Array, b: Uint8Array) => h.blake3(enc.encode(tag), a, new Uint8Array([0]), b);
  const signers = (sigs: Uint8Array, set: Uint8Array[], threshold: number) => {
    if (sigs.length % 96 !== 0 || sigs.length / 96 > 16) return BS.BRIDGE_INVALID_DEPOSIT;
    const keys = Array.from({ length: sigs.length / 96 }, (_, i) => sigs.slice(96 * i, 96 * i + 32));
    for (let i = 0; i < keys.length; i++) {
      if (!set.some((s) => eq(s, keys[i]!))) return BS.BRIDGE_NOT_ATTESTER;
      if (keys.slice(0, i).some((x) => eq(x, keys[i]!))) return BS.BRIDGE_DUPLICATE_SIGNER;
    }
    return keys.length < threshold ? BS.BRIDGE_BELOW_THRESHOLD : 0;
  };
  const bridged = (mint: Uint8Array, amount: bigint, withdrawn: boolean, flags = 0) => {
    const key = cat(new Uint8Array([0x4b]), mint);
    const v = h.get(key);
    let f = flags, dep = 0n, wd = 0n;
    if (v) { f = v[1]!; dep = rd(v, 2, 16); wd = rd(v, 18, 16); }
    if (withdrawn) wd = wd + amount > U128 ? U128 : wd + amount; else dep = dep + amount > U128 ? U128 : dep + amount;
    h.put(key, cat(new Uint8Array([1, f]), le(dep, 16), le(wd, 16)));
  };
  const setSupply = (mint: Uint8Array, s: bigint) => { const t = decodeToken(h.get(tokenKey(mint))!); t.supply = s; h.put(tokenKey(mint), encodeToken(t)); };
  /** The STD-8 fast-path mint (bridgeMintStable) or a plain bridged mint; 0 or a status. */
  const mintTo = (mint: Uint8Array, to: Uint8Array, amount: bigint) => {
    const t = decodeToken(h.get(tokenKey(mint))!);
    const stable = h.get(cat(new Uint8Array([0x40]), mint));
    if (stable) {
      if (h.get(cat(new Uint8Array([0x41]), mint, to))) return SS.ADDRESS_BLACKLISTED;
      if (t.flags & 2) return SS.TOKEN_PAUSED;
      if (stable[129]! & 1) return SS.MINT_FROZEN;
      if (t.supply + amount > U128) return SS.AMOUNT_OVERFLOW;
      const cap = rd(stable, 164, 16);
      if (cap !== 0n && t.supply + amount > cap) return SS.SUPPLY_CAP_EXCEEDED;
    }
    const g = guard(h, mint, to);
    if (g) return g;
    const nb = h.bal(to, mint) + amount;
    if (nb > U128) return SS.AMOUNT_OVERFLOW;
    if (t.supply + amount > U128) return SS.AMOUNT_OVERFLOW;
    h.setBal(to, mint, nb);
    setSupply(mint, t.supply + amount);
    ev(0, ZERO, to, mint, le(amount, 16));
    return 0;
  };
  const depositEv = (id: Uint8Array, to: Uint8Array, mint: Uint8Array, amount: bigint, credited: boolean) =>
    ev(30, id, to, mint, le(amount, 16), new Uint8Array([credited ? 1 : 0]));
  const wKey = (seq: bigint) => { const b = new Uint8Array(9); b[0] = 0x4c; for (let i = 0; i < 8; i++) b[8 - i] = Number((seq >> BigInt(8 * i)) & 0xffn); return b; };

  switch (op.kind) {
    case 26: {
      const c = cfg();
      if (!c) return BS.BRIDGE_NOT_CONFIGURED;
      const chainName = dec.decode(op.chain);
      if (!REF_CHAINS.has(chainName)) return BS.BRIDGE_UNKNOWN_CHAIN;
      if (op.tx.length === 0 || op.tx.length > 128 || op.contract.length === 0 || op.contract.length > 128 || !validSymbol(op.symbol)
        || op.decimals > 18 || isZero(op.recipient)) return BS.BRIDGE_INVALID_DEPOSIT;
      if (op.amount === 0n) return SS.ZERO_AMOUNT;
      const st = signers(op.sigs, c.set, c.threshold);
      if (st) return st;
      const id = tagged('bridge-deposit', op.chain, op.tx);
      const dKey = cat(new Uint8Array([0x49]), id);
      if (h.get(dKey)) return BS.BRIDGE_ALREADY_PROCESSED;
      const safety = h.get(cat(new Uint8Array([0x5b]), tagged('contract-safety', op.chain, op.contract)));
      if (safety && safety[1] === 3) return BS.BRIDGE_CONTRACT_BLOCKED;
      // which token (docs/bridge.md "Which token")
      const canonical = h.blake3(op.chain, enc.encode('_'), op.symbol);
      const qualified = h.blake3(op.chain, enc.encode('_'), op.symbol, enc.encode('_'), op.contract);
      let mint: Uint8Array | null = null;
      let impersonation = false;
      const mapping = h.get(cat(new Uint8Array([0x4a]), tagged('bridge-mapping', op.chain, op.contract)));
      if (mapping) mint = mapping.slice(1, 33);
      if (!mint) {
        const bySymbol = h.get(cat(new Uint8Array([4]), upper(op.symbol)));
        let symbolStable = false;
        if (bySymbol && h.get(cat(new Uint8Array([0x40]), bySymbol))) {
          const profile = h.get(cat(new Uint8Array([0x42]), bySymbol));
          if (profile && profileHas(profile, op.chain, op.contract)) mint = bySymbol;
          else symbolStable = true;
        }
        if (!mint) {
          impersonation = symbolStable || !!h.get(cat(new Uint8Array([5]), upper(op.symbol)));
          const can = h.get(tokenKey(canonical));
          if (!impersonation && can) {
            const t = decodeToken(can);
            if (eq(t.oc, op.chain) && t.ok.length > 0 && eq(t.ok, op.contract)) mint = canonical;
          }
          if (!mint && h.get(tokenKey(qualified))) mint = qualified;
        }
      }
      if (mint) {
        if (decodeToken(h.get(tokenKey(mint))!).decimals !== op.decimals) return BS.BRIDGE_DECIMALS_MISMATCH;
      } else {
        mint = !impersonation && !h.get(tokenKey(canonical)) ? canonical : qualified;
        const symbol = impersonation ? cat(op.symbol, enc.encode('.unverified')) : op.symbol;
        const name = cat(symbol, enc.encode(' ('), op.chain, enc.encode(')'));
        h.put(tokenKey(mint), encodeToken({ name, symbol, decimals: op.decimals, supply: 0n, initial: 0n,
          rest: cat(BRIDGE_ACCOUNT, BRIDGE_ACCOUNT, le(ctx.timestamp, 8), le(ctx.height, 8)), kind: 3, flags: 0, oc: op.chain, ok: op.contract }));
        const sk = cat(new Uint8Array([4]), upper(op.symbol));
        if (!impersonation && !h.get(sk)) h.put(sk, mint);
        bridged(mint, 0n, false, impersonation ? 1 : 0);
        ev(1, mint, BRIDGE_ACCOUNT, BRIDGE_ACCOUNT, le(0n, 16));
      }
      const m = mintTo(mint, op.recipient, op.amount);
      const held = m === SS.TOKEN_PAUSED || m === SS.MINT_FROZEN || m === SS.SUPPLY_CAP_EXCEEDED;
      if (m !== 0 && !held) return m;
      if (m === 0) bridged(mint, op.amount, false);
      h.put(dKey, cat(new Uint8Array([1, m === 0 ? 1 : 0]), le(BigInt(m), 2), mint, op.recipient, le(op.amount, 16), le(ctx.height, 8),
        le(m === 0 ? ctx.height : 0n, 8), str(op.chain), str(op.tx), str(op.contract)));
      depositEv(id, op.recipient, mint, op.amount, m === 0);
      return 0;
    }
    case 74: {
      const id = tagged('bridge-deposit', op.chain, op.tx);
      const dKey = cat(new Uint8Array([0x49]), id);
      const v = h.get(dKey);
      if (!v || v[1] !== 0) return BS.BRIDGE_NOT_PENDING;
      const mint = v.slice(4, 36), to = v.slice(36, 68), amount = rd(v, 68, 16);
      const m = mintTo(mint, to, amount);
      if (m) return m;
      bridged(mint, amount, false);
      const nv = v.slice();
      nv[1] = 1; nv[2] = 0; nv[3] = 0;
      nv.set(le(ctx.height, 8), 92);
      h.put(dKey, nv);
      depositEv(id, to, mint, amount, true);
      return 0;
    }
    case 71: {
      const c = cfg();
      if (!c) return BS.BRIDGE_NOT_CONFIGURED;
      if (op.amount === 0n) return SS.ZERO_AMOUNT;
      const fee = REF_CHAINS.get(dec.decode(op.chain));
      if (fee === undefined) return BS.BRIDGE_UNKNOWN_CHAIN;
      if (op.dest.length === 0 || op.dest.length > 128) return BS.BRIDGE_INVALID_DESTINATION;
      const rec = h.get(tokenKey(op.token));
      if (!rec) return SS.UNKNOWN_TOKEN;
      const t = decodeToken(rec);
      if (t.kind !== 2 && t.kind !== 3) return BS.BRIDGE_NOT_BRIDGED_TOKEN;
      const g = guard(h, op.token, user);
      if (g) return g;
      const b = h.bal(user, op.token);
      if (b < op.amount) return SS.INSUFFICIENT_BALANCE;
      h.setBal(user, op.token, b - op.amount);
      setSupply(op.token, t.supply - op.amount);
      ev(0, user, ZERO, op.token, le(op.amount, 16));
      // the fee: moveBalance of NTV to the treasury
      const nb = h.bal(user, ZERO);
      if (nb < fee) return SS.INSUFFICIENT_BALANCE;
      if (!eq(user, TREASURY)) {
        const tb = h.bal(TREASURY, ZERO) + fee;
        if (tb > U128) return SS.AMOUNT_OVERFLOW;
        h.setBal(TREASURY, ZERO, tb);
        h.setBal(user, ZERO, nb - fee);
      }
      ev(0, user, TREASURY, ZERO, le(fee, 16));
      bridged(op.token, op.amount, true);
      putCfg(c.threshold, c.next + 1n, c.set);
      h.put(wKey(c.next), cat(new Uint8Array([1, 0]), user, op.token, le(op.amount, 16), le(fee, 16), le(ctx.height, 8), le(0n, 8), str(op.chain), str(op.dest)));
      ev(31, le(c.next, 8), user, op.token, le(op.amount, 16), le(fee, 16));
      return 0;
    }
    case 75: {
      const c = cfg();
      if (!c) return BS.BRIDGE_NOT_CONFIGURED;
      const v = h.get(wKey(op.seq));
      if (!v) return BS.BRIDGE_WITHDRAWAL_NOT_FOUND;
      const cl = Number(rd(v, 114, 4));
      const chain = v.slice(118, 118 + cl);
      const dl = Number(rd(v, 118 + cl, 4));
      const dest = v.slice(122 + cl, 122 + cl + dl);
      if (!eq(v.slice(34, 66), op.token) || rd(v, 66, 16) !== op.amount || !eq(chain, op.chain) || !eq(dest, op.dest)) return BS.BRIDGE_WITHDRAWAL_NOT_FOUND;
      if (v[1] !== 0) return BS.BRIDGE_ALREADY_ATTESTED;
      const st = signers(op.sigs, c.set, c.threshold);
      if (st) return st;
      const nv = v.slice();
      nv[1] = 1;
      nv.set(le(ctx.height, 8), 106);
      h.put(wKey(op.seq), nv);
      ev(32, le(op.seq, 8));
      return 0;
    }
    case 72: {
      if (!eq(user, TREASURY) && !eq(user, GOVERNANCE)) return BS.BRIDGE_NOT_FOUNDATION;
      if (!REF_CHAINS.has(dec.decode(op.chain))) return BS.BRIDGE_UNKNOWN_CHAIN;
      if (op.contract.length === 0 || op.contract.length > 128) return BS.BRIDGE_INVALID_MAPPING;
      const rec = h.get(tokenKey(op.mint));
      if (!rec) return BS.BRIDGE_INVALID_MAPPING;
      const kind = decodeToken(rec).kind;
      if (kind !== 2 && kind !== 3) return BS.BRIDGE_INVALID_MAPPING;
      const target = tagged('bridge-mapping', op.chain, op.contract);
      const key = cat(new Uint8Array([0x4a]), target);
      if (h.get(key)) return BS.BRIDGE_MAPPING_EXISTS;
      h.put(key, cat(new Uint8Array([1]), op.mint, le(ctx.height, 8), str(op.chain), str(op.contract)));
      ev(33, target, op.mint);
      return 0;
    }
    case 76: { // SetContractSafety: the contract_safety action as GOVERNANCE's own operation (proposal id 0)
      if (!eq(user, GOVERNANCE)) return SS.NOT_GOVERNANCE;
      if (op.chain.length === 0 || op.chain.length > 128 || op.contract.length === 0 || op.contract.length > 128 || op.level > 3) return 233; // INVALID_SAFETY_TARGET
      const target = tagged('contract-safety', op.chain, op.contract);
      const sk = cat(new Uint8Array([0x5b]), target);
      if (op.level === 0) { if (h.get(sk)) h.put(sk, null); }
      else h.put(sk, cat(new Uint8Array([1, op.level]), le(0n, 8), le(ctx.height, 8), str(op.chain), str(op.contract)));
      ev(50, le(0n, 8), target, new Uint8Array([0, op.level]));
      return 0;
    }
    case 73: {
      if (!eq(user, GOVERNANCE)) return SS.NOT_GOVERNANCE;
      const n = op.attesters.length / 32;
      const set = Array.from({ length: Math.floor(n) }, (_, i) => op.attesters.slice(32 * i, 32 * i + 32));
      if (op.attesters.length === 0 || op.attesters.length % 32 !== 0 || n > 16 || op.threshold === 0 || op.threshold > n
        || set.some((x, i) => set.slice(0, i).some((y) => eq(x, y)))) return BS.BRIDGE_INVALID_ATTESTERS;
      const c = cfg();
      putCfg(op.threshold, c ? c.next : 1n, set);
      ev(34, new Uint8Array([op.threshold, n]));
      return 0;
    }
  }
}

/** Whether a StableProfile (0x42) lists (chain, contract) among its origins. */
function profileHas(p: Uint8Array, chain: Uint8Array, contract: Uint8Array): boolean {
  let o = 1;
  for (let i = 0; i < 3; i++) o += 4 + Number(rd(p, o, 4));
  const n = Number(rd(p, o, 4));
  o += 4;
  for (let i = 0; i < n; i++) {
    const cl = Number(rd(p, o, 4)); const c = p.slice(o + 4, o + 4 + cl); o += 4 + cl;
    const kl = Number(rd(p, o, 4)); const k = p.slice(o + 4, o + 4 + kl); o += 4 + kl;
    if (eq(c, chain) && eq(k, contract)) return true;
  }
  return false;
}

/** The genesis trailer: the attester set (null when invalid). */
export function genesisBridgeRef(h: Host, attesters: Uint8Array[], threshold: number): boolean {
  const n = attesters.length;
  if (n === 0 || n > 16 || threshold === 0 || threshold > n || attesters.some((x, i) => x.length !== 32 || attesters.slice(0, i).some((y) => eq(x, y)))) return false;
  h.put(new Uint8Array([0x48]), cat(new Uint8Array([1, threshold]), le(1n, 8), le(BigInt(n), 4), ...attesters));
  return true;
}
