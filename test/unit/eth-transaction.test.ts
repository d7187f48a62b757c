import { describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodeBundle, encodeBundle } from '../../src/codec/bundle.js';
import type { TokenRegistry } from '../../src/chain/token-registry.js';
import { EvmTokenIndex } from '../../src/chain/evm/tokens.js';
import { AUTH_EVM, bundleOf, decodeEvmTransaction, looksLikeEvmTransaction, verifyEvmBundle } from '../../src/chain/evm/transaction.js';
import { logsBloom, type EthLog } from '../../src/eth/format.js';
import { accountOfEvm, unhex } from '../../src/chain/evm/units.js';

const CHAIN_ID = 1618032;
const GWEI = 1_000_000_000n;
const mint = new Uint8Array(32).map((_, i) => i + 1);
const registry = { size: 1, list: () => [{ mint, symbol: 'USDC', kind: 2 }] } as unknown as TokenRegistry;
const tokens = new EvmTokenIndex(registry);
const tokenAddress = `0x${Buffer.from(mint.subarray(12)).toString('hex')}` as const;
const account = privateKeyToAccount(generatePrivateKey());
const to = privateKeyToAccount(generatePrivateKey()).address;
const base = { chainId: CHAIN_ID, nonce: 4, gas: 30_000n, maxFeePerGas: 50n * GWEI, maxPriorityFeePerGas: 2n * GWEI + 7n, type: 'eip1559' as const };

