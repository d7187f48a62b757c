// Bundles the explorer page (explorer/, preact + TSX) into build/explorer/ with esbuild's JS API:
// hashed, immutable assets under assets/ and an index.html that names them. The node serves the
// result on GET / (src/rpc/explorer-static.ts); nothing is fetched from a CDN at run time.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build/explorer');

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'assets'), { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['explorer/main.tsx'],
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
if (!js) throw new Error('esbuild produced no JavaScript bundle');
const tags = [
  css ? `<link rel="stylesheet" href="/assets/${css}">` : '',
  `<script type="module" src="/assets/${js}"></script>`,
].filter(Boolean).join('\n');
const template = await readFile(join(root, 'explorer/index.html'), 'utf8');
await writeFile(join(out, 'index.html'), template.replace('<!-- assets -->', tags));
const bytes = Object.values(result.metafile.outputs).filter((o) => !o.entryPoint?.endsWith('.map')).reduce((n, o) => n + o.bytes, 0);
console.log(`explorer: build/explorer/ (${outputs.filter((f) => !f.endsWith('.map')).join(', ')}; ${(bytes / 1024).toFixed(1)} KiB with maps)`);
