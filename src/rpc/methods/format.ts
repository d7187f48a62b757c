import { encodeAccount, encodeHash } from '../../codec/address.js';
import type { BlockHeader } from '../../chain/block.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { TokenKind } from '../../core/records.js';
import { BRIDGED_TOKENS, NTV_TOTAL_SUPPLY, STABLECOINS } from '../../chain/genesis-data.js';
import { evmOf, isNativeMintBytes } from '../../chain/evm/units.js';
import { isPausedNow, STABLE_FLAG_MINT_FROZEN, stableRecord } from '../../chain/stablecoins.js';
import type { StateReader } from '../../chain/state-reader.js';
import type { Operation } from '../../codec/operations.js';

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

export interface TokenFeatures { mintable: boolean; burnable: boolean; pausable: boolean; freezable: boolean }

const NO_FEATURES: TokenFeatures = { mintable: false, burnable: false, pausable: false, freezable: false };

/**
 * What an operation can do to the token now, read from its record (docs/methods.md "Token
 * features"; issue 41 item 5, which found an all-false table here that said STD-8 and bridged
 * tokens could do nothing):
 * - STD-8 (docs/stablecoins.md): mintable unless paused, minting frozen or the supply cap reached
 *   (StableMint, and the bridge's fast path, refuse then); burnable unless paused (StableBurn's
 *   first check after the amount); pausable and freezable always, as the core refuses a zero
 *   pauser or blacklister (ZERO_ADDRESS_ROLE), so someone always holds those roles.
 * - bridge tokens (kind 3, docs/bridge.md): a deposit mints and BridgeWithdraw burns; nothing
 *   pauses or freezes them.
 * - STD-7: nothing; its supply is fixed at creation.
 * - NTV: nothing; its supply grows by the protocol's block-reward emission (spec §1.8).
 */
export function tokenFeatures(t: RegisteredToken, state: StateReader): TokenFeatures {
  switch (t.kind) {
    case TokenKind.STD8_STABLECOIN: {
      const record = stableRecord(state, t.mint);
      if (!record) return { ...NO_FEATURES };
      const paused = isPausedNow(state, t.mint);
      const mintFrozen = (record.flags & STABLE_FLAG_MINT_FROZEN) !== 0;
      const capped = record.supplyCap !== 0n && t.totalSupply >= record.supplyCap;
      return { mintable: !paused && !mintFrozen && !capped, burnable: !paused, pausable: true, freezable: true };
    }
    case TokenKind.BRIDGE_CANONICAL:
      return { mintable: true, burnable: true, pausable: false, freezable: false };
    default:
      return { ...NO_FEATURES };
  }
}

/** The token record of facts.md "Token record" as far as the foundation keeps it (docs/methods.md "Token record"). */
function isLaunchpad(t: RegisteredToken): boolean {
  return LAUNCHPAD.has(`${t.originChain}_${t.symbol}`);
}

/** Spec §2.1: `Official Stablecoin` on STD-8 coins, `Memecoin` on tokens from known launchpads. */
export function tokenBadge(t: RegisteredToken): string | null {
  return t.kind === TokenKind.STD8_STABLECOIN ? 'Official Stablecoin' : isLaunchpad(t) ? 'Memecoin' : null;
}

export function formatToken(t: RegisteredToken, state: StateReader) {
  const launchpad = isLaunchpad(t);
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
    features: tokenFeatures(t, state),
    // docs/core-abi.md TokenRecord.flags bit 0: metadata mutable
    is_mutable: (t.flags & 1) === 1,
    badge: tokenBadge(t),
    ...(launchpad ? { launch_origin: 'launchpad' } : {}),
    origin_chain: t.originChain || null,
    origin_contract: t.originContract || null,
    ...(stable ? { currency: stable.currency, issuer: stable.issuer, origin_mappings: stable.origins } : {}),
  };
}

/** Operations as JSON (bigints and bytes as strings), for a proposal's `operations` field (protocol and DAO proposals). */
export function operationJson(op: Operation): { type: string } {
  const out: Record<string, unknown> & { type: string } = { type: op.type };
  for (const [k, v] of Object.entries(op)) {
    out[k] = typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? (v.length === 32 ? encodeAccount(v) : `0x${Buffer.from(v).toString('hex')}`) : v;
  }
  return out;
}
