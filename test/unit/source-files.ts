// The TypeScript sources under a directory of the repository, for the tests that scan hand-written
// code (test/unit/abi-generated.test.ts, test/unit/literal-offsets.test.ts).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '../..');

/** Every .ts file (not .d.ts) under `dir`, as a path from the repository root. */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}
