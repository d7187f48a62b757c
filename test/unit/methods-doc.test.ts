import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listedMethods, methodDocs, methodRow, METHODS_DOC, nodeDefinitions, renderMethodsDoc } from '../../scripts/gen-methods-doc.js';

/**
 * docs/methods.md's tables are produced from the method definitions (issue 44 item 4: one
 * description per method, scripts/gen-methods-doc.ts), as the ABI files are from abi/
 * (abi-generated.test.ts). Fix: `npm run docs:methods`.
 */
describe('docs/methods.md', () => {
  const doc = readFileSync(METHODS_DOC(), 'utf8');
  const definitions = nodeDefinitions();

  const docs = methodDocs().map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('is what npm run docs:methods writes from the definitions, as is every other page with a method table', () => {
    expect(docs[0]!.text).toBe(doc);
    for (const { path, text } of docs) expect(renderMethodsDoc(text, definitions), `${path} is stale: run npm run docs:methods`).toBe(text);
  });

  it('lists every registered method in one table, once, across those pages', () => {
    const listed = docs.flatMap((d) => listedMethods(d.text));
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
    expect(definitions.map((d) => d.name).filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('writes a row from the param names, the params note and the result description, escaping pipes', () => {
    const d = definitions.find((m) => m.name === 'svc_getAddressHistory')!;
    const row = methodRow(d);
    expect(row.startsWith('| `svc_getAddressHistory` | `[address, limit?, before?, with_range?]` (default 100')).toBe(true);
    expect(row).toContain('(`sender` \\| `recipient` \\| `participant`)');
    expect(() => renderMethodsDoc('<!-- methods: svc_nope -->\n<!-- /methods -->', definitions)).toThrow(/svc_nope/);
  });
});
