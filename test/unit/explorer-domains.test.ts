// The explorer's domain registry (issue 44 item 1: a domain's explorer data beside its other parts;
// docs/explorer.md "Domains"): each explorer/domains/<name>.tsx is listed in explorer/domains/index.ts
// under its ABI group's name, and the shell and the generic pages reach domain pages only through that
// list, so they name no domain's route, method or page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './source-files.js';

const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: { group: string }[] };
const groups = new Set(operations.map((o) => o.group));
const dir = join(root, 'explorer/domains');
const files = readdirSync(dir).filter((f) => f.endsWith('.tsx')).map((f) => f.replace(/\.tsx$/, '')).sort();
const registry = readFileSync(join(dir, 'index.ts'), 'utf8');
const code = (f: string) => readFileSync(join(root, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Methods of no one domain that domain pages also call: the search (a collection by address) and the network's stats. */
const SHARED_METHODS = new Set(['svc_search', 'svc_getNetworkStats']);

describe('explorer domains (explorer/domains/)', () => {
  it('each file is an ABI group, declares its name as that group, and is listed in the registry', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      expect(groups.has(f), `explorer/domains/${f}.tsx is an ABI group`).toBe(true);
      expect(readFileSync(join(dir, `${f}.tsx`), 'utf8'), f).toContain(`name: '${f}'`);
      expect(registry, `explorer/domains/index.ts imports ./${f}.js`).toContain(`from './${f}.js'`);
    }
  });

  it('the shell and the generic pages name no domain\'s route or RPC method', () => {
    const words: RegExp[] = [];
    for (const f of files) {
      const text = readFileSync(join(dir, `${f}.tsx`), 'utf8');
      for (const m of text.matchAll(/'?([a-z-]+)'?: \([a-z, ]*\) => </g)) words.push(new RegExp(`['"#/]${m[1]}\\b`));
      for (const m of text.matchAll(/useCall<[^(]*\('(svc_[A-Za-z]+)'/g)) if (!SHARED_METHODS.has(m[1]!)) words.push(new RegExp(`'${m[1]}'`));
    }
    expect(words.length).toBeGreaterThan(15);
    const generic = ['explorer/main.tsx', 'explorer/ui.tsx', ...readdirSync(join(root, 'explorer/pages')).map((f) => `explorer/pages/${f}`)];
    const found = generic.flatMap((g) => words.filter((w) => w.test(code(g))).map((w) => `${g}: ${w.source}`));
    expect(found).toEqual([]);
  });
});
