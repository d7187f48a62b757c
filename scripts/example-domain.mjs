// The worked example of docs/adding-a-domain.md, run for real: adds the example domain guestbook
// (test/fixtures/example-domain/) to a copy of this repository, regenerates what is generated, and
// reports every file the addition touched, by kind. It fails when a file outside the table rows,
// the domain's folders, its docs page, its tests and the generated files had to change, which is
// issue 44's claim for a new domain. The example never enters the repository itself: a release has
// no guestbook.
//
//   node scripts/example-domain.mjs           apply, generate, classify (seconds)
//   node scripts/example-domain.mjs --build   also compile the core, type-check host, tests and explorer,
//                                             write the method tables, then run the example's own tests
//                                             and the repository's domain rules in the copy (minutes)
//   --keep                                    leave the copy (its path is printed)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = join(root, 'test/fixtures/example-domain');
export const DOMAIN = 'guestbook';

/** The repository's tests of what every domain keeps, run in the copy with the example in it (--build). */
const RULES = [
  'test/unit/abi-generated.test.ts', 'test/unit/record-offsets.test.ts', 'test/unit/literal-offsets.test.ts', 'test/unit/operation-literals.test.ts',
  'test/unit/core-domains.test.ts', 'test/unit/domain-registry.test.ts', 'test/unit/explorer-domains.test.ts', 'test/unit/imports.test.ts',
  'test/unit/methods-doc.test.ts', 'test/core/roots.test.ts', 'test/core/decode-ops.test.ts',
];

/** Every file of the fixture but rows.mjs, as a path inside the repository. */
function fixtureFiles(dir = FIXTURE) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return fixtureFiles(p);
    return name === 'rows.mjs' && dir === FIXTURE ? [] : [relative(FIXTURE, p)];
  });
}

/** `text` with `snippet` inserted before the line closing the table `table` (`export const table = [`/`{`). */
function insertRow(text, table, snippet, file) {
  if (table === '') return text.replace(/\n*$/, '\n') + snippet + '\n';
  const start = text.search(new RegExp(`^export const ${table} = [\\[{]`, 'm'));
  if (start < 0) throw new Error(`${file}: no table ${table}`);
  const close = text.slice(start).search(/^[\]}];$/m);
  if (close < 0) throw new Error(`${file}: table ${table} is not closed`);
  const at = start + close;
  return text.slice(0, at) + snippet + '\n' + text.slice(at);
}

const run = (cwd, cmd, args) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/**
 * Copies the repository's tracked files to a new directory (a git repository of its own, one
 * commit), adds the example domain, runs the generators, and returns the copy and what changed.
 */
export async function applyExample({ build = false } = {}) {
  const copy = mkdtempSync(join(tmpdir(), 'ntv-example-domain-'));
  const tracked = run(root, 'git', ['ls-files', '-z']).split('\0').filter(Boolean).filter((f) => !f.startsWith('test/fixtures/example-domain/'));
  for (const f of tracked) cpSync(join(root, f), join(copy, f), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  run(copy, 'git', ['init', '-q']);
  run(copy, 'git', ['add', '-A']);
  run(copy, 'git', ['-c', 'user.name=example', '-c', 'user.email=example@localhost', 'commit', '-q', '-m', 'base']);

  const { rows } = await import(join(FIXTURE, 'rows.mjs'));
  for (const [file, tables] of Object.entries(rows)) {
    let text = readFileSync(join(copy, file), 'utf8');
    for (const [table, snippet] of Object.entries(tables)) text = insertRow(text, table, snippet, file);
    writeFileSync(join(copy, file), text);
  }
  for (const f of fixtureFiles()) cpSync(join(FIXTURE, f), join(copy, f));

  const node = process.execPath;
  for (const gen of ['scripts/gen-status.mjs', 'scripts/gen-abi.mjs', 'scripts/gen-domains.mjs']) run(copy, node, [gen]);
  if (build) {
    run(copy, node, ['node_modules/assemblyscript/bin/asc.js', 'assembly/index.ts', '--target', 'release']);
    run(copy, node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    run(copy, node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.test.json']);
    run(copy, node, ['node_modules/typescript/bin/tsc', '-p', 'explorer/tsconfig.json']);
    run(copy, node, ['dist/scripts/gen-methods-doc.js']);
    // the example's own tests, and the repository's rules a domain must keep, now holding it too
    run(copy, node, ['node_modules/vitest/vitest.mjs', 'run', ...fixtureFiles().filter((f) => f.startsWith('test/')), ...RULES]);
  }
  run(copy, 'git', ['add', '-A']);
  const changed = run(copy, 'git', ['diff', '--cached', '--name-status', '--no-renames']).trim().split('\n').map((l) => {
    const [status, path] = l.split('\t');
    return { status, path };
  });
  return { copy, changed };
}

/** What a changed path is, for the walk-through's count; 'other' fails the claim. */
export function classify(path, generated) {
  if (/^abi\/[a-z]+\.mjs$/.test(path) || path === 'assembly/status.ts') return 'table';
  if (generated.has(path) || path === 'docs/methods.md') return 'generated';
  if (path.startsWith(`assembly/domains/${DOMAIN}/`) || path.startsWith(`src/domains/${DOMAIN}/`) || path === `explorer/domains/${DOMAIN}.tsx`) return 'domain';
  if (path === `docs/${DOMAIN}.md`) return 'docs';
  if (path.startsWith('test/') && path.includes(DOMAIN)) return 'tests';
  return 'other';
}

/** The files the generators write: their outputs in the copy, and the status table's host file. */
export async function generatedIn(copy) {
  const out = new Set(['src/core/status.ts']);
  for (const gen of ['scripts/gen-abi.mjs', 'scripts/gen-domains.mjs']) {
    const { generate } = await import(join(copy, gen));
    for (const f of Object.keys(generate())) out.add(f);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const build = process.argv.includes('--build');
  const { copy, changed } = await applyExample({ build });
  const generated = await generatedIn(copy);
  const kinds = {};
  for (const c of changed) (kinds[classify(c.path, generated)] ??= []).push(`${c.status} ${c.path}`);
  for (const [kind, files] of Object.entries(kinds)) console.log(`${kind} (${files.length}):\n  ${files.join('\n  ')}`);
  const handEdited = changed.filter((c) => !['generated'].includes(classify(c.path, generated))).length;
  console.log(`\n${changed.length} files changed: ${handEdited} written by hand, ${(kinds.generated ?? []).length} generated${build ? '; built, type-checked and tested' : ''}`);
  if (process.argv.includes('--keep')) console.log(`copy: ${copy}`);
  else rmSync(copy, { recursive: true, force: true });
  if (kinds.other) {
    console.error(`a new domain touched files outside its table rows, folders, docs and tests: ${kinds.other.join(', ')}`);
    process.exit(1);
  }
}
