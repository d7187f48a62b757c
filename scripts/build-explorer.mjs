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
await writeFile(join(out, 'favicon.ico'), favicon());
const bytes = Object.values(result.metafile.outputs).filter((o) => !o.entryPoint?.endsWith('.map')).reduce((n, o) => n + o.bytes, 0);
console.log(`explorer: build/explorer/ (${outputs.filter((f) => !f.endsWith('.map')).join(', ')}; ${(bytes / 1024).toFixed(1)} KiB with maps)`);

/**
 * /favicon.ico (issue 42 item 10: browsers ask for it on every page, and a 404 fills the operator's
 * logs and the console): a 32×32 icon, a disc in the page's accent colour (#2456d6), written as an
 * ICO holding one 32-bit BMP (ICONDIR, ICONDIRENTRY, BITMAPINFOHEADER at double height, BGRA rows
 * bottom-up, then the 1-bit AND mask), so every browser reads it and nothing is fetched elsewhere.
 */
function favicon() {
  const size = 32;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2);
      const alpha = Math.max(0, Math.min(1, size / 2 - d)); // anti-aliased edge
      const at = ((size - 1 - y) * size + x) * 4;
      pixels.set([0xd6, 0x56, 0x24, Math.round(alpha * 255)], at);
    }
  }
  const mask = Buffer.alloc(size * 4); // rows of 32 bits, all 0: the alpha channel decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(size, 6);
  dir.writeUInt8(size, 7);
  dir.writeUInt16LE(1, 10); // planes
  dir.writeUInt16LE(32, 12); // bits per pixel
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, image]);
}
