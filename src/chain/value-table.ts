/**
 * The StateView's values, held in storage of its own (docs/performance.md "The StateView keeps its
 * values"): a value is copied into a slot of an arena for its size class, and a key written again
 * with a value of the same class is overwritten in place. No JS object per value, and nothing of the
 * block's output buffer kept, so the core's commit output can be copied into a reused buffer
 * (src/core/output-pool.ts) instead of a fresh 8 MB one each full block, whose first-touch page
 * faults cost ~30 ms.
 *
 * Readers get copies (`read`), never views: a slot is rewritten in place by a later block.
 *
 * A slot id is a small integer (V8 keeps it unboxed in the key map): the slot's index in its class
 * shifted left by CLASS_BITS, or'ed with the class.
 */

const CLASS_BITS = 5;
const CLASS_MASK = (1 << CLASS_BITS) - 1;
/** classes 0…LARGE-1 hold values of up to 16 << class bytes; LARGE holds each value as its own array */
const LARGE = 13;
const MIN_SLOT = 16;
/** slots an arena of a class starts with */
const INITIAL_SLOTS = 64;

function classOf(length: number): number {
  if (length <= MIN_SLOT) return 0;
  const c = 32 - Math.clz32(length - 1) - 4; // ceil(log2(length)) - log2(MIN_SLOT)
  return c < LARGE ? c : LARGE;
}

interface SizeClass {
  /** slot bytes */
  readonly slot: number;
  arena: Uint8Array;
  /** each slot's value length */
  lengths: Int32Array;
  /** slots in use or freed: the next fresh slot */
  top: number;
  free: number[];
}

export class ValueTable {
  private readonly classes: SizeClass[] = [];
  private readonly large: Array<Uint8Array | undefined> = [];
  private readonly largeFree: number[] = [];
  private bytes = 0;

  constructor() {
    for (let c = 0; c < LARGE; c++) {
      const slot = MIN_SLOT << c;
      this.classes.push({ slot, arena: new Uint8Array(0), lengths: new Int32Array(0), top: 0, free: [] });
    }
  }

  /** Bytes of the values held. */
  get valueBytes(): number {
    return this.bytes;
  }

  /**
   * Store `source[from, from + length)`; `id` is the slot the key had (its old value), or -1. The
   * slot is reused when the new value is of the same class. Returns the key's slot id.
   */
  put(id: number, source: Uint8Array, from: number, length: number): number {
    const c = classOf(length);
    if (id >= 0 && (id & CLASS_MASK) === c) {
      this.bytes += length - this.length(id);
      this.write(id, source, from, length);
      return id;
    }
    if (id >= 0) this.remove(id);
    const fresh = c === LARGE ? this.allocLarge() : this.alloc(c);
    this.bytes += length;
    this.write(fresh, source, from, length);
    return fresh;
  }

  /** Free a slot (the key was deleted). */
  remove(id: number): void {
    const c = id & CLASS_MASK;
    const i = id >>> CLASS_BITS;
    this.bytes -= this.length(id);
    if (c === LARGE) {
      this.large[i] = undefined;
      this.largeFree.push(i);
      return;
    }
    this.classes[c]!.free.push(i);
  }

  /** A copy of the value in a slot. */
  read(id: number): Uint8Array {
    const c = id & CLASS_MASK;
    const i = id >>> CLASS_BITS;
    if (c === LARGE) return this.large[i]!.slice();
    const k = this.classes[c]!;
    const at = i * k.slot;
    return k.arena.slice(at, at + k.lengths[i]!);
  }

  /**
   * The value in a slot as a view: valid until the next write or removal in the table. For a reader
   * that decodes it at once (a nonce, a balance), which then needs no copy.
   */
  view(id: number): Uint8Array {
    const c = id & CLASS_MASK;
    const i = id >>> CLASS_BITS;
    if (c === LARGE) return this.large[i]!;
    const k = this.classes[c]!;
    const at = i * k.slot;
    return k.arena.subarray(at, at + k.lengths[i]!);
  }

  length(id: number): number {
    const c = id & CLASS_MASK;
    const i = id >>> CLASS_BITS;
    return c === LARGE ? this.large[i]!.length : this.classes[c]!.lengths[i]!;
  }

  private write(id: number, source: Uint8Array, from: number, length: number): void {
    const c = id & CLASS_MASK;
    const i = id >>> CLASS_BITS;
    if (c === LARGE) {
      this.large[i] = source.slice(from, from + length);
      return;
    }
    const k = this.classes[c]!;
    k.lengths[i] = length;
    const at = i * k.slot;
    // a short value byte by byte: a subarray for `set` would be an object a write
    if (length <= 64) for (let b = 0; b < length; b++) k.arena[at + b] = source[from + b]!;
    else k.arena.set(source.subarray(from, from + length), at);
  }

  private alloc(c: number): number {
    const k = this.classes[c]!;
    let i = k.free.pop();
    if (i === undefined) {
      i = k.top++;
      if (i >= k.lengths.length) this.grow(k);
    }
    return (i << CLASS_BITS) | c;
  }

  private allocLarge(): number {
    let i = this.largeFree.pop();
    if (i === undefined) {
      i = this.large.length;
      this.large.push(undefined);
    }
    return (i << CLASS_BITS) | LARGE;
  }

  private grow(k: SizeClass): void {
    const slots = Math.max(INITIAL_SLOTS, k.lengths.length * 2);
    if (slots > (2 ** 31 - 1) >>> CLASS_BITS) throw new RangeError('state view: too many values of one size');
    const arena = new Uint8Array(slots * k.slot);
    arena.set(k.arena);
    const lengths = new Int32Array(slots);
    lengths.set(k.lengths);
    k.arena = arena;
    k.lengths = lengths;
  }
}
