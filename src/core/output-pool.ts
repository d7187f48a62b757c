/**
 * Buffers for the core's commit output (Core.commitBlockPacked): the output is copied out of the
 * core's memory every block, ~8 MB for 10,000 transfers, and a fresh buffer of that size cost
 * ~30 ms of first-touch page faults a block on the development machine against ~1 ms for one
 * already touched (docs/performance.md "The StateView keeps its values"). A buffer comes back once
 * its block is applied and nothing holds a view of it (`release`, called by the chain only when the
 * state view copies what it keeps: StateView.ownsValues).
 */

/** Buffers kept for reuse: blocks in flight between commit and apply, and one more. */
const KEEP = 4;

const spare: ArrayBuffer[] = [];
/** buffers handed out and not back yet: only these are taken back, once each */
const lent = new WeakSet<ArrayBuffer>();

/** A buffer of at least `length` bytes: a spare when one fits, else a new one with some room. */
export function takeOutputBuffer(length: number): Uint8Array {
  let best = -1;
  for (let i = 0; i < spare.length; i++) {
    if (spare[i]!.byteLength >= length && (best < 0 || spare[i]!.byteLength < spare[best]!.byteLength)) best = i;
  }
  const buffer = best >= 0 ? spare.splice(best, 1)[0]! : new ArrayBuffer(length + (length >>> 3));
  lent.add(buffer);
  return new Uint8Array(buffer, 0, length);
}

/** Give a buffer from `takeOutputBuffer` back; anything else (or a second release) is ignored. */
export function releaseOutputBuffer(buffer: ArrayBufferLike): void {
  if (!(buffer instanceof ArrayBuffer) || !lent.has(buffer)) return;
  lent.delete(buffer);
  if (spare.length < KEEP) spare.push(buffer);
}
