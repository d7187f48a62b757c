// The output of the core's scan_bundles (docs/core-abi.md "Block scan"), read in place: one copy
// out of wasm memory per block, and accessors that read a row's fields when asked, so scanning a
// block of 1,000 bundles allocates no object per bundle.

/** Output header: transactions_root [32], count u32; then count hashes [32], then count rows. */
const HEAD = 36;
/**
 * One row per bundle, after the hashes: status u16 @0, nonce u64 @2, sig_offset u32 @10,
 * sig_len u32 @14, pubkey_offset u32 @18, pubkey_len u32 @22, expiry u64 @26.
 */
export const SCAN_ROW_BYTES = 34;
const STATUS = 0;
const NONCE = 2;
const SIG_OFFSET = 10;
const SIG_LEN = 14;
const PUBKEY_OFFSET = 18;
const PUBKEY_LEN = 22;
const EXPIRY = 26;

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
  /** count × 32 bytes: Blake3-256 of each bundle (src/codec/bundle.ts bundleHash), in order; a view into the output. */
  readonly hashes: Uint8Array;
  /** count × SCAN_ROW_BYTES: the core's rows as it wrote them. */
  readonly rows: Uint8Array;
  private readonly view: DataView;
  private readonly rowsAt: number;

  /** `out`: the scan_bundles output, already copied out of wasm memory (kept, not copied again). */
  constructor(out: Uint8Array) {
    this.view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    this.transactionsRoot = out.subarray(0, 32);
    const count = this.view.getUint32(32, true);
    this.count = count;
    // The core writes the hashes side by side (docs/core-abi.md "Block scan"): one view, no gathering.
    this.hashes = out.subarray(HEAD, HEAD + count * 32);
    this.rowsAt = HEAD + count * 32;
    this.rows = out.subarray(this.rowsAt, this.rowsAt + count * SCAN_ROW_BYTES);
  }

  private at(i: number): number {
    return this.rowsAt + i * SCAN_ROW_BYTES;
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
