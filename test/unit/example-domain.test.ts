// Issue 44's claim for a new domain, checked on every run (docs/adding-a-domain.md "Worked example"):
// the example domain guestbook (test/fixtures/example-domain/), added to a copy of the repository,
// touches its table rows, its folders, its docs page and its tests, and otherwise only files the
// generators write. The whole run, which also compiles the core, type-checks host and explorer and
// runs the example's own core tests in the copy, is `npm run example-domain`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './source-files.js';

interface Example {
  applyExample(o?: { build?: boolean }): Promise<{ copy: string; changed: Array<{ status: string; path: string }> }>;
  classify(path: string, generated: Set<string>): string;
  generatedIn(copy: string): Promise<Set<string>>;
}
const example = (await import(join(root, 'scripts/example-domain.mjs'))) as Example;

describe('the worked example domain', () => {
  it('touches only its table rows, its folders, its docs page, its tests and generated files', async () => {
    const { copy, changed } = await example.applyExample();
    try {
      const generated = await example.generatedIn(copy);
      const byKind: Record<string, string[]> = {};
      for (const c of changed) (byKind[example.classify(c.path, generated)] ??= []).push(c.path);
      expect(byKind.other).toBeUndefined();
      // the counts docs/adding-a-domain.md "Worked example" gives
      expect(byKind.table?.length).toBe(4);
      expect(byKind.domain?.length).toBe(7);
      expect(byKind.docs).toEqual(['docs/guestbook.md']);
      expect(byKind.tests).toEqual(['test/core/guestbook.test.ts']);
      // new files only in the domain's places; the registries list the domain without a hand edit
      for (const c of changed.filter((x) => x.status === 'A')) expect(['domain', 'docs', 'tests']).toContain(example.classify(c.path, generated));
      expect(changed.find((c) => c.path === 'src/domains/index.ts')?.status).toBe('M');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);
});
