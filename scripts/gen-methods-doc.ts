import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MethodDefinition } from '../src/rpc/method.js';
import { registerMethods, type MethodDependencies } from '../src/rpc/methods/index.js';
import { MethodRegistry } from '../src/rpc/registry.js';

/**
 * The method tables of docs/methods.md and of any docs page that holds one (a domain's own page,
 * docs/<domain>.md, may list its methods there instead: a new domain then edits no shared page),
 * written from the method definitions (issue 44 item 4: one description per method, from which
 * OpenRPC and the docs are produced). Each table sits between
 * `<!-- methods: name name … -->` and `<!-- /methods -->`: the marker lists the section's methods
 * in order, and every row is rewritten from its definition — the param list from the param names
 * (`?` for optional), then `paramsNote`, and `result.description` (else the summary). The prose
 * around the tables is hand-written and kept as it is.
 *
 * `npm run docs:methods` rewrites the files; test/unit/methods-doc.test.ts fails when one differs
 * from what this would write, or when a registered method is in no table or in two.
 */

const MARKER = /<!-- methods: ([^>]*?) -->\n[\s\S]*?<!-- \/methods -->/g;

/**
 * Dependencies that only answer property reads: the method files read theirs inside handlers, which
 * nothing here calls. intents and consensus are present so their groups register too. The unit
 * tests of the registry use them as well (rpc-openrpc, rpc-parsed-params).
 */
export function inertDependencies(): MethodDependencies {
  const inert: unknown = new Proxy(function inert() {}, { get: (_t, key) => (key === 'then' ? undefined : inert), apply: () => inert, construct: () => inert as object });
  const deps = { chain: inert, readers: inert, validator: inert, network: 'testnet', faucet: inert, subscriptions: inert, p2p: inert, intents: inert, consensus: inert };
  return deps as unknown as MethodDependencies;
}

/** A registry holding every method the node registers, over inert dependencies. */
export function nodeRegistry(info = { title: 'ntv-node JSON-RPC', version: '0.1.0' }): MethodRegistry {
  const registry = new MethodRegistry({ info });
  registerMethods(registry, inertDependencies());
  return registry;
}

/** Every method the node registers. */
export const nodeDefinitions = (): MethodDefinition[] => nodeRegistry().definitions();

/** A table cell: GitHub tables end a cell at any `|`, even inside backticks. */
const cell = (text: string) => text.replace(/\n/g, ' ').replace(/\|/g, '\\|');

/** The row of one method. */
export function methodRow(d: MethodDefinition): string {
  const list = `\`[${d.params.map((p) => (p.required === false ? `${p.name}?` : p.name)).join(', ')}]\``;
  const note = d.paramsNote === undefined ? '' : d.paramsNote.startsWith(',') ? d.paramsNote : ` ${d.paramsNote}`;
  return `| \`${d.name}\` | ${cell(list + note)} | ${cell(d.result.description ?? d.summary)} |`;
}

/** The names listed in the file's markers, in order. */
export function listedMethods(doc: string): string[] {
  return [...doc.matchAll(MARKER)].flatMap((m) => m[1]!.trim().split(/\s+/));
}

/** docs/methods.md with every marked table rewritten from the definitions. */
export function renderMethodsDoc(doc: string, definitions: readonly MethodDefinition[]): string {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  return doc.replace(MARKER, (_block, list: string) => {
    const names = list.trim().split(/\s+/);
    const rows = names.map((name) => {
      const d = byName.get(name);
      if (!d) throw new Error(`a docs table lists ${name}, which no method file registers`);
      return methodRow(d);
    });
    return [`<!-- methods: ${names.join(' ')} -->`, '| method | params | result |', '|---|---|---|', ...rows, '<!-- /methods -->'].join('\n');
  });
}

/** The package root, from scripts/ (vitest) or dist/scripts/ (npm run docs:methods). */
function root(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return join(here, here.includes('/dist/') ? '../..' : '..');
}

export const METHODS_DOC = () => join(root(), 'docs/methods.md');

/** Every docs page holding a method table: docs/methods.md first, then the others by name. */
export function methodDocs(): string[] {
  const dir = join(root(), 'docs');
  const others = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'methods.md').sort()
    .filter((f) => readFileSync(join(dir, f), 'utf8').includes('<!-- methods: '));
  return [METHODS_DOC(), ...others.map((f) => join(dir, f))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const definitions = nodeDefinitions();
  for (const path of methodDocs()) {
    const doc = readFileSync(path, 'utf8');
    const next = renderMethodsDoc(doc, definitions);
    const name = path.slice(root().length + 1);
    if (next === doc) console.log(`${name} is up to date`);
    else {
      writeFileSync(path, next);
      console.log(`${name} rewritten from the method definitions`);
    }
  }
}
