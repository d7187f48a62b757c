// BlockResult bytes as the core writes them (docs/core-abi.md "Block I/O"), for host-side tests.

export interface ResultRow {
  status: number;
  gas: number;
  fee: bigint;
  nonce: bigint;
}

export interface ResultEvent {
  bundle: number;
  op: number;
  kind: number;
  data: Uint8Array;
}

/** A BlockResult as the core writes it (docs/core-abi.md "Block I/O"). */
export function encodeBlockResult(results: ResultRow[], events: ResultEvent[]): Uint8Array {
  const size = 28 + results.length * 34 + 4 + events.reduce((n, e) => n + 11 + e.data.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  const gas = results.reduce((n, r) => n + r.gas, 0);
  const fees = results.reduce((n, r) => n + r.fee, 0n);
  dv.setBigUint64(0, BigInt(gas), true);
  dv.setBigUint64(8, fees & ((1n << 64n) - 1n), true);
  dv.setBigUint64(16, fees >> 64n, true);
  dv.setUint32(24, results.length, true);
  let o = 28;
  for (const r of results) {
    dv.setUint16(o, r.status, true);
    dv.setBigUint64(o + 2, BigInt(r.gas), true);
    dv.setBigUint64(o + 10, r.fee & ((1n << 64n) - 1n), true);
    dv.setBigUint64(o + 18, r.fee >> 64n, true);
    dv.setBigUint64(o + 26, r.nonce, true);
    o += 34;
  }
  dv.setUint32(o, events.length, true);
  o += 4;
  for (const e of events) {
    dv.setUint32(o, e.bundle, true);
    dv.setUint16(o + 4, e.op, true);
    out[o + 6] = e.kind;
    dv.setUint32(o + 7, e.data.length, true);
    out.set(e.data, o + 11);
    o += 11 + e.data.length;
  }
  return out;
}

