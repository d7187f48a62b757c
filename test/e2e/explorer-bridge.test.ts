/**
 * The explorer's bridge views (issue 20 item 8; docs/bridge.md) in headless Chromium against a real
 * node: an address page lists the account's deposits and withdrawals, and a bridged token's page
 * shows its origin chain and contract with the contract's safety level and the caution warning.
 * The node's dev attester is its genesis validator key (validator.key in its data dir).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseAddress } from '../../src/codec/address.js';
import { attest, depositDigest, encodeDepositProof, type DepositMessage } from '../../src/domains/bridge/proofs.js';
import { encodeBundle, type Operation } from '../../src/codec/bundle.js';
import { initHashing } from '../../src/codec/hash.js';
import { Signer } from '../../src/codec/keys.js';
import { explorerEnvironment } from './browser.js';
import { systemAddressHex } from './bundles.js';

const CHAIN_ID = 1618032;
const env = explorerEnvironment(['--block-time', '0.5', '--gas-price', '0']);

interface Receipt { bundle_hash: string; status: string }

it('shows an address\'s bridge history and a bridged token\'s origin with its contract safety', async () => {
  await initHashing();
  const seed = new Uint8Array(Buffer.from((await readFile(join(env.node.dataDir, 'validator.key'), 'utf8')).trim(), 'hex'));
  const alice = Signer.generate();
  const proof = (m: DepositMessage) => Buffer.from(encodeDepositProof({ ...m, signatures: attest(seed, depositDigest(CHAIN_ID, m)) })).toString('hex');
  const deposit = (m: Omit<DepositMessage, 'recipient'>) => env.node.result<{ path: string; deposit: { mint: string; status: string } }>('svc_autobridge', [proof({ ...m, recipient: parseAddress(alice.address) })]);

  // an unknown token from base (its own Blake3 mint), whose contract governance marks "caution"
  const feed = await deposit({ chain: 'base', txHash: '0xfeed01', contract: '0xFEED', symbol: 'FEED', amount: 5_000_000n, decimals: 6 });
  expect(feed.deposit.status).toBe('completed');
  const caution: Operation = { type: 'SetContractSafety', chain: 'base', contract: '0xFEED', level: 2 };
  const bytes = encodeBundle({
    userAccount: parseAddress(systemAddressHex(9)), operations: [caution], maxGas: 200_000n, maxPriorityFee: 0n,
    validUntil: BigInt(Math.floor(Date.now() / 1000) + 600), nonce: 0n, signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
  });
  const submitted = await env.node.result<Receipt>('svc_submitBundle', [Buffer.from(bytes).toString('hex')]);
  let set: Receipt | null = null;
  for (let i = 0; i < 100 && set === null; i++) {
    set = await env.node.result<Receipt | null>('svc_getTransactionReceipt', [submitted.bundle_hash]);
    if (set === null) await new Promise((r) => setTimeout(r, 200));
  }
  expect(set?.status).toBe('success');
  // USDC from ethereum (the canonical STD-8 coin), then 40 of it withdrawn to ethereum
  expect((await deposit({ chain: 'ethereum', txHash: '0xusdc01', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', amount: 100_000_000n, decimals: 6 })).path).toBe('std8');
  await env.node.result('svc_transfer', [systemAddressHex(1), alice.address, 'NTV', '10000000000']);
  const w = await env.node.result<{ sequence: string }>('svc_bridgeWithdraw', ['USDC', '40000000', 'ethereum', '0xdest', alice.address]);

  const page = await env.context.newPage();
  await page.goto(`${env.node.url}#/address/${alice.address}`);
  const rows = page.locator('[data-testid="address-bridge"] tbody tr');
  await rows.first().waitFor();
  const texts = await rows.allTextContents();
  expect(texts).toHaveLength(3);
  expect(texts.find((t) => t.includes('0xfeed01'))).toMatch(/deposit.*base.*completed/);
  expect(texts.find((t) => t.includes('0xusdc01'))).toMatch(/deposit.*ethereum.*completed/);
  expect(texts.find((t) => t.includes(`withdrawal #${w.sequence}`))).toMatch(/ethereum.*0xdest.*pending/);

  await page.goto(`${env.node.url}#/token/${feed.deposit.mint}`);
  const origins = page.locator('[data-testid="token-origins"]');
  await origins.waitFor();
  expect(await origins.textContent()).toMatch(/base.*0xFEED/);
  await page.locator('[data-testid="token-safety"]').waitFor();
  expect(await page.locator('[data-testid="token-safety"]').textContent()).toBe('caution');
  await page.locator('[data-testid="token-warnings"]').waitFor();
  expect(await page.locator('[data-testid="token-warnings"]').textContent()).toContain('safety level caution');
  await page.close();
}, 120_000);
