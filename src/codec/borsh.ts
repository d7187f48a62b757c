/**
 * A small canonical Borsh reader and writer (docs/bundle-format.md).
 *
 * Why not the `borsh` package: 2.0.0 does not validate (DEPENDENCIES.md — u8 256 encodes as 0, u64
 * −1n wraps, trailing bytes pass, a bool byte 2 reads as true) and decodes `Vec<u8>` as number[].
 * Borsh has exactly one encoding per value once bool and option tags are 0/1, so a reader that
 * refuses every other byte, refuses trailing bytes and checks UTF-8 strictly only ever accepts the
 * canonical encoding: no re-encode-and-compare pass is needed (the tests still do it, and
 * cross-check the bytes against the `borsh` package). The writer range-checks every value.
 *
 * Errors carry the field path and the byte offset, so a refused bundle says what was wrong.
 */

export type CodecErrorCode =
  | 'TRUNCATED'
  | 'TRAILING_BYTES'
  | 'BAD_BOOL'
  | 'BAD_OPTION_TAG'
  | 'BAD_UTF8'
  | 'UNKNOWN_DISCRIMINANT'
  | 'OUT_OF_RANGE'
  | 'BAD_LENGTH'
  | 'BAD_TYPE'
  | 'LIMIT_EXCEEDED';

export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    readonly code: CodecErrorCode,
    /** Path of the field, e.g. `operations[0].amount`. */
    readonly field: string,
    readonly detail: string,
    /** Byte offset where decoding failed; undefined for encode errors. */
    readonly offset?: number,
  ) {
    super(`${field}: ${detail}${offset === undefined ? '' : ` (at byte ${offset})`}`);
  }

  /** The same error with `prefix` prepended to its field path (used for operations[i].…). */
  within(prefix: string): CodecError {
    return new CodecError(this.code, `${prefix}.${this.field}`, this.detail, this.offset);
  }
}

export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;
const U32_MAX = 0xffff_ffff;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();
// A lone UTF-16 surrogate cannot be encoded as UTF-8; TextEncoder would silently write U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class BorshReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  private need(n: number, field: string): void {
    if (this.bytes.length - this.pos < n) {
      throw new CodecError('TRUNCATED', field, `needs ${n} more byte(s), ${this.bytes.length - this.pos} left`, this.pos);
    }
  }

  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.pos++]!;
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  u128(field: string): bigint {
    this.need(16, field);
    const lo = this.view.getBigUint64(this.pos, true);
    const hi = this.view.getBigUint64(this.pos + 8, true);
    this.pos += 16;
    return hi === 0n ? lo : (hi << 64n) | lo;
  }

  bool(field: string): boolean {
    const at = this.pos;
    const b = this.u8(field);
    if (b > 1) throw new CodecError('BAD_BOOL', field, `bool byte must be 0 or 1, got ${b}`, at);
    return b === 1;
  }

  /** Option tag: false = none, true = some. */
  optionTag(field: string): boolean {
    const at = this.pos;
    const b = this.u8(field);
    if (b > 1) throw new CodecError('BAD_OPTION_TAG', field, `option tag must be 0 or 1, got ${b}`, at);
    return b === 1;
  }

  /** `[u8; n]`, copied so the result does not alias the input. */
  fixedBytes(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.slice(this.pos, this.pos + n);
    this.pos += n;
    return out instanceof Buffer ? new Uint8Array(out) : out;
  }

  /** `Vec<u8>`; `max` bounds the length before anything is allocated. */
  vecBytes(field: string, max = U32_MAX): Uint8Array {
    return this.fixedBytes(this.bytesLength(field, max), field);
  }

  /**
   * `Vec<u8>` as a view into the input, not a copy: only for input the caller owns and never
   * changes (a received frame, fresh from the stream), where a copy would be one more allocation
   * of the whole payload. The view keeps all of the input alive.
   */
  vecBytesView(field: string, max = U32_MAX): Uint8Array {
    const len = this.bytesLength(field, max);
    this.need(len, field);
    const out = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** Length prefix of a `Vec<u8>`, bounded by `max`. */
  private bytesLength(field: string, max: number): number {
    const at = this.pos;
    const len = this.u32(field);
    if (len > max) throw new CodecError('LIMIT_EXCEEDED', field, `length ${len} exceeds the limit of ${max}`, at);
    return len;
  }

  /** Length prefix of a `Vec<T>`, bounded by `max`. */
  vecLength(field: string, max: number): number {
    const at = this.pos;
    const len = this.u32(field);
    if (len > max) throw new CodecError('LIMIT_EXCEEDED', field, `${len} items exceed the limit of ${max}`, at);
    return len;
  }

  string(field: string, maxBytes = U32_MAX): string {
    const at = this.pos;
    const len = this.u32(field);
    if (len > maxBytes) throw new CodecError('LIMIT_EXCEEDED', field, `string of ${len} bytes exceeds the limit of ${maxBytes}`, at);
    this.need(len, field);
    try {
      return utf8Decoder.decode(this.bytes.subarray(this.pos, (this.pos += len)));
    } catch {
      throw new CodecError('BAD_UTF8', field, 'string is not valid UTF-8', at + 4);
    }
  }

  /** Refuses trailing bytes: a canonical encoding ends exactly here. */
  end(field: string): void {
    if (this.pos !== this.bytes.length) {
      throw new CodecError('TRAILING_BYTES', field, `${this.bytes.length - this.pos} trailing byte(s) after the encoding`, this.pos);
    }
  }
}

