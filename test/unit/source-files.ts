// The TypeScript sources under a directory of the repository, and which of them a generator writes,
// for the tests that scan hand-written code (abi-generated, literal-offsets, record-offsets,
// operation-literals): one list of generated files, from the generators themselves.
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

type Generator = { generate(): Record<string, string> };
const abi = (await import(join(root, 'scripts/gen-abi.mjs'))) as Generator;
const domains = (await import(join(root, 'scripts/gen-domains.mjs'))) as Generator;

/**
 * The files scripts/gen-abi.mjs writes (its outputs, from the table in abi/), the one
 * scripts/gen-status.mjs writes (src/core/status.ts, from assembly/status.ts) and the domain
 * registries scripts/gen-domains.mjs writes (from the domain folders): literals there come from
 * their source.
 */
export const GENERATED: ReadonlySet<string> = new Set([...Object.keys(abi.generate()), ...Object.keys(domains.generate()), 'src/core/status.ts']);

/** The hand-written .ts files of src/ and assembly/. */
export const handWritten = (): string[] => [...sources('src'), ...sources('assembly')].filter((f) => !GENERATED.has(f));
