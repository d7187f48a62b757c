import type { CollectionRecord } from '../../domains/collections/reader.js';
import type { RegisteredToken, TokenRegistry } from '../token-registry.js';
import { isNativeMintBytes } from './units.js';

/**
 * Tokens by their EVM-form address: the last 20 bytes of the mint (docs/eth.md "Token addresses").
 * The native coin (mint = 32 zero bytes) is not a token contract on the EVM side, so it is left
 * out. Rebuilt from the registry when the number of tokens changes (tokens are never removed).
 * Two mints sharing their last 20 bytes would need a 2^80 collision search; should it ever
 * happen, the first token in registry order keeps the address and the other is reachable only by
 * its 32-byte mint on the native side.
 */
export class EvmTokenIndex {
  private byAddress = new Map<string, RegisteredToken>();
  private indexedCount = -1;

  /** `collections`: NFT and multi-token collections by the last 20 bytes (src/domains/collections/reader.ts). */
  constructor(
    private readonly registry: TokenRegistry,
    private readonly collections: (address20: Uint8Array) => CollectionRecord | undefined = () => undefined,
  ) {}

  /** The collection at an EVM-form address, if any (docs/collections.md "Addresses"). */
  collection(address: string | Uint8Array): CollectionRecord | undefined {
    const bytes = typeof address === 'string' ? Buffer.from(address.replace(/^0x/i, ''), 'hex') : address;
    return bytes.length === 20 ? this.collections(bytes) : undefined;
  }

  /** `address`: 20 bytes or `0x` + 40 hex. */
  lookup(address: string | Uint8Array): RegisteredToken | undefined {
    if (this.indexedCount !== this.registry.size) this.rebuild();
    const key = typeof address === 'string' ? address.toLowerCase().replace(/^0x/, '') : Buffer.from(address).toString('hex');
    return this.byAddress.get(key);
  }

  private rebuild(): void {
    const next = new Map<string, RegisteredToken>();
    for (const token of this.registry.list()) {
      if (isNativeMintBytes(token.mint)) continue;
      const key = Buffer.from(token.mint.subarray(12)).toString('hex');
      if (!next.has(key)) next.set(key, token);
    }
    this.byAddress = next;
    this.indexedCount = this.registry.size;
  }
}
