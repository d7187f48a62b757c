import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { fromHex } from '../../src/codec/hash.js';
import { HexBytes } from '../../src/rpc/schemas.js';
import { hexBytesOfChecked } from '../../src/rpc/methods/transaction.js';

// svc_submitBundle decodes its param without fromHex's second check, because HexBytes() has
// already checked it (docs/performance.md "Changes measured"): the bytes must be fromHex's for
// every text the schema accepts.
describe('hexBytesOfChecked', () => {
  const schema = TypeCompiler.Compile(HexBytes({ maxBytes: 256 * 1024 }));

  it('gives fromHex\'s bytes for every text the HexBytes schema accepts', () => {
    const texts: string[] = ['', '0x', '00', '0x00', 'ff', '0xFF', '0xaB'];
    for (let n = 0; n < 300; n++) {
      const hex = randomBytes(n % 40).toString('hex');
      const mixed = [...hex].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join('');
      texts.push(hex, `0x${hex}`, mixed, `0x${mixed}`);
    }
    for (const text of texts) {
      expect(schema.Check(text)).toBe(true);
      const bytes = hexBytesOfChecked(text);
      expect(bytes).toEqual(fromHex(text));
      // owns its whole ArrayBuffer (it may be transferred to a worker)
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
    }
  });

  it('is only reached for texts fromHex accepts: the schema refuses the rest first', () => {
    for (const text of ['0', '0x0', 'zz', '0xg0', '0X00', ' 00', '00 ', '0x0x00']) expect(schema.Check(text)).toBe(false);
  });
});
