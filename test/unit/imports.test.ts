import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The import graph of src/ (docs/architecture.md "Layers"): no run-time cycle, and imports point
 * one way, rpc → (intents, consensus, p2p, eth) → chain → (storage, core, codec). The cycle search
 * is the one of ../shared/tools/import-cycles.mjs (Tarjan over run-time imports; `import type`
 * vanishes at run time); the layer rules read every import, type-only ones included.
 */

const SRC = resolve(import.meta.dirname, '../../src');

interface Import {
  /** the importing file, relative to src/ */
  from: string;
  /** the imported file relative to src/, or the package name */
  to: string;
  typeOnly: boolean;
  local: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

function importsOf(file: string): Import[] {
  const out: Import[] = [];
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(import|export)\s([^'"]*?)from\s+['"]([^'"]+)['"]/gm)) {
    const typeOnly = /^type\s/.test(m[2]!);
    const spec = m[3]!;
    const from = relative(SRC, file);
    if (!spec.startsWith('.')) {
      out.push({ from, to: spec, typeOnly, local: false });
      continue;
    }
    const target = resolve(dirname(file), spec).replace(/\.js$/, '');
    const found = [`${target}.ts`, join(target, 'index.ts')].find((c) => existsSync(c));
    if (found) out.push({ from, to: relative(SRC, found), typeOnly, local: true });
  }
  return out;
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);

/** Strongly connected components of more than one file among run-time imports, or all imports with `types` (Tarjan). */
function runtimeCycles(types = false): string[][] {
  const edges = new Map<string, string[]>();
  for (const f of files) edges.set(relative(SRC, f), []);
  for (const i of imports) if (i.local && (types || !i.typeOnly)) edges.get(i.from)!.push(i.to);
  let n = 0;
  const stack: string[] = [], onStack = new Set<string>(), index = new Map<string, number>(), low = new Map<string, number>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, n); low.set(v, n); n++; stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) cycles.push(c.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const top = (path: string) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);
/**
 * The layer a file is in: its top folder, but for src/domains/, whose files sit in two layers
 * (docs/architecture.md "Domain modules"): a domain's `rpc.ts` (and `<part>-rpc.ts`, where a domain
 * splits its methods: collections' multitoken-rpc.ts) and the list of them (`domains/rpc.ts`) are the RPC layer; a domain's `client.ts` is the client's; the rest (the
 * chain-level hooks, readers, receipt formatting, `domains/index.ts`) is `domains`, at the chain's level.
 */
const DOMAIN_RPC = /^domains\/(?:rpc\.ts|[^/]+\/(?:[a-z-]+-)?rpc\.ts)$/;
const DOMAIN_CLIENT = /^domains\/[^/]+\/client\.ts$/;
const folder = (path: string) => (DOMAIN_RPC.test(path) ? 'rpc' : DOMAIN_CLIENT.test(path) ? 'client' : top(path));
const violations = (pred: (i: Import) => boolean) => imports.filter(pred).map((i) => `${i.from} → ${i.to}`);
const isDatabaseOrNetwork = (pkg: string) => pkg === 'level' || pkg === 'classic-level' || /(^|\/|-)libp2p|^@libp2p\/|^@multiformats\//.test(pkg);

