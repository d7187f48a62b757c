import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, bundleGasOf, type SubmitResult } from '../../src/client/index.js';
import { TestNode } from './harness.js';

const NTV = 1_000_000_000n;
let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
});

afterAll(async () => {
  await node?.stop();
});

interface Receipt { status: string; gas_used: number; events: Array<{ type: string; amount_out?: string; lp?: string }>; created?: { mint?: string; pool?: string; collection?: string } }

describe('the client library on the signed path', () => {
  it('Ed25519 wallet: reveals its key, transfers, creates a token and reads balances', async () => {
    const wallet = Wallet.generate(node.url);
    const friend = Wallet.generate(node.url);
    await node.result('svc_faucet', [wallet.address]);
    expect(await wallet.getBalance()).toBe(100n * NTV);

    const first = await wallet.transfer(friend.address, 'NTV', 3n * NTV);
    expect((first.receipt as Receipt).status).toBe('success');
    expect((first.receipt as Receipt).events.map((e) => e.type)).toContain('KeyRegistered');
    // Concurrent sends from one wallet reserve distinct nonces.
    const results = await Promise.all([1n, 2n, 3n].map((n) => wallet.transfer(friend.address, 'NTV', n)));
    expect(results.every((r) => (r.receipt as Receipt).status === 'success')).toBe(true);
    expect(await friend.getBalance()).toBe(3n * NTV + 6n);

    const token = await wallet.createToken({ name: 'Wallet Token', symbol: 'WLT', decimals: 2, supply: 50_000n });
    const mint = (token.receipt as Receipt).created?.mint;
    expect(mint).toMatch(/^Nx1/);
    await wallet.transfer(friend.address, 'WLT', 1_234n);
    expect(await friend.getBalance('WLT')).toBe(1_234n);
    expect(await wallet.getBalance(mint!)).toBe(50_000n - 1_234n);
    expect((await wallet.getAccount()).nonce).toBe(6n);
  });

  it('ML-DSA-65 wallet: a post-quantum key signs and reveals like an Ed25519 one', async () => {
    const wallet = Wallet.generate(node.url, 'ML-DSA-65');
    const friend = Wallet.generate(node.url);
    await node.result('svc_faucet', [wallet.address]);
    const sent = await wallet.transfer(friend.address, 'NTV', NTV);
    expect((sent.receipt as Receipt).status).toBe('success');
    const again = await wallet.transfer(friend.address, 'NTV', NTV);
    expect((again.receipt as Receipt).status).toBe('success');
    expect(await friend.getBalance()).toBe(2n * NTV);
    const account = await node.result<{ keys: Array<{ key_type: string }> }>('svc_getAccount', [wallet.address]);
    expect(account.keys).toEqual([expect.objectContaining({ key_type: 'ML-DSA-65' })]);
  });
});

