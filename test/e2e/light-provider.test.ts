/**
 * The verifying EIP-1193 provider in Node (issue 43 item 2; docs/light-client.md "The verifying
 * provider"): viem's `custom()` transport over it reads a balance, a nonce and ERC-20 values that
 * equal the node's, each proven against a header the light client verified from a checkpoint;
 * what it cannot prove is refused, and a node that lies (a balance, a certificate, a set proof, a
 * token's mint) is caught with a clear error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createPublicClient, custom, erc20Abi, type Address } from 'viem';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { LightClient } from '../../src/browser/light-client.js';
import { VerifyingProvider, UNSUPPORTED_METHOD, VERIFICATION_FAILED } from '../../src/browser/provider.js';

const EPOCH = 5;
const USDC_HOLDER = systemAddressHex(7);

let dir: string;
let node: TestNode;
const holder = `0x${randomBytes(20).toString('hex')}` as Address;
let usdc: { evm_address: Address; mint_address: string };
let checkpoint: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-provider-'));
  await writeFile(join(dir, 'params.json'), JSON.stringify({ epoch_length: EPOCH }));
  node = await TestNode.start({ args: ['--block-time', '0.5', '--chain-params', join(dir, 'params.json')] });
  usdc = (await node.result<Array<{ symbol: string; evm_address: Address; mint_address: string }>>('svc_listTokens', [100])).find((t) => t.symbol === 'USDC')!;
  await node.result('svc_transfer', [systemAddressHex(1), holder, 'NTV', '123456789']);
  await node.result('svc_transfer', [USDC_HOLDER, holder, 'USDC', '4200000']);
  await node.waitForHeight(3 * EPOCH + 1, 30_000);
  checkpoint = (await node.result<{ records: Array<{ checkpoint: string }> }>('svc_getEpochProofs', [2 * EPOCH, 1])).records[0]!.checkpoint;
}, 60_000);

afterAll(async () => {
  await node?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A fetch that passes the node's answers through `alter` (a lying node). */
function lyingFetch(alter: (method: string, result: Record<string, unknown>) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const body = JSON.parse(await res.text()) as { result?: unknown } | Array<{ result?: unknown }>;
    const request = JSON.parse(String(init?.body)) as { method: string } | Array<{ method: string }>;
    const pairs = Array.isArray(body) ? body.map((b, i) => [b, (request as Array<{ method: string }>)[i]!.method] as const) : [[body, (request as { method: string }).method] as const];
    for (const [b, method] of pairs) if (b.result && typeof b.result === 'object') alter(method, b.result as Record<string, unknown>);
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
}

