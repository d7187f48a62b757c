import { encodeAccount, encodeHash } from '../../codec/address.js';
import type { BlockHeader } from '../../chain/block.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { TokenKind } from '../../core/records.js';
import { BRIDGED_TOKENS, STABLECOINS } from '../../chain/genesis-data.js';

/** Exactly the spec §6 newHeads fields of a header, in native formats (spec §6.3). */
export function newHeadsFields(h: BlockHeader) {
  return {
    height: h.height,
    hash: encodeHash(h.hash),
    parentHash: encodeHash(h.parentHash),
    timestamp: h.timestamp,
    proposer: encodeAccount(h.proposer),
    stateRoot: encodeHash(h.stateRoot),
    transactionsRoot: encodeHash(h.transactionsRoot),
    gasUsed: h.gasUsed,
    gasLimit: h.gasLimit,
    baseFee: h.baseFee,
    bundleCount: h.bundleCount,
  };
}

/** A header as the block methods return it: the newHeads fields plus chain ID, key and signature. */
export function formatHeader(h: BlockHeader) {
  return {
    ...newHeadsFields(h),
    chainId: h.chainId,
    proposerPublicKey: Buffer.from(h.proposerPubkey).toString('hex'),
    signature: Buffer.from(h.signature).toString('hex'),
    // Consensus fields (docs/consensus.md "Rounds"): the failover round and the skipped leaders.
    round: h.round ?? 0,
    missed: (h.missed ?? []).map((key) => Buffer.from(key).toString('hex')),
  };
}

const STANDARD: Record<number, string> = {
  [TokenKind.NATIVE]: 'native',
  [TokenKind.STD7]: 'STD-7',
  [TokenKind.STD8_STABLECOIN]: 'STD-8',
  [TokenKind.BRIDGE_CANONICAL]: 'STD-7 (bridge-canonical)',
};

const LAUNCHPAD = new Set(BRIDGED_TOKENS.filter((t) => t.launchOrigin === 'launchpad').map((t) => `${t.origin}_${t.symbol}`));
const STABLE = new Map(STABLECOINS.map((s) => [s.symbol, s]));

/** The token record of facts.md "Token record" as far as the foundation keeps it (docs/methods.md "Token record"). */
export function formatToken(t: RegisteredToken) {
  const launchpad = LAUNCHPAD.has(`${t.originChain}_${t.symbol}`);
  const stableKind = t.kind === TokenKind.STD8_STABLECOIN;
  const stable = t.kind === TokenKind.STD8_STABLECOIN ? STABLE.get(t.symbol) : undefined;
  return {
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    mint_address: t.mintAddress,
    total_supply: t.totalSupply.toString(),
    initial_supply: t.initialSupply.toString(),
    creator: encodeAccount(t.creator),
    owner: encodeAccount(t.owner),
    created_at: Number(t.createdAt),
    created_height: Number(t.createdHeight),
    standard: STANDARD[t.kind] ?? 'unknown',
    // Genesis and custom STD-7 tokens have a fixed supply; STD-8 mint/burn/pause/freeze arrive with §4.16.
    features: { mintable: stableKind, burnable: stableKind, pausable: stableKind, freezable: stableKind },
    // docs/core-abi.md TokenRecord.flags bit 0: metadata mutable
    is_mutable: (t.flags & 1) === 1,
    badge: stableKind ? 'Official Stablecoin' : launchpad ? 'Memecoin' : null,
    ...(launchpad ? { launch_origin: 'launchpad' } : {}),
    origin_chain: t.originChain || null,
    origin_contract: t.originContract || null,
    ...(stable ? { currency: stable.currency, issuer: stable.issuer, origin_mappings: stable.origins } : {}),
  };
}
