import { BUCKET_SLICE_ABOVE, Prefix } from '../abi/constants.js';

/**
 * How a state-tree bucket is stored (docs/state-root.md "Bucket slices"): a bucket of at most
 * BUCKET_SLICE_ABOVE entries as one 0xF0 record, a larger one as up to 16 0xF3 slice records, slice
 * s holding its entries whose path[2] >> 4 is s. The bucket hash is over all the entries either way
 * (assembly/root.ts); only what a block writes changes: the slices it touched, not the whole bucket.
 * A 0xF0 record written before slices may be larger; the core turns it into slices at its next write.
 */

/** a bucket entry: path[32] ‖ leaf[32] */
export const BUCKET_ENTRY_BYTES = 64;
export const BUCKET_SLICES = 16;

/** The slice of an entry (its path's third byte's high nibble). */
export function sliceOfPath(path: Uint8Array): number {
  return path[2]! >> 4;
}

/**
 * A bucket's entries as stored: its 0xF0 record, else its 0xF3 slices in order (empty: no entries).
 * `get` reads a state key (the StateView, a view at a past height, a core: any of them).
 */
export function storedBucketEntries(get: (key: Uint8Array) => Uint8Array | undefined, bucket: number): Uint8Array {
  const whole = get(bucketKey(bucket));
  if (whole !== undefined) return whole;
  const slices: Array<Uint8Array | undefined> = [];
  for (let s = 0; s < BUCKET_SLICES; s++) slices.push(get(sliceKey(bucket, s)));
  return joinSlices(slices);
}

/** The slices of one bucket, in slice order, back to back. */
export function joinSlices(slices: ReadonlyArray<Uint8Array | undefined>): Uint8Array {
  let size = 0;
  for (const slice of slices) size += slice?.length ?? 0;
  const out = new Uint8Array(size);
  let o = 0;
  for (const slice of slices) {
    if (slice === undefined) continue;
    out.set(slice, o);
    o += slice.length;
  }
  return out;
}

/**
 * Slice records met in any order (a scan of the stored state), joined per bucket once all are in:
 * the start-up check and the integrity sweep read buckets this way.
 */
export class BucketSlices {
  private readonly byBucket = new Map<number, Array<Uint8Array | undefined>>();

  add(bucket: number, slice: number, value: Uint8Array): void {
    let list = this.byBucket.get(bucket);
    if (!list) this.byBucket.set(bucket, (list = new Array<Uint8Array | undefined>(BUCKET_SLICES)));
    list[slice] = value;
  }

  /**
   * Each bucket's slices joined, to `keep`; a bucket that `whole` says is also stored as one record
   * is an anomaly, named to `report` (by its 0xF0 key), and keeps its record.
   */
  join(whole: (bucket: number) => boolean, keep: (bucket: number, entries: Uint8Array) => void, report: (key: Uint8Array, reason: string) => void): void {
    for (const [b, list] of this.byBucket) {
      if (whole(b)) report(bucketKey(b), `bucket ${b} is stored both whole and as slices`);
      else keep(b, joinSlices(list));
    }
    this.byBucket.clear();
  }
}

/** The records a bucket's sorted entries are stored as, in key order; none for an empty bucket. */
export function bucketRecords(bucket: number, entries: Uint8Array): Array<[Uint8Array, Uint8Array]> {
  const count = entries.length / BUCKET_ENTRY_BYTES;
  if (count === 0) return [];
  if (count <= BUCKET_SLICE_ABOVE) return [[bucketKey(bucket), entries]];
  const out: Array<[Uint8Array, Uint8Array]> = [];
  for (let i = 0; i < count;) {
    const s = sliceOfPath(entries.subarray(i * BUCKET_ENTRY_BYTES));
    let j = i + 1;
    while (j < count && sliceOfPath(entries.subarray(j * BUCKET_ENTRY_BYTES)) === s) j++;
    out.push([sliceKey(bucket, s), entries.subarray(i * BUCKET_ENTRY_BYTES, j * BUCKET_ENTRY_BYTES)]);
    i = j;
  }
  return out;
}

/** 0xF0 ‖ u16be bucket (abi/state.mjs ROOT_BUCKET; built here, the client library's proofs need no more of src/abi/state.ts) */
export function bucketKey(bucket: number): Uint8Array {
  return Uint8Array.of(Prefix.ROOT_BUCKET, bucket >> 8, bucket & 0xff);
}

/** 0xF3 ‖ u16be bucket ‖ u8 slice (abi/state.mjs ROOT_SLICE) */
export function sliceKey(bucket: number, slice: number): Uint8Array {
  return Uint8Array.of(Prefix.ROOT_SLICE, bucket >> 8, bucket & 0xff, slice);
}

/** The bucket and slice of a 0xF3 slice key, or undefined for any other key. */
export function sliceKeyParts(key: Uint8Array): { bucket: number; slice: number } | undefined {
  if (key.length !== 4 || key[0] !== Prefix.ROOT_SLICE || key[3]! >= BUCKET_SLICES) return undefined;
  return { bucket: (key[1]! << 8) | key[2]!, slice: key[3]! };
}
