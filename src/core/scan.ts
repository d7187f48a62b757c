// The output of the core's scan_bundles (docs/core-abi.md "Block scan"), read in place: one copy
// out of wasm memory per block, and accessors that read a row's fields when asked, so scanning a
// block of 1,000 bundles allocates no object per bundle.

/** Output header: transactions_root [32], count u32. */
const HEAD = 36;
/**
 * One row per bundle: hash [32] @0, status u16 @32, nonce u64 @34, sig_offset u32 @42,
 * sig_len u32 @46, pubkey_offset u32 @50, pubkey_len u32 @54, expiry u64 @58.
 */
export const SCAN_ROW_BYTES = 66;
const STATUS = 32;
const NONCE = 34;
const SIG_OFFSET = 42;
const SIG_LEN = 46;
const PUBKEY_OFFSET = 50;
const PUBKEY_LEN = 54;
const EXPIRY = 58;

/**
 * What the core read from a block's bundle section: the transactions root, every bundle's hash,
 * and per bundle its decode status and the fields block import needs without a JS decode. Fields
 * other than the hash and status are 0 for a bundle whose status is not OK (0). Accessors take the
 * bundle index `i` (0 ≤ i < count) and do not check it.
 */
export class BundleScan {
  /** Binary Merkle root of the hashes (src/chain/block.ts transactionsRoot). */
  readonly transactionsRoot: Uint8Array;
  readonly count: number;
  /** count × 32 bytes: Blake3-256 of each bundle (src/codec/bundle.ts bundleHash), in order. */
  readonly hashes: Uint8Array;
  /** count × SCAN_ROW_BYTES: the core's rows as it wrote them. */
  readonly rows: Uint8Array;
  private readonly view: DataView;

  /** `out`: the scan_bundles output, already copied out of wasm memory (kept, not copied again). */
  constructor(out: Uint8Array) {
    this.view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    this.transactionsRoot = out.subarray(0, 32);
    const count = this.view.getUint32(32, true);
    this.count = count;
    this.rows = out.subarray(HEAD, HEAD + count * SCAN_ROW_BYTES);
    // The hashes sit at the head of each row; gathered into one array so hash(i) is a plain view.
    // A byte loop rather than set(subarray): no view object per bundle.
    const hashes = new Uint8Array(count * 32);
    for (let i = 0, o = HEAD, h = 0; i < count; i++, o += SCAN_ROW_BYTES) {
      for (let k = 0; k < 32; k++) hashes[h++] = out[o + k]!;
    }
    this.hashes = hashes;
  }

  private at(i: number): number {
    return HEAD + i * SCAN_ROW_BYTES;
  }

  /** The bundle's hash: a view into `hashes`. */
  hash(i: number): Uint8Array {
    return this.hashes.subarray(i * 32, i * 32 + 32);
  }

  /** 0 (OK) or the core's decode status (MALFORMED_BUNDLE, EMPTY_BUNDLE, TOO_MANY_OPS, OP_NOT_ENABLED). */
  status(i: number): number {
    return this.view.getUint16(this.at(i) + STATUS, true);
  }

  nonce(i: number): bigint {
    return this.view.getBigUint64(this.at(i) + NONCE, true);
  }

  /** min(valid_until, expiry_timestamp) when expiry_timestamp is present, else valid_until (unix s). */
  expiry(i: number): bigint {
    return this.view.getBigUint64(this.at(i) + EXPIRY, true);
  }

  /** Byte length of the signature: 0 unsigned, 64 Ed25519, 3,309 ML-DSA-65, else an EVM transaction. */
  signatureLength(i: number): number {
    return this.view.getUint32(this.at(i) + SIG_LEN, true);
  }

  /** The signature's bytes: a view into `bundle`, the bytes of bundle i as scanned. */
  signature(i: number, bundle: Uint8Array): Uint8Array {
    const o = this.at(i);
    const start = this.view.getUint32(o + SIG_OFFSET, true);
    return bundle.subarray(start, start + this.view.getUint32(o + SIG_LEN, true));
  }

  /** sender_pubkey's bytes as a view into `bundle` (bundle i as scanned), or undefined when absent. */
  pubkey(i: number, bundle: Uint8Array): Uint8Array | undefined {
    const o = this.at(i);
    const len = this.view.getUint32(o + PUBKEY_LEN, true);
    if (len === 0) return undefined;
    const start = this.view.getUint32(o + PUBKEY_OFFSET, true);
    return bundle.subarray(start, start + len);
  }
}
