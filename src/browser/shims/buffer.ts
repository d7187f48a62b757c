// @ts-nocheck: Buffer.from has Node's signature, which TypeScript refuses as an override of Uint8Array.from; the shim is typed by its callers, which are typed against @types/node's Buffer.
/**
 * The part of Node's Buffer the host modules of the browser build use (block and address codecs,
 * state keys as latin1 strings), on Uint8Array. esbuild injects it as the global `Buffer`
 * (scripts/build-browser.mjs); Node code keeps the real one. Encodings: hex, latin1 (binary),
 * utf8, base64.
 */
type Encoding = 'hex' | 'latin1' | 'binary' | 'utf8' | 'utf-8' | 'base64';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Buffer extends Uint8Array {
  static from(value: string | ArrayBuffer | ArrayLike<number> | Uint8Array, encodingOrOffset?: Encoding | number, length?: number): Buffer {
    if (typeof value === 'string') return Buffer.fromString(value, (encodingOrOffset as Encoding | undefined) ?? 'utf8');
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
      const offset = (encodingOrOffset as number | undefined) ?? 0;
      return new Buffer(value as ArrayBuffer, offset, length ?? value.byteLength - offset);
    }
    const out = new Buffer((value as ArrayLike<number>).length);
    out.set(value as ArrayLike<number>);
    return out;
  }

  private static fromString(text: string, encoding: Encoding): Buffer {
    switch (encoding) {
      case 'hex': {
        const n = text.length >>> 1;
        const out = new Buffer(n);
        for (let i = 0; i < n; i++) {
          const byte = parseInt(text.substr(i * 2, 2), 16);
          if (Number.isNaN(byte)) return out.subarray(0, i) as Buffer; // Node stops at the first bad pair
          out[i] = byte;
        }
        return out;
      }
      case 'latin1':
      case 'binary': {
        const out = new Buffer(text.length);
        for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
        return out;
      }
      case 'base64': {
        const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
        return Buffer.fromString(bin, 'latin1');
      }
      default:
        return Buffer.from(encoder.encode(text));
    }
  }

  static alloc(size: number): Buffer {
    return new Buffer(size);
  }

  static allocUnsafe(size: number): Buffer {
    return new Buffer(size);
  }

  static isBuffer(value: unknown): value is Buffer {
    return value instanceof Buffer;
  }

  static byteLength(text: string): number {
    return encoder.encode(text).length;
  }

  static concat(list: readonly Uint8Array[], total?: number): Buffer {
    const out = new Buffer(total ?? list.reduce((n, b) => n + b.length, 0));
    let o = 0;
    for (const b of list) {
      out.set(b.subarray(0, Math.min(b.length, out.length - o)), o);
      o += b.length;
      if (o >= out.length) break;
    }
    return out;
  }

  static compare(a: Uint8Array, b: Uint8Array): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }

  override toString(encoding: Encoding = 'utf8', start = 0, end = this.length): string {
    const bytes = this.subarray(start, end);
    switch (encoding) {
      case 'hex': {
        let out = '';
        for (const b of bytes) out += (b < 16 ? '0' : '') + b.toString(16);
        return out;
      }
      case 'latin1':
      case 'binary': {
        let out = '';
        for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
        return out;
      }
      case 'base64':
        return btoa(bytes.toString('latin1'));
      default:
        return decoder.decode(bytes);
    }
  }

  override subarray(start?: number, end?: number): Buffer {
    return super.subarray(start, end) as Buffer;
  }

  equals(other: Uint8Array): boolean {
    return Buffer.compare(this, other) === 0;
  }

  readUInt32LE(offset = 0): number {
    return new DataView(this.buffer, this.byteOffset, this.byteLength).getUint32(offset, true);
  }

  writeUInt32LE(value: number, offset = 0): number {
    new DataView(this.buffer, this.byteOffset, this.byteLength).setUint32(offset, value, true);
    return offset + 4;
  }

  readBigUInt64LE(offset = 0): bigint {
    return new DataView(this.buffer, this.byteOffset, this.byteLength).getBigUint64(offset, true);
  }

  copy(target: Uint8Array, targetStart = 0, sourceStart = 0, sourceEnd = this.length): number {
    const part = this.subarray(sourceStart, Math.min(sourceEnd, sourceStart + target.length - targetStart));
    target.set(part, targetStart);
    return part.length;
  }
}