describe('imports of src/', () => {
  it('finds the files and their imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.filter((i) => i.local).length).toBeGreaterThan(300);
  });

  it('has no run-time import cycle', () => {
    expect(runtimeCycles()).toEqual([]);
  });

  it('has no import cycle with type-only imports counted: a domain\'s wallet helpers type `this` by src/client/wallet-core.ts, not by the Wallet that imports them', () => {
    expect(runtimeCycles(true)).toEqual([]);
  });

  it('nothing below rpc/ imports rpc/ (errors are typed below and mapped to RpcError in rpc/)', () => {
    const above = new Set(['rpc', 'cli', 'node.ts', 'index.ts']);
    expect(violations((i) => i.local && folder(i.to) === 'rpc' && !above.has(folder(i.from)))).toEqual([]);
  });

  it('storage/, core/ and codec/ import nothing of the layers above them (domains/ included)', () => {
    const upper = new Set(['chain', 'domains', 'eth', 'intents', 'consensus', 'p2p', 'rpc', 'cli', 'client', 'node.ts']);
    expect(violations((i) => i.local && ['storage', 'core', 'codec'].includes(folder(i.from)) && upper.has(folder(i.to)))).toEqual([]);
  });

  it('chain/ imports only the layers below it (core, codec, storage)', () => {
    const upper = new Set(['eth', 'intents', 'consensus', 'p2p', 'rpc', 'cli', 'client', 'node.ts']);
    expect(violations((i) => i.local && folder(i.from) === 'chain' && upper.has(folder(i.to)))).toEqual([]);
  });

  it('rpc/, intents/, eth/ and consensus/ see the chain only through src/chain/interface.ts', () => {
    const users = new Set(['rpc', 'intents', 'eth', 'consensus', 'p2p']);
    expect(violations((i) => i.local && users.has(folder(i.from)) && i.to === 'chain/chain.ts')).toEqual([]);
  });

  it('the block path (chain/pipeline/) is behind the Chain facade: it imports neither chain.ts nor import.ts nor replay.ts, and only chain.ts, the entry points of blocks made elsewhere (import.ts, replay.ts) and admission/ import it', () => {
    const pipeline = (path: string) => path.startsWith('chain/pipeline/');
    const entries = new Set(['chain/chain.ts', 'chain/import.ts', 'chain/replay.ts']);
    expect(imports.some((i) => i.local && pipeline(i.to) && !pipeline(i.from))).toBe(true);
    expect(violations((i) => i.local && pipeline(i.from) && (entries.has(i.to) || i.to.startsWith('chain/admission/') && !i.typeOnly))).toEqual([]);
    expect(violations((i) => i.local && pipeline(i.to) && !pipeline(i.from) && !entries.has(i.from) && !i.from.startsWith('chain/admission/'))).toEqual([]);
  });

  it('the steps of the block path are files whose names say their order (docs/architecture.md "Block path")', () => {
    const steps = files.map((f) => relative(SRC, f)).filter((f) => f.startsWith('chain/pipeline/') && /^\d-/.test(f.slice('chain/pipeline/'.length))).sort();
    expect(steps).toEqual(['chain/pipeline/1-check.ts', 'chain/pipeline/2-execute.ts', 'chain/pipeline/3-commit.ts', 'chain/pipeline/4-write.ts', 'chain/pipeline/5-notify.ts']);
  });

  it('domains/ by layer: the chain-level files (domains/index.ts, each domain\'s hooks, reader, receipts) import no RPC or client file, a domain\'s rpc.ts is imported only by the RPC layer, and src/rpc/ reaches the domains\' methods through domains/rpc.ts', () => {
    expect(files.map((f) => relative(SRC, f)).filter((f) => DOMAIN_RPC.test(f)).length).toBeGreaterThanOrEqual(2);
    const chainLevel = (path: string) => path.startsWith('domains/') && folder(path) === 'domains';
    expect(violations((i) => i.local && chainLevel(i.from) && ['rpc', 'client', 'cli', 'eth', 'intents', 'consensus', 'p2p', 'node.ts'].includes(folder(i.to)))).toEqual([]);
    expect(violations((i) => i.local && DOMAIN_RPC.test(i.to) && folder(i.from) !== 'rpc')).toEqual([]);
    expect(violations((i) => i.local && top(i.from) === 'rpc' && /^domains\/[^/]+\/rpc\.ts$/.test(i.to))).toEqual([]);
    expect(violations((i) => i.local && DOMAIN_CLIENT.test(i.to) && folder(i.from) !== 'client')).toEqual([]);
  });

  it('rpc/, intents/ and eth/ never import the database or the network stack', () => {
    expect(violations((i) => !i.local && ['rpc', 'intents', 'eth'].includes(folder(i.from)) && isDatabaseOrNetwork(i.to))).toEqual([]);
  });
});

/**
 * test/ and bench/ never import each other: what both use (the bigint reference model, the bundle
 * encoder of the core tests, the in-process local chain, the /proc readers) lives in testkit/, which
 * imports only src/ and packages (docs/architecture.md "Tests, benchmarks and testkit/"). Dynamic
 * `import()` counts as well as static imports, type-only ones included.
 */
describe('imports between test/, bench/ and testkit/', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const top = (path: string) => relative(ROOT, path).split('/')[0]!;
  const edges = ['test', 'bench', 'testkit', 'scripts'].flatMap((dir) =>
    sourceFiles(join(ROOT, dir)).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const specs = [
        ...[...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
        ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
      ];
      return specs.filter((s) => s.startsWith('.')).map((s) => ({ from: relative(ROOT, file), to: relative(ROOT, resolve(dirname(file), s)) }));
    }),
  );
  const crossing = (from: string, to: string[]) => edges.filter((e) => top(join(ROOT, e.from)) === from && to.includes(top(join(ROOT, e.to)))).map((e) => `${e.from} → ${e.to}`);

  it('finds the imports of all four folders', () => {
    for (const dir of ['test', 'bench', 'testkit', 'scripts']) expect(edges.some((e) => e.from.startsWith(`${dir}/`))).toBe(true);
    expect(edges.some((e) => e.from.startsWith('test/') && e.to.startsWith('testkit/'))).toBe(true);
    expect(edges.some((e) => e.from.startsWith('bench/') && e.to.startsWith('testkit/'))).toBe(true);
  });

  it('test/ imports nothing of bench/', () => {
    expect(crossing('test', ['bench'])).toEqual([]);
  });

  it('bench/ imports nothing of test/', () => {
    expect(crossing('bench', ['test'])).toEqual([]);
  });

  it('testkit/ imports only src/, itself and packages', () => {
    expect(crossing('testkit', ['test', 'bench', 'scripts'])).toEqual([]);
  });
});
