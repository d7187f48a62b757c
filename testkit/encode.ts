// A small local Borsh encoder for bundles (docs/bundle-format.md), independent of src/codec.

export type Op =
  | { kind: 'transfer'; to: Uint8Array; token: Uint8Array; amount: bigint }
  | { kind: 'createToken'; name: string | Uint8Array; symbol: string | Uint8Array; decimals: number; supply: bigint; owner: Uint8Array }
  | { kind: 'raw'; disc: number; bytes?: Uint8Array };

export interface Bundle {
  user: Uint8Array;
  ops: Op[];
  maxGas: bigint;
  maxPriorityFee: bigint;
  validUntil: bigint;
  nonce: bigint;
  signature?: Uint8Array;
  expiry?: bigint | null;
  senderPubkey?: Uint8Array | null;
}

const M64 = (1n << 64n) - 1n;

export class W {
  parts: number[] = [];
  u8(v: number) {
    this.parts.push(v & 0xff);
  }
  u16(v: number) {
    this.parts.push(v & 0xff, (v >> 8) & 0xff);
  }
  u32(v: number) {
    for (let i = 0; i < 4; i++) this.parts.push((v >>> (8 * i)) & 0xff);
  }
  u64(v: bigint) {
    let x = v & M64;
    for (let i = 0; i < 8; i++) {
      this.parts.push(Number(x & 0xffn));
      x >>= 8n;
    }
  }
  u128(v: bigint) {
    this.u64(v & M64);
    this.u64((v >> 64n) & M64);
  }
  raw(b: Uint8Array) {
    for (const x of b) this.parts.push(x);
  }
  vec(b: Uint8Array) {
    this.u32(b.length);
    this.raw(b);
  }
  str(s: string | Uint8Array) {
    this.vec(typeof s === 'string' ? new TextEncoder().encode(s) : s);
  }
  bytes() {
    return Uint8Array.from(this.parts);
  }
}

/** A Borsh Vec<Operation> (a bundle's operations, or the ones a CreateSchedule holds). */
export function encodeOps(w: W, ops: Op[]) {
  w.u32(ops.length);
  for (const op of ops) {
    if (op.kind === 'transfer') {
      w.u8(0);
      w.raw(op.to);
      w.raw(op.token);
      w.u128(op.amount);
    } else if (op.kind === 'createToken') {
      w.u8(33);
      w.str(op.name);
      w.str(op.symbol);
      w.u8(op.decimals);
      w.u128(op.supply);
      w.raw(op.owner);
    } else {
      w.u8(op.disc);
      if (op.bytes) w.raw(op.bytes);
    }
  }
}

export function encodeBundle(b: Bundle): Uint8Array {
  const w = new W();
  w.raw(b.user);
  encodeOps(w, b.ops);
  w.u64(b.maxGas);
  w.u64(b.maxPriorityFee);
  w.u64(b.validUntil);
  w.u64(b.nonce);
  w.vec(b.signature ?? new Uint8Array(0));
  if (b.expiry === undefined || b.expiry === null) w.u8(0);
  else {
    w.u8(1);
    w.u64(b.expiry);
  }
  if (!b.senderPubkey) w.u8(0);
  else {
    w.u8(1);
    w.vec(b.senderPubkey);
  }
  return w.bytes();
}

export function addr(n: number): Uint8Array {
  const a = new Uint8Array(32);
  a[0] = 0xaa;
  a[28] = (n >>> 24) & 0xff;
  a[29] = (n >>> 16) & 0xff;
  a[30] = (n >>> 8) & 0xff;
  a[31] = n & 0xff;
  return a;
}

export const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
