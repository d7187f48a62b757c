// The generated ABI files (docs/core-abi.md "How the ABI is generated") are committed so tsc works
// without a build; this fails when one differs from what scripts/gen-abi.mjs would write now from
// the table in abi/, i.e. when someone edited the table without regenerating, or edited a
// generated file by hand. Fix: `node scripts/gen-abi.mjs` (or `npm run build:core`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

describe('generated ABI files', () => {
  it('match the table in abi/', async () => {
    const { generate } = (await import(join(root, 'scripts/gen-abi.mjs'))) as { generate(): Record<string, string> };
    const files = generate();
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(join(root, path), 'utf8'), `${path} is stale: run node scripts/gen-abi.mjs`).toBe(text);
    }
  });
});
