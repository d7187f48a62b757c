// State keys and record codecs (docs/core-abi.md "State layout"). Keys are a one-byte prefix then
// fixed fields; integers little-endian.

export const Prefix = {
  ACCOUNT: 0x01,
  BALANCE: 0x02,
  TOKEN: 0x03,
  SYMBOL: 0x04,
  RESERVED_SYMBOL: 0x05,
  KEY: 0x06,
  ROOT_BUCKET: 0xf0,
  ROOT_NODE: 0xf1,
} as const;

/** The native token's mint: 32 zero bytes (spec §1.4). */
export const NTV_MINT = new Uint8Array(32);
/** The foundation treasury 0x00…03 that receives 20% of fees (spec §1.8). */
export const TREASURY = (() => {
  const a = new Uint8Array(32);
  a[31] = 3;
  return a;
})();

function check32(name: string, b: Uint8Array): void {
  if (b.length !== 32) throw new RangeError(`${name} must be 32 bytes, got ${b.length}`);
}

export function withPrefix(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  let n = 1;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  out[0] = prefix;
  let o = 1;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** ASCII upper-case, as the core compares symbols (spec §2.1: case-insensitive). */
export function upperSymbol(symbol: string | Uint8Array): Uint8Array {
  const b = typeof symbol === 'string' ? new TextEncoder().encode(symbol) : Uint8Array.from(symbol);
  for (let i = 0; i < b.length; i++) if (b[i]! >= 0x61 && b[i]! <= 0x7a) b[i] = b[i]! - 0x20;
  return b;
}

export function accountKey(addr: Uint8Array): Uint8Array {
  check32('address', addr);
  return withPrefix(Prefix.ACCOUNT, addr);
}
export function balanceKey(addr: Uint8Array, mint: Uint8Array): Uint8Array {
  check32('address', addr);
  check32('mint', mint);
  return withPrefix(Prefix.BALANCE, addr, mint);
}
export function tokenKey(mint: Uint8Array): Uint8Array {
  check32('mint', mint);
  return withPrefix(Prefix.TOKEN, mint);
}
export function symbolKey(symbol: string | Uint8Array): Uint8Array {
  return withPrefix(Prefix.SYMBOL, upperSymbol(symbol));
}
export function reservedSymbolKey(symbol: string | Uint8Array): Uint8Array {
  return withPrefix(Prefix.RESERVED_SYMBOL, upperSymbol(symbol));
}
export function keyRecordKey(addr: Uint8Array, keyHash: Uint8Array): Uint8Array {
  check32('address', addr);
  check32('key hash', keyHash);
  return withPrefix(Prefix.KEY, addr, keyHash);
}
export function bucketKey(bucket: number): Uint8Array {
  return new Uint8Array([Prefix.ROOT_BUCKET, (bucket >>> 8) & 0xff, bucket & 0xff]);
}
export function nodeKey(index: number): Uint8Array {
  const k = new Uint8Array(5);
  k[0] = Prefix.ROOT_NODE;
  new DataView(k.buffer).setUint32(1, index, false);
  return k;
}

/** A strict little-endian Borsh reader for records. */
export class RecordReader {
  private readonly view: DataView;
  off = 0;
  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  private need(n: number): void {
    if (this.off + n > this.buf.length) throw new RangeError('record truncated');
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.off++);
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.off, true);
    this.off += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.off, true);
    this.off += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.off, true);
    this.off += 8;
    return v;
  }
  u128(): bigint {
    const lo = this.u64();
    return lo | (this.u64() << 64n);
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const v = this.buf.subarray(this.off, this.off + n);
    this.off += n;
    return v;
  }
  vec(): Uint8Array {
    return this.bytes(this.u32());
  }
  string(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.vec());
  }
  end(): void {
    if (this.off !== this.buf.length) throw new RangeError('trailing bytes in record');
  }
}

/** A bundle that failed at the account's current nonce and may not be included again. */
export interface FailedBundle {
  hash: Uint8Array;
  /** unix seconds: min(valid_until, expiry_timestamp) */
  expiry: bigint;
}
export interface AccountRecord {
  nonce: bigint;
  keyCount: number;
  /** present only when bundles failed at this nonce (docs/core-abi.md "Failed bundles: fee and replay") */
  failed?: FailedBundle[];
}
export function decodeAccount(v: Uint8Array): AccountRecord {
  const r = new RecordReader(v);
  const rec: AccountRecord = { nonce: r.u64(), keyCount: r.u16() };
  if (r.off < v.length) {
    const n = r.u8();
    rec.failed = [];
    for (let i = 0; i < n; i++) rec.failed.push({ hash: r.bytes(32), expiry: r.u64() });
  }
  r.end();
  return rec;
}

export function decodeBalance(v: Uint8Array): bigint {
  const r = new RecordReader(v);
  const b = r.u128();
  r.end();
  return b;
}

export const TokenKind = { NATIVE: 0, STD7: 1, STD8_STABLECOIN: 2, BRIDGE_CANONICAL: 3 } as const;

export interface TokenRecord {
  version: number;
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  initialSupply: bigint;
  creator: Uint8Array;
  owner: Uint8Array;
  createdAt: bigint;
  createdHeight: bigint;
  kind: number;
  flags: number;
  originChain: string;
  originContract: string;
}
export function decodeTokenRecord(v: Uint8Array): TokenRecord {
  const r = new RecordReader(v);
  const rec: TokenRecord = {
    version: r.u8(),
    name: r.string(),
    symbol: r.string(),
    decimals: r.u8(),
    totalSupply: r.u128(),
    initialSupply: r.u128(),
    creator: r.bytes(32).slice(),
    owner: r.bytes(32).slice(),
    createdAt: r.u64(),
    createdHeight: r.u64(),
    kind: r.u8(),
    flags: r.u8(),
    originChain: r.string(),
    originContract: r.string(),
  };
  r.end();
  return rec;
}

export interface KeyRecord {
  /** 0 Ed25519, 1 ML-DSA-65 */
  keyType: number;
  /** 0 owner (full authority) */
  role: number;
  pubkey: Uint8Array;
}
export function decodeKeyRecord(v: Uint8Array): KeyRecord {
  const r = new RecordReader(v);
  const rec = { keyType: r.u8(), role: r.u8(), pubkey: r.vec().slice() };
  r.end();
  return rec;
}

/** A bucket record: sorted (path, leaf) pairs, 64 bytes each (docs/core-abi.md "State root"). */
export function decodeBucket(v: Uint8Array): Array<{ path: Uint8Array; leaf: Uint8Array }> {
  if (v.length % 64 !== 0) throw new RangeError('bucket record is not a multiple of 64 bytes');
  const out = [];
  for (let o = 0; o < v.length; o += 64) out.push({ path: v.subarray(o, o + 32), leaf: v.subarray(o + 32, o + 64) });
  return out;
}
