import { encodeAccount, encodeHash } from '../../codec/address.js';
import type { BlockHeader } from '../../chain/block.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { TokenKind } from '../../core/records.js';
import { BRIDGED_TOKENS, NTV_TOTAL_SUPPLY, STABLECOINS } from '../../chain/genesis-data.js';
import { evmOf, isNativeMintBytes } from '../../chain/evm/units.js';

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

/**
 * What a token's supply and state can do, as true at every moment: a feature is on only while an
 * operation offers it (docs/methods.md "Token features"). No operation mints, burns, pauses or
 * freezes any token yet — STD-7 supplies are fixed at creation, and the STD-8 operations of spec
 * §4.16 (stableMint, stableBurn, stablePause, freezing minting) do not exist — so every feature is
 * false for every kind. The STD-8 work switches its kind's entry on with the operation that does it.
 * NTV's supply grows only by the block-reward emission of the protocol (spec §1.8), no operation.
 */
const FEATURES: Record<number, { mintable: boolean; burnable: boolean; pausable: boolean; freezable: boolean }> = {
  [TokenKind.NATIVE]: { mintable: false, burnable: false, pausable: false, freezable: false },
  [TokenKind.STD7]: { mintable: false, burnable: false, pausable: false, freezable: false },
  [TokenKind.STD8_STABLECOIN]: { mintable: false, burnable: false, pausable: false, freezable: false },
  [TokenKind.BRIDGE_CANONICAL]: { mintable: false, burnable: false, pausable: false, freezable: false },
};
const NO_FEATURES = { mintable: false, burnable: false, pausable: false, freezable: false };

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
    // The ERC-20 contract address wallets and EVM explorers use: the mint's last 20 bytes, the
    // mapping EvmTokenIndex resolves (docs/eth.md "Token addresses"); NTV is the native coin, no contract.
    evm_address: isNativeMintBytes(t.mint) ? null : evmOf(t.mint),
    total_supply: t.totalSupply.toString(),
    // NTV: the minted supply above grows by block rewards up to the 1.618 billion NTV of spec §1.4.
    ...(t.kind === TokenKind.NATIVE ? { max_supply: NTV_TOTAL_SUPPLY.toString() } : {}),
    initial_supply: t.initialSupply.toString(),
    creator: encodeAccount(t.creator),
    owner: encodeAccount(t.owner),
    created_at: Number(t.createdAt),
    created_height: Number(t.createdHeight),
    standard: STANDARD[t.kind] ?? 'unknown',
    features: { ...(FEATURES[t.kind] ?? NO_FEATURES) },
    // docs/core-abi.md TokenRecord.flags bit 0: metadata mutable
    is_mutable: (t.flags & 1) === 1,
    badge: stableKind ? 'Official Stablecoin' : launchpad ? 'Memecoin' : null,
    ...(launchpad ? { launch_origin: 'launchpad' } : {}),
    origin_chain: t.originChain || null,
    origin_contract: t.originContract || null,
    ...(stable ? { currency: stable.currency, issuer: stable.issuer, origin_mappings: stable.origins } : {}),
  };
}