describe('EVM transaction → native bundle', () => {
  it('maps an EIP-1559 native transfer field by field', async () => {
    const raw = unhex(await account.signTransaction({ ...base, to, value: 3n * GWEI }));
    expect(looksLikeEvmTransaction(raw)).toBe(true);
    const tx = await decodeEvmTransaction(raw, CHAIN_ID);
    expect(tx.from).toBe(account.address.toLowerCase());
    expect(tx.hash).toBe(keccak256(raw));
    const bundle = bundleOf(tx, tokens);
    expect(bundle.userAccount).toEqual(accountOfEvm(account.address));
    expect(bundle.operations).toEqual([{ type: 'Transfer', to: accountOfEvm(to), token: new Uint8Array(32), amount: 3n }]);
    expect(bundle.maxGas).toBe(30_000n);
    expect(bundle.maxPriorityFee).toBe(2n); // rounded down, never above what was signed
    expect(bundle.nonce).toBe(4n);
    expect(bundle.validUntil).toBe((1n << 64n) - 1n);
    expect(bundle.signature).toEqual(raw);
  });

  it('maps an ERC-20 transfer on a token address to a token Transfer', async () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1_234n] });
    const raw = unhex(await account.signTransaction({ ...base, to: tokenAddress, data }));
    const bundle = bundleOf(await decodeEvmTransaction(raw, CHAIN_ID), tokens);
    expect(bundle.operations).toEqual([{ type: 'Transfer', to: accountOfEvm(to), token: mint, amount: 1_234n }]);
  });

  it('maps ERC-20 approve and transferFrom to Approve and TransferFrom (docs/allowances.md)', async () => {
    const sign = async (data: `0x${string}`) => bundleOf(await decodeEvmTransaction(unhex(await account.signTransaction({ ...base, to: tokenAddress, data })), CHAIN_ID), tokens);
    const approve = await sign(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to, 500n] }));
    expect(approve.operations).toEqual([{ type: 'Approve', token: mint, spender: accountOfEvm(to), amount: 500n }]);
    // any amount from 2^128−1 up is the infinite allowance (the usual approve(spender, 2^256−1))
    const infinite = await sign(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to, (1n << 256n) - 1n] }));
    expect(infinite.operations).toEqual([{ type: 'Approve', token: mint, spender: accountOfEvm(to), amount: (1n << 128n) - 1n }]);
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const move = await sign(encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [owner, to, 9n] }));
    expect(move.userAccount).toEqual(accountOfEvm(account.address)); // the spender sends it
    expect(move.operations).toEqual([{ type: 'TransferFrom', token: mint, from: accountOfEvm(owner), to: accountOfEvm(to), amount: 9n }]);
    const huge = encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [owner, to, 1n << 128n] });
    const hugeTx = await decodeEvmTransaction(unhex(await account.signTransaction({ ...base, to: tokenAddress, data: huge })), CHAIN_ID);
    expect(() => bundleOf(hugeTx, tokens)).toThrow(/beyond u128/);
  });

  it('verification accepts exactly the mapped bundle with auth 3 and refuses a re-wrapped one', async () => {
    const raw = unhex(await account.signTransaction({ ...base, to, value: GWEI }));
    const bytes = encodeBundle(bundleOf(await decodeEvmTransaction(raw, CHAIN_ID), tokens));
    const auth = await verifyEvmBundle(bytes, raw, { chainId: CHAIN_ID, gasPrice: 10n, tokens });
    // with the transaction's own fee fields in wei, for geth's replacement rule (docs/eth.md "Replacement")
    expect(auth).toEqual({ kind: AUTH_EVM, keyHash: accountOfEvm(account.address), pubkey: new Uint8Array(0), evmFees: { tip: base.maxPriorityFeePerGas, cap: base.maxFeePerGas } });
    const other = decodeBundle(bytes);
    other.maxGas = 1_000_000n;
    await expect(verifyEvmBundle(encodeBundle(other), raw, { chainId: CHAIN_ID, gasPrice: 10n, tokens }))
      .rejects.toMatchObject({ data: { status: 'BAD_SIGNATURE' } });
    // The cap must cover (gas price + tip) × 10^9 wei.
    await expect(verifyEvmBundle(bytes, raw, { chainId: CHAIN_ID, gasPrice: 49n, tokens }))
      .rejects.toMatchObject({ data: { status: 'FEE_CAP_TOO_LOW' } });
  });

  it('refuses other chains, dust values, other calls and contract creation', async () => {
    const wrong = unhex(await account.signTransaction({ ...base, chainId: 1, to, value: GWEI }));
    await expect(decodeEvmTransaction(wrong, CHAIN_ID)).rejects.toMatchObject({ data: { status: 'WRONG_CHAIN_ID' } });
    const dust = await decodeEvmTransaction(unhex(await account.signTransaction({ ...base, to, value: GWEI + 1n })), CHAIN_ID);
    expect(() => bundleOf(dust, tokens)).toThrow(/whole number of nanoNTV/);
    const other = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [to] });
    const call = await decodeEvmTransaction(unhex(await account.signTransaction({ ...base, to: tokenAddress, data: other })), CHAIN_ID);
    expect(() => bundleOf(call, tokens)).toThrow(/transfer\(address,uint256\).*approve\(address,uint256\).*transferFrom/);
    // a transferFrom with a dirty address word is not canonical calldata
    const dirty = encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [to, to, 1n] }).replace(/^0x23b872dd000000/, '0x23b872dd0000ff') as `0x${string}`;
    const dirtyCall = await decodeEvmTransaction(unhex(await account.signTransaction({ ...base, to: tokenAddress, data: dirty })), CHAIN_ID);
    expect(() => bundleOf(dirtyCall, tokens)).toThrow(/UNSUPPORTED|only ERC-20/);
    const create = unhex(await account.signTransaction({ ...base, data: '0x6000' }));
    await expect(decodeEvmTransaction(create, CHAIN_ID)).rejects.toMatchObject({ data: { status: 'UNSUPPORTED_CALL' } });
    expect(looksLikeEvmTransaction(new Uint8Array(64).fill(2))).toBe(false); // an Ed25519 length never is
  });
});

describe('logs bloom', () => {
  it('sets three bits per address and topic (yellow paper §4.3.1)', () => {
    const log = { address: tokenAddress, topics: [keccak256('0x01')] } as unknown as EthLog;
    const bloom = Buffer.from(logsBloom([log]).slice(2), 'hex');
    const bits = [...bloom].reduce((n, b) => n + b.toString(2).split('1').length - 1, 0);
    expect(bits).toBeGreaterThan(0);
    expect(bits).toBeLessThanOrEqual(6);
    for (const value of [tokenAddress, keccak256('0x01')]) {
      const h = Buffer.from(keccak256(value).slice(2), 'hex');
      for (let i = 0; i < 6; i += 2) {
        const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
        expect(bloom[255 - (bit >> 3)]! & (1 << (bit & 7))).not.toBe(0);
      }
    }
    expect(logsBloom([])).toBe(`0x${'00'.repeat(256)}`);
  });
});
