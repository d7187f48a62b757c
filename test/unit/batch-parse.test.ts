/** src/rpc/batch-parse.ts: a batch body parsed element by element is exactly JSON.parse of the whole, or left to it. */
import { describe, expect, it } from 'vitest';
import { parseArrayByElement } from '../../src/rpc/batch-parse.js';

/** A small deterministic generator (xorshift), so a failure names its seed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 0x100000000;
  };
}

const PIECES = ['a', 'Z', ' ', ',', ']', '[', '{', '}', ':', '"', '\\', '\n', 'é', '✓', '𝄞', '\u2028', '\u0000', '0x12ab'];

function randomString(r: () => number): string {
  let s = '';
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 5 : 7));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor(r() * 1e6) - 5e5;
    case 3: return r() * 1000;
    case 4: return randomString(r);
    case 5: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 4); i > 0; i--) o[randomString(r)] = randomValue(r, depth + 1);
      return o;
    }
  }
}

/** JSON.parse of the whole, or the error it throws. */
function whole(bytes: Buffer): { value?: unknown; error?: boolean } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { error: true };
  }
}

describe('parseArrayByElement', () => {
  it('gives what JSON.parse gives for random arrays, compact and indented', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = rng(seed);
      const value = Array.from({ length: Math.floor(r() * 6) }, () => randomValue(r, 0));
      for (const text of [JSON.stringify(value), JSON.stringify(value, null, seed % 3 === 0 ? '\t' : 2), ` \r\n${JSON.stringify(value)}\n `]) {
        const parsed = parseArrayByElement(Buffer.from(text));
        expect(parsed, `seed ${seed}`).toEqual(JSON.parse(text));
      }
    }
  });

  it('a JSON-RPC batch of submitted bundles, the request the path is for', () => {
    const hex = Buffer.alloc(185, 0xab).toString('hex');
    const batch = Array.from({ length: 500 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'svc_submitBundle', params: [hex] }));
    expect(parseArrayByElement(Buffer.from(JSON.stringify(batch)))).toEqual(batch);
  });

  it('never answers where JSON.parse of the whole fails, nor differs from it (random corruptions)', () => {
    let answered = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed * 7919);
      const value = Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomValue(r, 0));
      const bytes = Buffer.from(JSON.stringify(value));
      // flip, drop or insert one to three bytes
      let mutated = bytes;
      for (let m = 1 + Math.floor(r() * 3); m > 0; m--) {
        const at = Math.floor(r() * mutated.length);
        const b = Buffer.from([PIECES.join('').charCodeAt(Math.floor(r() * 20)) & 0xff]);
        const kind = Math.floor(r() * 3);
        mutated = kind === 0 ? Buffer.concat([mutated.subarray(0, at), b, mutated.subarray(at + 1)])
          : kind === 1 ? Buffer.concat([mutated.subarray(0, at), mutated.subarray(at + 1)])
            : Buffer.concat([mutated.subarray(0, at), b, mutated.subarray(at)]);
      }
      const split = parseArrayByElement(mutated);
      const reference = whole(mutated);
      if (split === undefined) continue;
      answered++;
      expect(reference.error, `seed ${seed}: ${mutated.toString('latin1')}`).toBeUndefined();
      expect(split, `seed ${seed}`).toEqual(reference.value);
    }
    expect(answered).toBeGreaterThan(100);
  });

  it('leaves to JSON.parse what is not a whole array: other values, trailing text, empty elements, unbalanced', () => {
    for (const text of ['{"a":1}', '42', '"[1]"', '[1,2] x', '[1,2]]', '[1,,2]', '[1,]', '[,1]', '[1', '[{"a":[1}]', '[{]}', '["abc]', '\ufeff[1]', '']) {
      expect(parseArrayByElement(Buffer.from(text)), text).toBeUndefined();
    }
    expect(parseArrayByElement(Buffer.from('[]'))).toEqual([]);
    expect(parseArrayByElement(Buffer.from(' [ \n ] '))).toEqual([]);
    expect(parseArrayByElement(Buffer.from('[[],{}]'))).toEqual([[], {}]);
  });
});
