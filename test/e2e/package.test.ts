// The published package (issue 42 item 9; package.json "exports", docs/eth.md is not involved):
// `npm pack`, unpacked into a scratch project, imported by name from Node (`ntv-node`) with its
// types checked by tsc, and `ntv-node/browser` bundled by esbuild and run in Chromium. The scratch
// project links this repository's installed dependencies rather than fetching them, so the test
// needs no registry; what it checks is the package's own files and entry points. In Chromium the
// bundled app hands the package's verifying EIP-1193 provider to ethers, viem and web3.js, as a dApp
// built on the package would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readdir, rm, symlink, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import * as tar from 'tar';
import { launchChromium } from './browser.js';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
let scratch: string;
let node: TestNode;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'ntv-package-'));
  // --ignore-scripts: the build the test runs after is what gets packed (prepare would rebuild).
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch], { cwd: ROOT, maxBuffer: 64 << 20 });
  const tarball = join(scratch, stdout.trim().split('\n').at(-1)!);
  const modules = join(scratch, 'node_modules');
  await mkdir(join(modules, 'ntv-node'), { recursive: true });
  await tar.x({ file: tarball, cwd: join(modules, 'ntv-node'), strip: 1 });
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (name === 'ntv-node' || name.startsWith('.')) continue;
    await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  }
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', type: 'module', private: true }));
  node = await TestNode.start({ args: ['--block-time', '1'] });
}, 180_000);

afterAll(async () => {
  await node?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('packs the entry points package.json names', async () => {
    const pkg = JSON.parse(await readFile(join(scratch, 'node_modules/ntv-node/package.json'), 'utf8'));
    const files = [pkg.main, pkg.types, pkg.exports['.'].types, pkg.exports['.'].default, pkg.exports['./browser'].types, pkg.exports['./browser'].default, pkg.bin['ntv-node']];
    for (const file of files) await expect(readFile(join(scratch, 'node_modules/ntv-node', file)), file).resolves.toBeDefined();
  });

  it('imports by name in Node: keys sign and verify a bundle through the codec, an RpcClient reads from a running node; internals are not exported', async () => {
    await writeFile(join(scratch, 'main.mjs'), `
      import { RpcClient, Wallet, initHashing, parseAddress, encodeAccount, verifyStateProof, encodeBundle, decodeBundle, generateEd25519, signBundle, verifyBundleSignature, NODE_VERSION } from 'ntv-node';
      await initHashing();
      const client = new RpcClient(process.argv[2]);
      const wallet = Wallet.generate(client);
      const account = encodeAccount(parseAddress(wallet.address));
      const height = await client.call('eth_blockNumber');
      const key = generateEd25519();
      const unsigned = { userAccount: wallet.account, operations: [{ type: 'Transfer', to: wallet.account, token: new Uint8Array(32), amount: 1n }], maxGas: 21000n, maxPriorityFee: 0n, validUntil: 1n, nonce: 0n, signature: new Uint8Array(0) };
      const signed = decodeBundle(encodeBundle(signBundle(unsigned, key.seed)));
      const verifies = verifyBundleSignature(signed, key.publicKey) && !verifyBundleSignature(signed, generateEd25519().publicKey);
      let internal = 'exported';
      try { await import('ntv-node/dist/src/chain/chain.js'); } catch (e) { internal = e.code; }
      console.log(JSON.stringify({ account, same: account === wallet.address, height, verifies, version: NODE_VERSION, proofs: typeof verifyStateProof, codec: typeof encodeBundle + typeof decodeBundle, internal }));
    `);
    const { stdout } = await run(NODE, ['main.mjs', node.url], { cwd: scratch });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ same: true, verifies: true, proofs: 'function', codec: 'functionfunction', internal: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    expect(out.account).toMatch(/^Nx0/);
    expect(out.height).toMatch(/^0x[0-9a-f]+$/);
  }, 60_000);

  it('has types for both entry points (tsc, NodeNext resolution through "exports")', async () => {
    await writeFile(join(scratch, 'check.ts'), `
      import { RpcClient, Wallet, type Bundle } from 'ntv-node';
      import { LightClient, decodeBundle } from 'ntv-node/browser';
      const client: RpcClient = new RpcClient('http://127.0.0.1:9933');
      const wallet: Wallet = Wallet.generate(client);
      const address: string = wallet.address;
      const decode: (bytes: Uint8Array) => Bundle = decodeBundle;
      export { address, decode, LightClient };
    `);
    await writeFile(join(scratch, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
      files: ['check.ts'],
    }));
    const result = await run(NODE, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch }).catch((e: { stdout: string }) => e);
    expect((result as { stdout: string }).stdout).toBe('');
  }, 120_000);

  it('ntv-node/browser through a bundler (esbuild) runs in Chromium: ethers, viem and web3.js read a proven balance over its verifying provider', async () => {
    const holder = `0x${'42'.repeat(20)}`;
    await node.result('svc_transfer', [systemAddressHex(1), holder, 'NTV', '7654321']);
    await writeFile(join(scratch, 'app.js'), `
      import { RpcClient, VerifyingProvider, decodeBundle, parseAddress } from 'ntv-node/browser';
      import { BrowserProvider } from 'ethers';
      import { createPublicClient, custom } from 'viem';
      import { Web3 } from 'web3';
      window.result = (async () => {
        const chainId = await new RpcClient(location.origin).call('eth_chainId');
        // the wallet-library side of a dApp over the package's EIP-1193 provider (headers from genesis)
        const provider = await VerifyingProvider.create({ url: location.origin });
        const ethers = String(await new BrowserProvider(provider).getBalance(window.HOLDER));
        const viem = String(await createPublicClient({ transport: custom(provider) }).getBalance({ address: window.HOLDER }));
        const web3 = String(await new Web3(provider).eth.getBalance(window.HOLDER));
        return { chainId, decode: typeof decodeBundle, parse: typeof parseAddress, ethers, viem, web3 };
      })().catch((e) => ({ error: String(e && e.stack || e) }));
    `);
    await build({ absWorkingDir: scratch, entryPoints: ['app.js'], bundle: true, format: 'esm', platform: 'browser', outfile: join(scratch, 'out/app.js'), logLevel: 'error' });
    const bundled = await readFile(join(scratch, 'out/app.js'), 'utf8');
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`${node.url}/`); // same origin as the JSON-RPC endpoint
      await page.evaluate((holder) => { (window as unknown as { HOLDER: string }).HOLDER = holder; }, holder);
      await page.addScriptTag({ content: bundled, type: 'module' });
      await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined);
      const result = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
      const wei = (7654321n * 1_000_000_000n).toString();
      expect(result).toEqual({ chainId: '0x18b070', decode: 'function', parse: 'function', ethers: wei, viem: wei, web3: wei });
    } finally {
      await close();
    }
  }, 120_000);
});