describe('viem over the verifying provider', () => {
  it('reads a balance, a nonce, the chain id and ERC-20 values equal to the node\'s, from a checkpoint', async () => {
    const provider = await VerifyingProvider.create({ url: node.url, checkpoint });
    const client = createPublicClient({ transport: custom(provider) });
    const [balance, nonce, chainId] = await Promise.all([client.getBalance({ address: holder }), client.getTransactionCount({ address: systemAddressHex(1).slice(0, 2) + systemAddressHex(1).slice(26) as Address }), client.getChainId()]);
    expect(balance).toBe(BigInt(await node.result<string>('eth_getBalance', [holder, 'latest'])));
    expect(balance).toBe(123456789n * 10n ** 9n);
    expect(nonce).toBe(Number(BigInt(await node.result<string>('eth_getTransactionCount', [systemAddressHex(1).slice(0, 2) + systemAddressHex(1).slice(26), 'latest']))));
    expect(chainId).toBe(Number.parseInt(await node.result<string>('eth_chainId'), 16));
    // The node's own eth_call answers, through viem too: the proven ones must equal them.
    const direct = createPublicClient({ transport: custom({ request: ({ method, params }) => node.result(method, params as unknown[]) }) });
    for (const functionName of ['name', 'symbol', 'decimals', 'totalSupply'] as const) {
      expect(await client.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName }), functionName)
        .toEqual(await direct.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName }));
    }
    expect(await client.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })).toBe(4200000n);
    expect(await provider.request({ method: 'svc_getBalance', params: [holder, 'USDC'] })).toBe('4200000');
    expect(await provider.request({ method: 'svc_getBalance', params: [holder] })).toBe('123456789');
    const info = await provider.request({ method: 'svc_getTokenInfo', params: ['usdc'] }) as Record<string, unknown>;
    const nodeInfo = await node.result<Record<string, unknown>>('svc_getTokenInfo', ['USDC']);
    for (const field of ['name', 'symbol', 'decimals', 'mint_address', 'evm_address', 'total_supply', 'creator', 'owner']) expect(info[field], field).toEqual(nodeInfo[field]);
    expect(provider.client.height).toBeGreaterThan(2 * EPOCH);
  }, 30_000);

  it('from genesis, header-only, the same balance', async () => {
    const provider = await VerifyingProvider.create({ url: node.url });
    const client = createPublicClient({ transport: custom(provider) });
    expect(await client.getBalance({ address: holder })).toBe(123456789n * 10n ** 9n);
    expect(provider.client.mode).toBe('headers');
  });

  it('refuses what it cannot prove, never passing it through', async () => {
    const provider = await VerifyingProvider.create({ url: node.url, checkpoint });
    const client = createPublicClient({ transport: custom(provider) });
    await expect(provider.request({ method: 'eth_sendRawTransaction', params: ['0x00'] })).rejects.toMatchObject({ code: UNSUPPORTED_METHOD, message: expect.stringMatching(/cannot be proven by the light client/) });
    await expect(client.getBlock()).rejects.toThrow(/eth_getBlockByNumber cannot be proven by the light client/);
    await expect(provider.request({ method: 'eth_getTransactionCount', params: [holder, 'pending'] })).rejects.toMatchObject({ code: UNSUPPORTED_METHOD });
    // before the checkpoint no header is verified: nothing at block 1 can be proven
    await expect(provider.request({ method: 'eth_getBalance', params: [holder, '0x1'] })).rejects.toMatchObject({ code: UNSUPPORTED_METHOD, message: expect.stringMatching(/before the validator sets this client holds.*cannot be proven/) });
    await expect(provider.request({ method: 'eth_getBalance', params: [holder, { blockHash: `0x${'00'.repeat(32)}` }] })).rejects.toMatchObject({ code: UNSUPPORTED_METHOD });
    await expect(client.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'allowance', args: [holder, holder] })).rejects.toThrow(/allowance is not a read the light client proves/);
    await expect(provider.request({ method: 'eth_getBalance', params: ['0x12'] })).rejects.toMatchObject({ code: -32602 });
  });

  it('proves state at a past block after its checkpoint, as the node served it then: viem getBalance and readContract at blockNumber, svc_getBalance at a height', async () => {
    const provider = await VerifyingProvider.create({ url: node.url, checkpoint });
    const client = createPublicClient({ transport: custom(provider) });
    const paid = `0x${randomBytes(20).toString('hex')}` as Address;
    const first = (await node.result<{ block_height: number }>('svc_transfer', [systemAddressHex(1), paid, 'NTV', '1000'])).block_height;
    const second = (await node.result<{ block_height: number }>('svc_transfer', [systemAddressHex(1), paid, 'NTV', '2000'])).block_height;
    await node.result('svc_transfer', [USDC_HOLDER, paid, 'USDC', '77']);
    expect(first).toBeGreaterThan(2 * EPOCH);
    // The client first syncs past the next epoch boundary: the blocks read below are then behind
    // its current validator set, and each is checked by the set of its own epoch, which it kept.
    await node.waitForHeight(second + EPOCH + 1, 30_000);
    await client.getBlockNumber();
    expect(provider.client.height).toBeGreaterThan(second + EPOCH);
    for (const [height, nano] of [[first - 1, 0n], [first, 1000n], [second, 3000n]] as const) {
      const blockNumber = BigInt(height);
      expect(await client.getBalance({ address: paid, blockNumber }), `NTV at ${height}`).toBe(nano * 10n ** 9n);
      expect(BigInt(await node.result<string>('eth_getBalance', [paid, `0x${height.toString(16)}`]))).toBe(nano * 10n ** 9n);
      expect(await provider.request({ method: 'svc_getBalance', params: [paid, 'NTV', height] })).toBe(nano.toString());
      expect(await client.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'balanceOf', args: [paid], blockNumber }), `USDC at ${height}`).toBe(0n);
    }
    expect(await client.readContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'balanceOf', args: [paid] })).toBe(77n);
    expect(await provider.request({ method: 'eth_getTransactionCount', params: [paid, { blockNumber: `0x${second.toString(16)}` }] })).toBe('0x0');
    // a block above the node's head: the node's own refusal, its code kept
    await expect(provider.request({ method: 'eth_getBalance', params: [paid, '0xffffff'] })).rejects.toMatchObject({ code: -32003 });
    // a node answering a proof at another block than the one asked is caught
    const lying = await VerifyingProvider.create({
      url: node.url, checkpoint,
      fetch: lyingFetch((method, result) => { if (method === 'svc_getProof') result.height = (result.height as number) + 1; }),
    });
    await expect(lying.request({ method: 'eth_getBalance', params: [paid, `0x${first.toString(16)}`] })).rejects.toMatchObject({ code: VERIFICATION_FAILED, message: expect.stringMatching(/answered a proof at block/) });
    // a forged certificate on a block behind the current set is caught by its own epoch's set
    const forging = await VerifyingProvider.create({
      url: node.url, checkpoint,
      fetch: lyingFetch((method, result) => {
        const certificate = result.certificate;
        if (method === 'svc_getRawBlock' && typeof certificate === 'string' && certificate.length > 0) result.certificate = certificate.slice(0, -2) + ((Number.parseInt(certificate.slice(-2), 16) ^ 1).toString(16).padStart(2, '0'));
      }),
    });
    // (its epoch records carry their own certificates: it syncs to the head unharmed)
    await createPublicClient({ transport: custom(forging) }).getBlockNumber().catch(() => undefined);
    await expect(forging.request({ method: 'eth_getBalance', params: [paid, `0x${first.toString(16)}`] })).rejects.toMatchObject({ code: VERIFICATION_FAILED, message: expect.stringMatching(/finality certificate does not hold/) });
  }, 30_000);

  it('refuses a lying node: a wrong balance, a forged certificate, a set proof that does not match, another mint', async () => {
    const lies: Array<[string, (method: string, r: Record<string, unknown>) => void, RegExp]> = [
      ['wrong balance', (m, r) => { if (m === 'svc_getProof' && r.balance) r.balance = '999'; }, /the node says 999, the proven value is 123456789/],
      ['tampered proven value', (m, r) => { if (m === 'svc_getProof' && typeof r.value === 'string') r.value = (r.value as string).replace(/^../, 'ff'); }, /does not verify/],
      ['forged certificate', (m, r) => {
        if (m === 'svc_getRawBlock' && typeof r.certificate === 'string' && r.certificate.length > 0) r.certificate = (r.certificate as string).slice(0, -2) + ((Number.parseInt((r.certificate as string).slice(-2), 16) ^ 1).toString(16).padStart(2, '0'));
      }, /finality certificate does not hold/],
      ['mismatching set proof', (m, r) => {
        if (m !== 'svc_getEpochProofs') return;
        for (const rec of r.records as Array<{ height: number; record: string }>) if (rec.height > 2 * EPOCH) rec.record = rec.record.slice(0, -2) + ((Number.parseInt(rec.record.slice(-2), 16) ^ 1).toString(16).padStart(2, '0'));
      }, /the validator-set proof of block \d+ does not hold/],
    ];
    for (const [name, alter, message] of lies) {
      const provider = await VerifyingProvider.create({ url: node.url, checkpoint, fetch: lyingFetch(alter) });
      const client = createPublicClient({ transport: custom(provider) });
      const error = await client.getBalance({ address: holder }).then(() => undefined, (e: unknown) => e as Error);
      expect(error, name).toBeDefined();
      expect(error!.message, name).toMatch(message);
      expect(error!.message, name).toMatch(/does not verify/);
      expect((error as { cause?: { code?: number } }).cause?.code ?? (error as { code?: number }).code, name).toBe(VERIFICATION_FAILED);
    }
    const otherMint = await VerifyingProvider.create({
      url: node.url, checkpoint,
      fetch: lyingFetch((m, r) => { if (m === 'svc_listTokens') for (const t of Object.values(r) as Array<{ symbol: string; mint_address: string }>) if (t.symbol === 'USDC') t.mint_address = '0x' + 'ab'.repeat(32); }),
    });
    await expect(createPublicClient({ transport: custom(otherMint) }).readContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'decimals' }))
      .rejects.toThrow(/which does not end in that address/);
  }, 60_000);

  it('a checkpoint of another hash is refused at once', async () => {
    const height = Number(checkpoint.split(':')[0]);
    await expect(LightClient.create({ url: node.url, checkpoint: `${height}:${'cd'.repeat(32)}` })).rejects.toThrow(/is not the checkpoint's (cd){32}: the node is on another chain or lies/);
    await expect(LightClient.create({ url: node.url, checkpoint: `${height + 1}:${'cd'.repeat(32)}` })).rejects.toThrow(/epoch record served for checkpoint \d+ is of block/);
    await expect(LightClient.create({ url: node.url, checkpoint: 'nonsense' })).rejects.toThrow(/is not height:hash/);
  });
});
