import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClassicLevel } from 'classic-level';
import { guardFaults } from '../../src/storage/fault-guard.js';
import { describeStorageFault, isStorageFault } from '../../src/storage/faults.js';
import { crc32c, damagedTables } from '../../src/storage/table-check.js';

// Storage faults (issue 46 item 5; docs/operations.md "Storage faults"): which errors count, how they
// are worded, which table a corruption is in, and the main thread's handle hearing them.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('storage faults', () => {
  it('CRC-32C is the Castagnoli checksum LevelDB uses', () => {
    // the standard check value of CRC-32C, and RFC 3720's 32 zero bytes
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
  });

  it('finds no damage in a sound database, and names the table whose block was altered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ntv-faults-'));
    dirs.push(dir);
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    // compressible values (snappy blocks) and random ones, enough for several data blocks
    for (let i = 0; i < 2000; i++) await db.put(Buffer.from(`key-${i}`), i % 2 ? randomBytes(100) : Buffer.alloc(100, i % 7));
    await db.compactRange(Buffer.from('k'), Buffer.from('l'));
    await db.close();
    expect(damagedTables(dir)).toEqual([]);
    const table = readdirSync(dir).filter((n) => n.endsWith('.ldb')).sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0]!;
    const bytes = readFileSync(join(dir, table));
    bytes[Math.floor(bytes.length / 3)]! ^= 0x10;
    writeFileSync(join(dir, table), bytes);
    expect(damagedTables(dir)).toEqual([{ file: join(dir, table), reason: expect.stringMatching(/^data block \d+ \(bytes \d+…\d+\) fails its checksum$/) }]);
    // LevelDB's own words name no file; the description names it
    const error = Object.assign(new Error('Corruption: corrupted compressed block contents'), { code: 'LEVEL_CORRUPTION' });
    expect(isStorageFault(error)).toBe(true);
    expect(describeStorageFault(error, dir)).toContain(`is corrupted: Corruption: corrupted compressed block contents; damaged: ${join(dir, table)} (data block`);
  });

  it('words a full disk, and leaves other errors alone', () => {
    const full = Object.assign(new Error('Database failed to open'), { code: 'LEVEL_DATABASE_NOT_OPEN', cause: Object.assign(new Error('IO error: /d/db/000005.ldb: No space left on device'), { code: 'LEVEL_IO_ERROR' }) });
    expect(isStorageFault(full)).toBe(true);
    expect(describeStorageFault(full, '/d/db')).toBe('the disk holding /d is full (IO error: /d/db/000005.ldb: No space left on device): free space or move the data directory to a larger disk, then start again. Storage keeps whole blocks only (docs/storage.md), so nothing committed is lost');
    expect(isStorageFault(new Error('the block writer thread failed: the database\'s head is block 3, but the block files hold 27 blocks past it'))).toBe(false);
    expect(isStorageFault(new Error('nonce too low'))).toBe(false);
  });

  it('the guarded handle calls onFault for a fault in a read or an iterator, not for other errors, and passes results through', async () => {
    const corruption = () => Object.assign(new Error('Corruption: bad entry in block'), { code: 'LEVEL_CORRUPTION' });
    class Fake {
      #value = Uint8Array.of(7);
      get(key: string): Promise<Uint8Array> {
        return key === 'bad' ? Promise.reject(corruption()) : key === 'other' ? Promise.reject(new Error('not found')) : Promise.resolve(this.#value);
      }
      getSync(): Uint8Array {
        return this.#value;
      }
      iterator() {
        return { nextv: () => Promise.reject(corruption()), close: () => Promise.resolve() };
      }
    }
    const faults: unknown[] = [];
    const db = guardFaults(new Fake(), (error) => faults.push(error));
    expect(await db.get('good')).toEqual(Uint8Array.of(7));
    expect(db.getSync()).toEqual(Uint8Array.of(7));
    await expect(db.get('other')).rejects.toThrow('not found');
    expect(faults).toHaveLength(0);
    await expect(db.get('bad')).rejects.toThrow('Corruption: bad entry in block');
    await expect(db.iterator().nextv()).rejects.toThrow('Corruption');
    expect(faults).toHaveLength(2);
  });
});
