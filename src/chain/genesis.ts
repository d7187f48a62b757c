import { blake3 } from '../codec/hash.js';
import { TokenKind } from '../core/records.js';
import type { GenesisBalance, GenesisConfig, GenesisStable, GenesisToken, GenesisValidator } from '../core/core.js';
import { systemAddress, PROTOCOL_ADDRESS, NATIVE_MINT, deriveAccount } from '../codec/address.js';
import { DEFAULT_CHAIN_PARAMS, encodeChainParams, type ChainParams } from './chain-params.js';
import { encodeUpgradeConfig, isDefaultGovernance, type UpgradeGovernance } from '../domains/upgrades/reader.js';
import {
  BRIDGED_TOKENS, CHAIN_IDS, GENESIS_TIMESTAMP, NTV_DECIMALS, NTV_TOTAL_SUPPLY, RESERVED_SYMBOLS,
  STABLECOINS, SYSTEM_ACCOUNTS, FAUCET_INDEX, TESTNET_TOKEN_FLOAT_UNITS, GENESIS_VALIDATOR_STAKE, STAKING_INDEX, type Network,
} from './genesis-data.js';

const encoder = new TextEncoder();

/** Canonical mint of a bridged or pre-mapped token: Blake3(`<origin_chain>_<SYMBOL>`) (spec §1.7). */
export function canonicalMint(originChain: string, symbol: string): Uint8Array {
  return blake3(encoder.encode(`${originChain}_${symbol}`));
}

/** Staking part of a genesis (contracts A and B, docs/staking.md "Genesis"). */
export interface GenesisStaking {
  /** consensus keys (32-byte Ed25519 public keys) of the genesis validators, active from block 1 */
  validators: readonly Uint8Array[];
  params: ChainParams;
}

/**
 * The genesis of a network. Pure: the same network (and validator list and chain parameters)
 * always gives the same config, so genesis mints and the genesis state root are identical across
 * restarts and data wipes (spec §9.5). Without `staking`: the spec's default parameters and no
 * validators.
 */
export function genesisConfig(
  network: Network, staking: GenesisStaking = { validators: [], params: DEFAULT_CHAIN_PARAMS }, governance?: UpgradeGovernance,
): GenesisConfig {
  const tokens: GenesisToken[] = [{
    mint: NATIVE_MINT, name: 'NTV', symbol: 'NTV', decimals: NTV_DECIMALS, kind: TokenKind.NATIVE,
    creator: PROTOCOL_ADDRESS, originChain: '', originContract: '',
  }];
  const balances: GenesisBalance[] = [];

  // 96% of supply to the eight system accounts (spec §1.8, §1.9); the other 4% is emitted as rewards.
  for (const account of SYSTEM_ACCOUNTS) {
    balances.push({
      account: systemAddress(account.index),
      mint: NATIVE_MINT,
      amount: (NTV_TOTAL_SUPPLY * account.percent) / 100n,
    });
  }

  const faucet = systemAddress(FAUCET_INDEX);
  const float = (mint: Uint8Array, decimals: number) => {
    if (network === 'testnet') {
      balances.push({ account: faucet, mint, amount: TESTNET_TOKEN_FLOAT_UNITS * 10n ** BigInt(decimals) });
    }
  };

  const stablecoins: GenesisStable[] = [];
  for (const coin of STABLECOINS) {
    const origin = coin.origins[0];
    const mint = canonicalMint(origin?.chain ?? 'std8', coin.symbol);
    stablecoins.push({ mint, currency: coin.currency, issuer: coin.issuer, origins: coin.origins.map((o) => ({ chain: o.chain, contract: o.contract })) });
    tokens.push({
      mint, name: coin.name, symbol: coin.symbol, decimals: coin.decimals, kind: TokenKind.STD8_STABLECOIN,
      creator: PROTOCOL_ADDRESS, originChain: origin?.chain ?? '', originContract: origin?.contract ?? '',
    });
    float(mint, coin.decimals);
  }

  for (const token of BRIDGED_TOKENS) {
    const mint = canonicalMint(token.origin, token.symbol);
    tokens.push({
      mint, name: token.name, symbol: token.symbol, decimals: token.decimals, kind: TokenKind.BRIDGE_CANONICAL,
      creator: PROTOCOL_ADDRESS, originChain: token.origin, originContract: '',
    });
    float(mint, token.decimals);
  }

  // Each genesis validator's self stake comes out of the staking and strategic account 0x…08
  // (spec §1.9), so the genesis supply is unchanged (docs/staking.md "Genesis").
  const seen = new Set<string>();
  const validators: GenesisValidator[] = staking.validators.map((key) => {
    if (key.length !== 32) throw new RangeError('a genesis validator key must be a 32-byte Ed25519 public key');
    const hex = Buffer.from(key).toString('hex');
    if (seen.has(hex)) throw new RangeError(`genesis validator ${hex} is listed twice`);
    seen.add(hex);
    return { consensusKey: key, account: deriveAccount(key), stake: GENESIS_VALIDATOR_STAKE, source: systemAddress(STAKING_INDEX) };
  });

  return {
    chainId: CHAIN_IDS[network],
    timestamp: GENESIS_TIMESTAMP,
    tokens,
    balances,
    reservedSymbols: [...RESERVED_SYMBOLS],
    chainParams: encodeChainParams(staking.params),
    validators,
    stablecoins,
    // The governance flags (docs/upgrades.md "Governance configuration"): recorded only when they
    // differ from the defaults, so a default network's genesis is what it always was.
    ...(governance && !isDefaultGovernance(governance) ? { upgradeConfig: encodeUpgradeConfig(governance) } : {}),
    // The testnet's dev attester (docs/bridge.md "Attesters"): the first genesis validator's key,
    // which sits in its data dir (validator.key), so `ntv-node bridge attest` can sign deposits and
    // every node and auditor derives the same set from the genesis validators. The mainnet starts
    // without an attester set; a bridge_attesters proposal sets one.
    ...(network === 'testnet' && validators.length > 0 ? { bridge: { attesters: [validators[0]!.consensusKey], threshold: 1 } } : {}),
  };
}
