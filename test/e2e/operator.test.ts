/**
 * Issue 26 items 4 and 5 against running nodes: GET /health (200, and 503 with its reasons), the
 * explorer's path routes, the console as a terminal shows it (a pty from `script`) and as a pipe
 * gets it (JSON), `--help` and `version`, and the explorer reads that show EVM forms and amounts:
 * svc_getTokenInfo's evm_address, svc_search by an EVM transaction hash and by a token's EVM
 * address, svc_getAddressHistory's transfers with direction and counterparty.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, defineChain, encodeFunctionData, erc20Abi, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TestNode, sleep, until } from './harness.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');
const CHAIN_ID = 1618032;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const SYSTEM_USDC = `0x${'00'.repeat(31)}07`;

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
}, 30_000);

afterAll(async () => {
  await node?.stop();
});

describe('GET /health', () => {
  it('answers 200 with height, syncing and peers while the head is fresh', async () => {
    const res = await fetch(new URL('/health', node.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', syncing: false, peers: 0, reasons: [] });
    expect(body.height).toEqual(expect.any(Number));
    expect((await fetch(new URL('/health', node.url), { method: 'HEAD' })).status).toBe(200);
    // Only GET and HEAD; POST / is still JSON-RPC and GET / the page.
    expect((await fetch(new URL('/health', node.url), { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(node.url)).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers 503 naming no_peers when bootnodes were given and none is connected', async () => {
    const health = await node.result<{ peerId: string }>('svc_validatorHealth');
    // A real peer id on a port nothing listens on: the node keeps dialling and has no peer.
    const lonely = await TestNode.start({ args: ['--block-time', '1', '--bootnodes', `/ip4/127.0.0.1/udp/9/quic-v1/p2p/${health.peerId}`] });
    try {
      const res = await fetch(new URL('/health', lonely.url));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'unhealthy', peers: 0, reasons: ['no_peers'] });
    } finally {
      await lonely.stop();
    }
  }, 30_000);
});

describe('explorer path routes', () => {
  it('serves the page on /tx, /address, /block and /token paths, and nothing outside them', async () => {
    const page = await (await fetch(node.url)).text();
    for (const path of ['/tx/0x' + 'ab'.repeat(32), '/address/0x' + '12'.repeat(20), '/block/5', '/token/USDC', '/tx/Nxh1/']) {
      const res = await fetch(new URL(path, node.url));
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(page);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    for (const path of ['/tx', '/tx/a/b', '/wallet/1', '/tx/a.b', '/tx/a%2Fb', '/index.html/x']) {
      expect((await fetch(new URL(path, node.url))).status, path).toBe(404);
    }
  });
});

describe('the console', () => {
  it('is JSON when piped: a block line per block and the explorer URL and validator key at start-up', async () => {
    await sleep(1500);
    const entries = node.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const started = entries.find((e) => e.msg === 'node started');
    expect(started).toMatchObject({ explorer: node.url, rpc: node.url.replace(/\/$/, '') });
    expect(started!.validatorPublicKey).toMatch(/^[0-9a-f]{64}$/);
    const block = entries.find((e) => e.msg === 'block');
    // failed: bundles in the block that failed (issue 42 item 10)
    expect(block).toMatchObject({ level: 30, height: expect.any(Number), bundles: expect.any(Number), failed: expect.any(Number), gas: expect.any(Number) });
    expect(block!.blockTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('counts the failed bundles of a block in its line (issue 42 item 10)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await node.result('svc_transfer', [SYSTEM_NTV, account.address, 'NTV', '1000000000']);
    await node.result('svc_transfer', [SYSTEM_USDC, account.address, 'USDC', '1000']);
    const usdc = (await node.result<{ evm_address: Hex }>('svc_getTokenInfo', ['USDC'])).evm_address;
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [privateKeyToAccount(generatePrivateKey()).address, 1000n] });
    const tx = { to: usdc, data, gas: 30_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 0n };
    // Both simulate well against committed state; nonce 0 then moves all of it, so nonce 1 fails on chain.
    const failing = await wallet.sendTransaction({ ...tx, nonce: 1 });
    await wallet.sendTransaction({ ...tx, nonce: 0 });
    const receipt = await until('the failing transaction\'s receipt', () => node.result<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [failing]).then((r) => r ?? undefined));
    expect(receipt.status).toBe('0x0');
    const height = Number(BigInt(receipt.blockNumber));
    const line = await until('its block line', async () => node.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.msg === 'block' && e.height === height));
    expect(line.failed).toBeGreaterThanOrEqual(1);
    expect(line.failed).toBeLessThanOrEqual(line.bundles as number);
    const quiet = node.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === 'block' && e.bundles === 0);
    expect(quiet?.failed).toBe(0);
  }, 30_000);

  it('is one human line per entry on a terminal (a pty from script)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ntv-pty-'));
    const command = [process.execPath, MAIN, 'run', '-d', dir, '--rpc-port', '0', '--p2p-port', '0', '--p2p-host', '127.0.0.1', '--block-time', '1']
      .map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const deadline = Date.now() + 20_000;
      while (!/INFO +block {2}height=\d+ bundles=\d+ failed=\d+ gas=\d+ blockTime=\S+/.test(out.replace(/\x1b\[[0-9;]*m/g, '')) && Date.now() < deadline) await sleep(100);
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
      expect(plain).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO +block {2}height=\d+ bundles=\d+ failed=\d+ gas=\d+ blockTime=\S+ hash=Nxh\w+\r?$/m);
      expect(plain).toMatch(/INFO +node started {2}.*explorer=http:\/\/127\.0\.0\.1:\d+\/ .*validatorPublicKey=[0-9a-f]{64}/);
      expect(out).toContain('\x1b['); // a terminal gets colour
      expect(plain).not.toMatch(/^\{"level"/m);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('--help names values and has no colour codes when piped; version prints the version', () => {
    const help = spawnSync(process.execPath, [MAIN, 'run', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('--rpc-port <port>');
    expect(help.stdout).toContain('--log-format <pretty|json|auto>');
    expect(help.stdout).not.toMatch(/#\d/);
    expect(help.stdout).not.toContain('\x1b[');
    const version = spawnSync(process.execPath, [MAIN, 'version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^ntv-node \d+\.\d+\.\d+\n/);
    const bad = spawnSync(process.execPath, [MAIN, 'run', '--log-format', 'xml'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
  });
});

describe('explorer reads: EVM forms and amounts', () => {
  it('svc_getTokenInfo gives the ERC-20 address, and svc_search finds the token by it', async () => {
    const usdc = await node.result<{ mint_address: string; evm_address: string }>('svc_getTokenInfo', ['USDC']);
    const account = await node.result<{ evm_address: string }>('svc_getAccount', [usdc.mint_address]);
    expect(usdc.evm_address).toBe(account.evm_address); // the mint's last 20 bytes (docs/eth.md)
    expect((await node.result<{ evm_address: null }>('svc_getTokenInfo', ['NTV'])).evm_address).toBeNull();
    const found = await node.result<{ type: string; mint_address: string }>('svc_search', [usdc.evm_address.toUpperCase().replace('0X', '0x')]);
    expect(found).toMatchObject({ type: 'token', mint_address: usdc.mint_address });
    // eth_call sees the same address as the token contract
    const symbol = await node.result<Hex>('eth_call', [{ to: usdc.evm_address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }) }, 'latest']);
    expect(symbol).toContain(Buffer.from('USDC').toString('hex'));
  });

  it('svc_search finds an EVM transaction by its keccak hash; history shows direction, counterparty and decimals', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await node.result('svc_transfer', [SYSTEM_NTV, account.address, 'NTV', '1000000000']);
    await node.result('svc_transfer', [SYSTEM_USDC, account.address, 'USDC', '5000000']);
    const usdc = await node.result<{ evm_address: Hex }>('svc_getTokenInfo', ['USDC']);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const hash = await wallet.writeContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'transfer', args: [to, 1_500_000n] });
    let found: { type: string; evm_hash?: string; receipt?: { status: string } } = { type: 'not_found' };
    for (let i = 0; i < 100 && found.type !== 'transaction'; i++) {
      found = await node.result('svc_search', [hash]);
      if (found.type !== 'transaction') await sleep(200);
    }
    expect(found).toMatchObject({ type: 'transaction', evm_hash: hash, receipt: { status: 'success' } });
    // The same record by its bundle hash names the EVM hash too.
    const byBundle = await node.result<{ evm_hash: string }>('svc_search', [(found as { bundle_hash?: string }).bundle_hash]);
    expect(byBundle.evm_hash).toBe(hash);

    const history = await node.result<Array<{ transfers: Array<Record<string, unknown>> }>>('svc_getAddressHistory', [account.address, 10]);
    const recipient = (await node.result<{ address: string }>('svc_getAccount', [to])).address;
    expect(history[0]!.transfers).toEqual([
      { direction: 'out', counterparty: recipient, token: expect.stringMatching(/^Nx1/), symbol: 'USDC', decimals: 6, amount: '1500000', event: 'Transfer' },
    ]);
    const incoming = await node.result<Array<{ role: string; transfers: Array<Record<string, unknown>> }>>('svc_getAddressHistory', [to, 10]);
    expect(incoming[0]).toMatchObject({ role: 'recipient', transfers: [{ direction: 'in', symbol: 'USDC', amount: '1500000' }] });
  }, 30_000);
});
