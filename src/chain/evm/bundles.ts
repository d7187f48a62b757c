/**
 * The link between EVM transaction hashes and native bundles (docs/eth.md "Hashes"). A bundle
 * carrying an EVM transaction is known to wallets by keccak256 of the raw transaction (its
 * `signature`); every other bundle by its own Blake3 bundle hash. The keccak → bundle-hash index is
 * written in the block's own storage batch, so it survives a restart exactly when the block does.
 */
import { keccak256 } from 'viem';
import { decodeBundle, type Bundle } from '../../codec/bundle.js';
import { encodeHash } from '../../codec/address.js';
import { ChainError } from '../errors.js';
import type { BundleAuth } from '../mempool.js';
import type { EvmTokenIndex } from './tokens.js';
import { looksLikeEvmTransaction, verifyEvmBundle as verify } from './transaction.js';
import { unhex } from './units.js';

const INDEX_PREFIX = 'eth-tx:';

/** The node-local storage key of an EVM transaction hash (ChainStore "local" records). */
export function ethIndexKey(ethHash: Uint8Array): string {
  return INDEX_PREFIX + Buffer.from(ethHash).toString('hex');
}

/** Index records for the EVM transactions a block included (failed ones too: they have receipts): the bundles with auth 3 (ProducedBlock.evmBundles). */
export function ethIndexEntries(evmBundles: ReadonlyArray<{ bytes: Uint8Array; hash: Uint8Array }>): Array<{ key: string; value: Uint8Array }> {
  return evmBundles.map(({ bytes, hash }) => ({ key: ethIndexKey(unhex(keccak256(decodeBundle(bytes).signature))), value: hash }));
}

/** The EVM transaction a bundle carries, if any: its raw bytes. */
export function evmTransactionOf(bundle: Bundle): Uint8Array | undefined {
  return looksLikeEvmTransaction(bundle.signature) ? bundle.signature : undefined;
}

/** The hash eth_* methods show for a bundle: keccak of its EVM transaction, else the bundle hash. */
export function ethHashOf(bundle: Bundle, bundleHash: Uint8Array): `0x${string}` {
  const raw = evmTransactionOf(bundle);
  return raw ? keccak256(raw) : `0x${Buffer.from(bundleHash).toString('hex')}`;
}

/** The submission gate's check of an auth-3 bundle; refusals name the bundle hash like the gate's own. */
export async function verifyEvmBundle(
  bytes: Uint8Array, signature: Uint8Array, ctx: { chainId: number; gasPrice: bigint; tokens: EvmTokenIndex }, hash: Uint8Array,
): Promise<BundleAuth> {
  try {
    return await verify(bytes, signature, ctx);
  } catch (error) {
    if (error instanceof ChainError) throw new ChainError(error.reason, error.message, { ...error.data, bundle_hash: encodeHash(hash) });
    throw error;
  }
}
