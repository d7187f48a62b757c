// The core's exports are typed for the host from assembly/index.ts (scripts/gen-abi.mjs →
// src/core/exports.ts; docs/core-abi.md "How the ABI is generated"). This fails when the built
// wasm exports a function the typed list lacks or lacks one it names, or when an export is not a
// function of the arity its type says. Fix: rebuild (`npm run build:core`), which regenerates the list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_EXPORT_NAMES, type CoreExports } from '../../src/core/exports.js';
import { compileCore, instantiateCore } from '../../src/core/loader.js';

const root = join(import.meta.dirname, '../..');

/** Parameters of each export as src/core/exports.ts declares them. */
function declaredArity(): Map<string, number> {
  const text = readFileSync(join(root, 'src/core/exports.ts'), 'utf8');
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^ {2}([a-z0-9_]+)\(([^)]*)\): /gm)) out.set(m[1]!, m[2]!.trim() === '' ? 0 : m[2]!.split(',').length);
  return out;
}

describe('the core exports typed in src/core/exports.ts', () => {
  it('are exactly the functions build/core.wasm exports, with their arity', async () => {
    const module = await compileCore();
    const core = await instantiateCore(module, { get: () => undefined });
    const wasmFunctions = Object.entries(core as unknown as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => k)
      .sort();
    expect(wasmFunctions).toEqual([...CORE_EXPORT_NAMES].sort());
    const arity = declaredArity();
    expect([...arity.keys()].sort()).toEqual([...CORE_EXPORT_NAMES].sort());
    for (const name of CORE_EXPORT_NAMES) {
      const fn = (core as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
      expect(fn.length, `${name}'s parameters`).toBe(arity.get(name));
    }
    // The memory is the only other export.
    const others = Object.keys(core).filter((k) => typeof (core as unknown as Record<string, unknown>)[k] !== 'function');
    expect(others).toEqual(['memory']);
    const typed: CoreExports = core;
    expect(typed.memory.buffer.byteLength).toBeGreaterThan(0);
  });
});