export class BorshWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number, field: string): this {
    checkInt(value, 0xff, field, 'u8');
    this.reserve(1);
    this.buf[this.pos++] = value;
    return this;
  }

  u16(value: number, field: string): this {
    checkInt(value, 0xffff, field, 'u16');
    this.reserve(2);
    this.view.setUint16(this.pos, value, true);
    this.pos += 2;
    return this;
  }

  u32(value: number, field: string): this {
    checkInt(value, U32_MAX, field, 'u32');
    this.reserve(4);
    this.view.setUint32(this.pos, value, true);
    this.pos += 4;
    return this;
  }

  u64(value: bigint, field: string): this {
    checkBig(value, U64_MAX, field, 'u64');
    this.reserve(8);
    this.view.setBigUint64(this.pos, value, true);
    this.pos += 8;
    return this;
  }

  u128(value: bigint, field: string): this {
    checkBig(value, U128_MAX, field, 'u128');
    this.reserve(16);
    this.view.setBigUint64(this.pos, value & U64_MAX, true);
    this.view.setBigUint64(this.pos + 8, value >> 64n, true);
    this.pos += 16;
    return this;
  }

  bool(value: boolean, field: string): this {
    if (typeof value !== 'boolean') throw new CodecError('BAD_TYPE', field, `bool expected, got ${typeof value}`);
    return this.u8(value ? 1 : 0, field);
  }

  optionTag(present: boolean, field: string): this {
    return this.u8(present ? 1 : 0, field);
  }

  fixedBytes(value: Uint8Array, n: number, field: string): this {
    if (!(value instanceof Uint8Array)) throw new CodecError('BAD_TYPE', field, `[u8; ${n}] expected, got ${describe(value)}`);
    if (value.length !== n) throw new CodecError('BAD_LENGTH', field, `[u8; ${n}] expected, got ${value.length} bytes`);
    return this.raw(value);
  }

  vecBytes(value: Uint8Array, field: string, max = U32_MAX): this {
    if (!(value instanceof Uint8Array)) throw new CodecError('BAD_TYPE', field, `Vec<u8> (Uint8Array) expected, got ${describe(value)}`);
    if (value.length > max) throw new CodecError('LIMIT_EXCEEDED', field, `length ${value.length} exceeds the limit of ${max}`);
    this.u32(value.length, field);
    return this.raw(value);
  }

  vecLength(length: number, field: string, max: number): this {
    if (length > max) throw new CodecError('LIMIT_EXCEEDED', field, `${length} items exceed the limit of ${max}`);
    return this.u32(length, field);
  }

  string(value: string, field: string, maxBytes = U32_MAX): this {
    if (typeof value !== 'string') throw new CodecError('BAD_TYPE', field, `string expected, got ${describe(value)}`);
    if (LONE_SURROGATE.test(value)) throw new CodecError('BAD_UTF8', field, 'string holds a lone UTF-16 surrogate, which has no UTF-8 encoding');
    const bytes = utf8Encoder.encode(value);
    if (bytes.length > maxBytes) throw new CodecError('LIMIT_EXCEEDED', field, `string of ${bytes.length} bytes exceeds the limit of ${maxBytes}`);
    this.u32(bytes.length, field);
    return this.raw(bytes);
  }

  raw(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** The encoded bytes (a fresh array, sized exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

function checkInt(value: number, max: number, field: string, type: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new CodecError('BAD_TYPE', field, `${type} must be an integer number, got ${describe(value)}`);
  }
  if (value < 0 || value > max) throw new CodecError('OUT_OF_RANGE', field, `${type} must be 0…${max}, got ${value}`);
}

function checkBig(value: bigint, max: bigint, field: string, type: string): void {
  if (typeof value !== 'bigint') throw new CodecError('BAD_TYPE', field, `${type} must be a bigint, got ${describe(value)}`);
  if (value < 0n || value > max) throw new CodecError('OUT_OF_RANGE', field, `${type} must be 0…${max}, got ${value}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
}
