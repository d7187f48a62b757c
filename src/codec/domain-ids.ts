import { blake3 } from './hash.js';

/**
 * Ids and escrow accounts the core derives for settlement and anchoring (docs/settlement.md
 * "Addresses", docs/anchors.md "State layout"): Blake3 of an ASCII domain tag and the parts, the
 * same bytes as assembly/domains/settlement/ops.ts and assembly/domains/anchors/ops.ts, so a wallet knows an id
 * before its bundle is sent.
 */

const enc = new TextEncoder();
function tagged(tag: string, ...parts: Uint8Array[]): Uint8Array {
  const t = enc.encode(tag);
  const b = new Uint8Array(t.length + parts.reduce((n, p) => n + p.length, 0));
  b.set(t);
  let o = t.length;
  for (const p of parts) {
    b.set(p, o);
    o += p.length;
  }
  return blake3(b);
}

/** Order id = Blake3("ntv.atomence.order" ‖ creator ‖ nonce u64 LE ‖ op_index u16 LE). */
export function atomenceOrderId(creator: Uint8Array, nonce: bigint, opIndex: number): Uint8Array {
  const tail = new Uint8Array(10);
  const dv = new DataView(tail.buffer);
  dv.setBigUint64(0, nonce, true);
  dv.setUint16(8, opIndex, true);
  return tagged('ntv.atomence.order', creator, tail);
}
/** The escrow account of an order: Blake3("ntv.atomence.escrow" ‖ order id). */
export function orderEscrow(orderId: Uint8Array): Uint8Array {
  return tagged('ntv.atomence.escrow', orderId);
}
/** The stake escrow of a market maker: Blake3("ntv.atomence.stake" ‖ account). */
export function stakeEscrow(account: Uint8Array): Uint8Array {
  return tagged('ntv.atomence.stake', account);
}
/** Namespace id = Blake3("ntv.anchor.ns" ‖ namespace). */
export function namespaceId(ns: string): Uint8Array {
  return tagged('ntv.anchor.ns', enc.encode(ns));
}
/** Anchor id = Blake3("ntv.anchor" ‖ namespace id ‖ key). */
export function anchorId(ns: string, key: string): Uint8Array {
  return tagged('ntv.anchor', namespaceId(ns), enc.encode(key));
}
