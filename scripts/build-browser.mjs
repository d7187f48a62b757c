// Bundles the browser build (src/browser/index.ts) into dist/browser/ntv.js (ESM) with core.wasm
// beside it, and copies both, with the demo page (examples/browser/), into build/explorer/browser/
// so the node serves them on GET /browser/… (docs/replay.md "In the browser"). The host modules it
// bundles are the node's own; their few Node imports are mapped to small shims (src/browser/shims/).
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/browser');
const served = join(root, 'build/explorer/browser');

const shims = {
  name: 'node-shims',
  setup(b) {
    b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(root, 'src/browser/shims/node-crypto.ts') }));
    b.onResolve({ filter: /^node:/ }, () => ({ path: join(root, 'src/browser/shims/node-stub.ts') }));
  },
};

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/browser/index.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  outfile: join(out, 'ntv.js'),
  inject: ['src/browser/shims/buffer.ts'],
  plugins: [shims],
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(join(root, 'build/core.wasm'), join(out, 'core.wasm'));
await mkdir(served, { recursive: true });
for (const file of ['ntv.js', 'ntv.js.map', 'core.wasm']) await copyFile(join(out, file), join(served, file));
await copyFile(join(root, 'examples/browser/demo.html'), join(served, 'demo.html'));
const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs).find((p) => p.endsWith('ntv.js'))].bytes;
console.log(`browser: dist/browser/ntv.js (${(bytes / 1024).toFixed(1)} KiB) + core.wasm; served as /browser/ by the node`);
