import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { encodeMint } from '../../src/codec/address.js';
import { blake3 } from '../../src/codec/hash.js';
import { TestNode, sleep } from './harness.js';
import { bundleFor, nowSeconds, signedHex, systemAddressHex, transferOp, unsignedHex } from './bundles.js';

const NTV = 1_000_000_000n;
const TOTAL = 1_618_000_000n * NTV;

interface Receipt {
  bundle_hash: string;
  block_height: number;
  block_hash: string;
  status: string;
  status_name: string;
  gas_used: number;
  fee: string;
  events: Array<Record<string, unknown> & { type: string }>;
  created?: { mint?: string };
}

let node: TestNode;
let proposer: string;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  proposer = (await node.result<{ validator: string }>('svc_version')).validator;
});

afterAll(async () => {
  await node?.stop();
});

const balance = async (address: string, token = 'NTV') => BigInt(await node.result<string>('svc_getBalance', [address, token]));

describe('genesis', () => {
  it('gives 96% of supply to the eight system accounts in the spec shares', async () => {
    const shares = [38n, 15n, 10n, 10n, 7n, 3n, 3n, 10n];
    let sum = 0n;
    for (let i = 0; i < 8; i++) {
      const value = await balance(systemAddressHex(i + 1));
      sum += value;
      // 03 earns fees, 07 pays the faucet; 08 paid the genesis validator's 1,000,000 NTV self stake (docs/staking.md "Genesis")
      const genesisStake = i === 7 ? 1_000_000n * NTV : 0n;
      if (i !== 2 && i !== 6) expect(value).toBe((TOTAL * shares[i]!) / 100n - genesisStake);
    }
    expect(sum).toBeGreaterThanOrEqual((TOTAL * 96n) / 100n - 1_000_000n * NTV - 10_000n * NTV);
    expect(await balance('0x' + 'ff'.repeat(32))).toBe(0n);
  });

  it('holds 40+ tokens: NTV, the 18 STD-8 stablecoins and the bridge-canonical tokens with deterministic mints', async () => {
    const tokens = await node.result<Array<{ symbol: string; decimals: number; mint_address: string; standard: string }>>('svc_listTokens', [1000]);
    expect(tokens.length).toBeGreaterThanOrEqual(40);
    expect(tokens[0]).toMatchObject({ symbol: 'NTV', decimals: 9, mint_address: encodeMint(new Uint8Array(32)) });
    expect(tokens.filter((t) => t.standard === 'STD-8')).toHaveLength(18);
    const usdc = await node.result<{ decimals: number; mint_address: string; badge: string }>('svc_getTokenInfo', ['usdc']);
    expect(usdc.decimals).toBe(6);
    expect(usdc.badge).toBe('Official Stablecoin');
    expect(usdc.mint_address).toBe(encodeMint(blake3(new TextEncoder().encode('ethereum_USDC'))));
    const byMint = await node.result<{ symbol: string }>('svc_getTokenInfo', [usdc.mint_address]);
    expect(byMint.symbol).toBe('USDC');
  });

  it('answers the version and chain identity methods', async () => {
    expect(await node.result('eth_chainId')).toBe('0x18b070');
    expect(await node.result('net_version')).toBe('1618032');
    expect(await node.result<string>('web3_clientVersion')).toMatch(/^ntv-node\/v\d+\.\d+\.\d+\//);
    expect(await node.result<string>('eth_blockNumber')).toMatch(/^0x[0-9a-f]+$/);
  });
});

describe('transfers', () => {
  it('moves NTV with an unsigned transfer and splits the fee 80/20 between proposer and treasury', async () => {
    const to = Signer.generate().address;
    const treasury = systemAddressHex(3);
    const before = { from: await balance(systemAddressHex(1)), proposer: await balance(proposer), treasury: await balance(treasury) };
    const receipt = await node.result<Receipt>('svc_transfer', [systemAddressHex(1), to, 'NTV', String(5n * NTV)]);
    expect(receipt).toMatchObject({ status: 'success', gas_used: 21_000, fee: '210000' });
    expect(receipt.events.find((e) => e.type === 'Transfer')).toMatchObject({ to, amount: String(5n * NTV) });
    expect(await balance(to)).toBe(5n * NTV);
    expect(await balance(systemAddressHex(1))).toBe(before.from - 5n * NTV - 210_000n);
    // The split is the block's Fee event; the balances only bound it: the proposer and the treasury
    // are also paid by block rewards and epoch boundaries (docs/staking.md "Rewards"), which land
    // between the two reads whenever block timing puts them there.
    expect(receipt.events.find((e) => e.type === 'Fee')).toMatchObject({ proposer, to_proposer: '168000', to_treasury: '42000' });
    expect(await balance(proposer)).toBeGreaterThanOrEqual(before.proposer + 168_000n);
    expect(await balance(treasury)).toBeGreaterThanOrEqual(before.treasury + 42_000n);
  });

  it('moves a genesis stablecoin with an unsigned token transfer', async () => {
    const to = Signer.generate().address;
    await node.result<Receipt>('svc_transfer', [systemAddressHex(7), to, 'USDC', '2500000']);
    expect(await balance(to, 'USDC')).toBe(2_500_000n);
  });

  it('gives distinct nonces to concurrent convenience calls from one address', async () => {
    const to = Signer.generate().address;
    const receipts = await Promise.all(Array.from({ length: 20 }, () => node.result<Receipt>('svc_transfer', [systemAddressHex(2), to, 'NTV', '1000'])));
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(await balance(to)).toBe(20_000n);
  });

  it('refuses an unknown token with a clear error and changes nothing', async () => {
    const res = await node.call('svc_transfer', [systemAddressHex(1), Signer.generate().address, 'NOPE', '1']);
    expect(res.error).toMatchObject({ code: -32009 });
    expect(res.error!.message).toContain('NOPE');
  });
});

describe('signed bundles', () => {
  const signer = Signer.generate();
  const recipient = Signer.generate().address;

  it('funds a fresh account from the faucet, once per hour', async () => {
    const receipt = await node.result<Receipt>('svc_faucet', [signer.address]);
    expect(receipt.status).toBe('success');
    expect(await balance(signer.address)).toBe(100n * NTV);
    const again = await node.call('svc_faucet', [signer.address]);
    expect(again.error).toMatchObject({ code: -32006 });
  });

  it('reveals the key on the first signed send and uses the registered key after', async () => {
    const first = await node.result<Receipt>('svc_submitBundle', [
      signedHex(signer, bundleFor(signer, 0n, [transferOp(recipient, NTV)], { senderPubkey: signer.publicKey })),
    ]);
    expect(first.status).toBe('success');
    expect(first.events.some((e) => e.type === 'KeyRegistered')).toBe(true);
    const second = await node.result<Receipt>('svc_submitBundle', [signedHex(signer, bundleFor(signer, 1n, [transferOp(recipient, NTV)]))]);
    expect(second.status).toBe('success');
    expect(await balance(recipient)).toBe(2n * NTV);
    const account = await node.result<{ nonce: string; keys: unknown[] }>('svc_getAccount', [signer.address]);
    expect(account.nonce).toBe('2');
    expect(account.keys).toHaveLength(1);
  });

  it('holds a bundle behind a nonce gap until the gap is filled, answering at once that it is queued', async () => {
    // docs/mempool.md "Queued bundles answer at once": the call does not wait for the gap to fill.
    const later = await node.result<{ status: string; bundle_hash: string; next_nonce: string }>('svc_submitBundle',
      [signedHex(signer, bundleFor(signer, 3n, [transferOp(recipient, NTV)]))]);
    expect(later).toMatchObject({ status: 'queued', next_nonce: '2' });
    await sleep(1500);
    const account = await node.result<{ nonce: string; pending_nonce: string }>('svc_getAccount', [signer.address]);
    expect(account.nonce).toBe('2');
    const earlier = await node.result<Receipt>('svc_submitBundle', [signedHex(signer, bundleFor(signer, 2n, [transferOp(recipient, NTV)]))]);
    expect(earlier.status).toBe('success');
    let queued: Receipt | null = null;
    for (let i = 0; i < 100 && !queued; i++) {
      queued = await node.result<Receipt | null>('svc_getTransactionReceipt', [later.bundle_hash]);
      if (!queued) await sleep(100);
    }
    expect(queued?.status).toBe('success');
    expect(queued!.block_height).toBeGreaterThanOrEqual(earlier.block_height);
    expect(await balance(recipient)).toBe(4n * NTV);
  });

  it('refuses at admission, without a fee or a block, a bundle whose NTV at the pending state cannot cover max_gas × price + value (geth\'s txpool rule)', async () => {
    // docs/mempool.md "Funds"; issue 41 item 3. A signer of its own, so the nonces above stay as they are.
    const poor = Signer.generate();
    const sink = Signer.generate().address;
    await node.result('svc_transfer', [systemAddressHex(7), poor.address, 'NTV', (10n * NTV).toString()]);
    const have = 10n * NTV;
    const over = await node.call('svc_submitBundle', [signedHex(poor, bundleFor(poor, 0n, [transferOp(sink, have)], { senderPubkey: poor.publicKey }))]);
    const want = have + 100_000n * 10n; // the amount + max_gas 100,000 × price 10
    expect(over.error).toMatchObject({ code: -32010, data: { status: 'INSUFFICIENT_FUNDS', have: have.toString(), want: want.toString() } });
    expect(over.error!.message).toBe(`insufficient funds for gas * price + value: address ${poor.address} have ${have} want ${want} (raw NTV at the pending state)`);
    // The unsigned convenience path: the same rule, the same words.
    const transfer = await node.call('svc_transfer', [poor.address, sink, 'NTV', have.toString()]);
    expect(transfer.error?.code).toBe(-32010);
    expect(transfer.error!.message).toMatch(/^insufficient funds for gas \* price \+ value: /);
    // Pending state: 6 NTV waits at nonce 0; 6 NTV more at nonce 1 is more than is left.
    const first = node.call('svc_submitBundle', [signedHex(poor, bundleFor(poor, 0n, [transferOp(sink, 6n * NTV)], { senderPubkey: poor.publicKey }))]);
    await sleep(50);
    const second = await node.call('svc_submitBundle', [signedHex(poor, bundleFor(poor, 1n, [transferOp(sink, 6n * NTV)], { senderPubkey: poor.publicKey }))]);
    expect(second.error).toMatchObject({ code: -32010, data: { status: 'INSUFFICIENT_FUNDS' } });
    const paid = (await first).result as Receipt;
    expect(paid.status).toBe('success');
    expect(await balance(poor.address)).toBe(have - 6n * NTV - BigInt(paid.fee));
    expect((await node.result<{ nonce: string }>('svc_getAccount', [poor.address])).nonce).toBe('1');
  });

  it('reverts a failing bundle but its fee, keeps its nonce for a retry, and never includes its bytes twice', async () => {
    const before = await balance(signer.address);
    // A token amount the sender lacks passes admission (token amounts are an execution rule) and fails in the core.
    const usdc = (await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC'])).mint_address;
    const failing = signedHex(signer, bundleFor(signer, 4n, [transferOp(recipient, NTV), transferOp(recipient, 1_000_000n, usdc)]));
    const res = await node.call('svc_submitBundle', [failing]);
    expect(res.error).toMatchObject({ code: -32002, data: { status: 'INSUFFICIENT_BALANCE' } });
    const receipt = (res.error!.data as { receipt: Receipt }).receipt;
    expect(receipt.status).toBe('failed');
    expect(receipt.gas_used).toBe(37_000); // 5,000 + 2 transfers: paid although it failed
    expect(BigInt(receipt.fee)).toBe(37_000n * 10n);
    expect(await balance(signer.address)).toBe(before - BigInt(receipt.fee));
    // the same bytes again: refused, not charged, and the receipt keeps its one position
    for (let i = 0; i < 3; i++) {
      const again = await node.call('svc_submitBundle', [failing]);
      expect(again.error).toMatchObject({ code: -32001, data: { status: 'ALREADY_INCLUDED' } });
    }
    expect(await balance(signer.address)).toBe(before - BigInt(receipt.fee));
    expect(await node.result('svc_getTransactionReceipt', [receipt.bundle_hash])).toMatchObject({ block_height: receipt.block_height, status: 'failed' });
    expect(await balance(recipient)).toBe(4n * NTV);
    expect((await node.result<{ nonce: string }>('svc_getAccount', [signer.address])).nonce).toBe('4');
    const retry = await node.result<Receipt>('svc_submitBundle', [signedHex(signer, bundleFor(signer, 4n, [transferOp(recipient, NTV)]))]);
    expect(retry.status).toBe('success');
  });

  it('refuses an expired bundle, a used nonce and a bad signature', async () => {
    const expired = await node.call('svc_submitBundle', [signedHex(signer, bundleFor(signer, 5n, [transferOp(recipient, 1n)], { validUntil: nowSeconds() - 5n }))]);
    expect(expired.error).toMatchObject({ code: -32001, data: { status: 'EXPIRED' } });
    const reused = await node.call('svc_submitBundle', [signedHex(signer, bundleFor(signer, 0n, [transferOp(recipient, 1n)]))]);
    expect(reused.error).toMatchObject({ code: -32001, data: { status: 'NONCE_TOO_LOW' } });
    const hex = signedHex(signer, bundleFor(signer, 5n, [transferOp(recipient, 1n)]));
    const tampered = hex.slice(0, -4) + (hex.endsWith('00') ? 'ff' : '00') + hex.slice(-2);
    const bad = await node.call('svc_submitBundle', [tampered]);
    expect(bad.error?.code).toBe(-32001);
    expect(['BAD_SIGNATURE', 'MALFORMED_BUNDLE']).toContain(bad.error!.data!.status);
  });

  it('refuses malformed Borsh naming the problem', async () => {
    const hex = unsignedHex(bundleFor(signer, 5n, [transferOp(recipient, 1n)]));
    const truncated = await node.call('svc_submitBundle', [hex.slice(0, 40)]);
    expect(truncated.error).toMatchObject({ code: -32001, data: { status: 'MALFORMED_BUNDLE' } });
    const trailing = await node.call('svc_submitBundle', [hex + '00']);
    expect(trailing.error).toMatchObject({ code: -32001, data: { status: 'MALFORMED_BUNDLE' } });
  });

  it('returns the receipt of an included bundle by hash', async () => {
    const receipt = await node.result<Receipt>('svc_submitBundle', [signedHex(signer, bundleFor(signer, 5n, [transferOp(recipient, 1n)]))]);
    expect(await node.result('svc_getTransactionReceipt', [receipt.bundle_hash])).toEqual(receipt);
    const block = await node.result<{ transactions: string[]; tx_stats: { total: number } }>('svc_getBlockByHeight', [receipt.block_height]);
    expect(block.transactions).toContain(receipt.bundle_hash);
    expect(await node.result('svc_getTransactionReceipt', ['0x' + '11'.repeat(32)])).toBeNull();
  });
});

describe('tokens', () => {
  const owner = Signer.generate().address;

  it('creates an STD-7 token whose mint comes back in the receipt', async () => {
    await node.result('svc_faucet', [owner]); // the owner sends the bundle and pays its fee
    const receipt = await node.result<Receipt>('svc_createToken', ['Test Token', 'TSTK', 6, '1000000000', owner]);
    expect(receipt.status).toBe('success');
    const mint = receipt.created?.mint;
    expect(mint).toMatch(/^Nx1/);
    const info = await node.result<{ mint_address: string; total_supply: string; standard: string }>('svc_getTokenInfo', ['TSTK']);
    expect(info).toMatchObject({ mint_address: mint, total_supply: '1000000000', standard: 'STD-7' });
    expect(await balance(owner, 'TSTK')).toBe(1_000_000_000n);
  });

  it('refuses reserved and taken symbols, case-insensitively', async () => {
    const reserved = await node.call('svc_createToken', ['Pax Dollar', 'USDP', 6, '1', owner]);
    expect(reserved.error).toMatchObject({ code: -32002, data: { status: 'SYMBOL_RESERVED' } });
    const taken = await node.call('svc_createToken', ['Fake USDC', 'usdc', 6, '1', owner]);
    expect(taken.error).toMatchObject({ code: -32002, data: { status: 'SYMBOL_TAKEN' } });
  });
});

describe('blocks and stats', () => {
  it('serves recent headers linked by parent hash and network stats', async () => {
    const headers = await node.result<Array<{ height: number; hash: string; parentHash: string; signature: string }>>('svc_getRecentBlocks', [5]);
    expect(headers.length).toBeGreaterThan(1);
    expect(headers[0]!.parentHash).toBe(headers[1]!.hash);
    expect(headers[0]!.height).toBe(headers[1]!.height + 1);
    expect(headers[0]!.signature).toMatch(/^[0-9a-f]{128}$/);
    const stats = await node.result<{ blockHeight: number; validatorCount: number; totalTransactions: number }>('svc_getNetworkStats');
    expect(stats.blockHeight).toBeGreaterThanOrEqual(headers[0]!.height);
    expect(stats.totalTransactions).toBeGreaterThan(0);
    expect(await node.result('svc_getBlockByHeight', [10_000_000])).toBeNull();
  });

  it('derives addresses and generates testnet keypairs', async () => {
    const kp = await node.result<{ address: string; public_key: string; secret_key: string; key_type: string }>('svc_generateKeypair');
    expect(kp.key_type).toBe('Ed25519');
    expect(kp.public_key).toMatch(/^[0-9a-f]{64}$/);
    const derived = await node.result<{ address: string }>('svc_deriveAddress', [kp.public_key]);
    expect(derived.address).toBe(kp.address);
    expect(Signer.fromSecretKey(kp.secret_key).address).toBe(kp.address);
  });
});