// The named helpers (src/client/wallet.ts) on a real node: every bundle signed, sent through
// svc_submitBundle, with max_gas from gasOf — which must be exactly what the core charged.
describe('the named helpers on the signed path', () => {
  /**
   * The receipt: succeeded, charged bundleGasOf of its operations, and (the named helpers; createToken
   * keeps its 100,000 default) that was the max_gas sent.
   */
  function ok(result: SubmitResult, exactMaxGas = true): Receipt {
    const receipt = result.receipt as Receipt;
    expect(receipt.status).toBe('success');
    expect(BigInt(receipt.gas_used)).toBe(bundleGasOf(result.bundle!.operations));
    if (exactMaxGas) expect(result.bundle!.maxGas).toBe(BigInt(receipt.gas_used));
    return receipt;
  }

  it('a fresh Ed25519 wallet creates a token and a pool, swaps, adds and removes liquidity, registers a name, mints and transfers an NFT and delegates', async () => {
    const wallet = Wallet.generate(node.url);
    const friend = Wallet.generate(node.url);
    // Pool creation costs 100 NTV (docs/dex.md "Fees"), the faucet gives 100 per address an hour:
    // two more fresh wallets send theirs on.
    await node.result('svc_faucet', [wallet.address]);
    for (const funder of [Wallet.generate(node.url), Wallet.generate(node.url)]) {
      await node.result('svc_faucet', [funder.address]);
      expect(((await funder.transfer(wallet.address, 'NTV', 99n * NTV)).receipt as Receipt).status).toBe('success');
    }
    expect(await wallet.getBalance()).toBe(298n * NTV);

    // A token, then its pool against NTV (the creator's LP unlocked, so it can be removed below).
    const symbol = `H${Date.now() % 100_000}`;
    const mint = ok(await wallet.createToken({ name: 'Helper Token', symbol, decimals: 6, supply: 10n ** 12n }), false).created!.mint!;
    const created = ok(await wallet.createPool(symbol, 'NTV', 1_000_000_000n, 10n * NTV, 0));
    expect(created.created?.pool).toMatch(/^Nx8/);
    const pool = () => node.result<{ reserve_a: string; reserve_b: string; lp_total_supply: string }>('svc_getPool', [mint, 'NTV']);
    expect(await pool()).toMatchObject({ reserve_a: '1000000000', reserve_b: (10n * NTV).toString() });

    // Swap 1 NTV for the token with 1% slippage off the node's quote; the receipt pays the quote.
    const quote = await node.result<{ amount_out: string }>('svc_quoteSwap', ['NTV', mint, NTV.toString()]);
    const before = await wallet.getBalance(mint);
    const swapped = ok(await wallet.swap('NTV', mint, NTV, (BigInt(quote.amount_out) * 99n) / 100n));
    expect(swapped.events.find((e) => e.type === 'Swap')?.amount_out).toBe(quote.amount_out);
    expect(await wallet.getBalance(mint)).toBe(before + BigInt(quote.amount_out));
    expect(BigInt((await pool()).reserve_b)).toBe(11n * NTV);

    // Add liquidity, then remove what it minted.
    const lpBalance = async () => BigInt((await node.result<{ lp_balance: string }>('svc_getLpBalance', [symbol, 'NTV', wallet.address])).lp_balance);
    const lpBefore = await lpBalance();
    const added = ok(await wallet.addLiquidity(symbol, 'NTV', 100_000_000n, NTV, 1));
    const minted = BigInt(added.events.find((e) => e.type === 'LiquidityAdded')!.lp!);
    expect(minted > 0n).toBe(true);
    expect(await lpBalance()).toBe(lpBefore + minted);
    const supply = BigInt((await pool()).lp_total_supply);
    ok(await wallet.removeLiquidity(mint, 'NTV', minted, 1, 1));
    expect(await lpBalance()).toBe(lpBefore);
    expect(BigInt((await pool()).lp_total_supply)).toBe(supply - minted);

    // A name resolves to the wallet.
    const name = `helper-${Date.now()}`;
    ok(await wallet.registerName(name));
    expect(await node.result('svc_resolveName', [name])).toBe(wallet.address);

    // An NFT collection; token 1 minted to the wallet, then transferred to the friend.
    const collection = ok(await wallet.createNftCollection({ name: 'Helper Art', symbol: 'HART', maxSupply: 10 })).created!.collection!;
    expect(collection).toMatch(/^Nx2/);
    ok(await wallet.mintNft(collection, 1, 'ipfs://helper/1', wallet.address));
    expect(await node.result('svc_getNft', [collection, '1'])).toMatchObject({ owner: wallet.address, metadata_uri: 'ipfs://helper/1' });
    ok(await wallet.transferNft(collection, 1, friend.address));
    expect(await node.result('svc_getNft', [collection, '1'])).toMatchObject({ owner: friend.address });

    // Delegation to the node's own genesis validator (svc_version names it, as staking.test.ts reads it).
    const validator = (await node.result<{ validator: string }>('svc_version')).validator;
    ok(await wallet.delegate(validator, 10n * NTV));
    const delegations = await node.result<{ delegations: Array<{ validator: string; amount: string }> }>('svc_getDelegations', [wallet.address]);
    expect(delegations.delegations).toEqual([expect.objectContaining({ validator, amount: (10n * NTV).toString() })]);
  });
});
