/**
 * The genesis of both networks, as data (spec §1.4, §1.8–§1.10, §2.1; facts.md "Genesis").
 * Everything here is constant so that genesis mints and the genesis state root are identical
 * across restarts and data wipes (spec §9.5). `docs/genesis.md` explains each list.
 */

export type Network = 'testnet' | 'mainnet';

export const CHAIN_IDS: Record<Network, number> = { testnet: 1_618_032, mainnet: 1_618_033 };

/** 2026-01-01T00:00:00Z: the genesis block's timestamp; fixed so that genesis never changes. */
export const GENESIS_TIMESTAMP = 1_767_225_600;

export const NTV_DECIMALS = 9;
export const NTV_UNIT = 10n ** BigInt(NTV_DECIMALS);
/** 1,618,000,000 NTV in raw units (spec §1.4). */
export const NTV_TOTAL_SUPPLY = 1_618_000_000n * NTV_UNIT;

/** The system accounts `0x00…01`–`0x00…08` and their shares of total supply in percent (spec §1.9). */
export const SYSTEM_ACCOUNTS = [
  { index: 1, name: 'public distribution', percent: 38n },
  { index: 2, name: 'ecosystem and DeFi', percent: 15n },
  { index: 3, name: 'foundation treasury', percent: 10n },
  { index: 4, name: 'team', percent: 10n },
  { index: 5, name: 'marketing and community', percent: 7n },
  { index: 6, name: 'SAFT round', percent: 3n },
  { index: 7, name: 'testnet rewards', percent: 3n },
  { index: 8, name: 'staking and strategic', percent: 10n },
] as const;

/** Fees and block rewards: 20% / 15% go to the foundation treasury (spec §1.8). */
export const TREASURY_INDEX = 3;
/** The testnet faucet pays out of the testnet-rewards account. */
export const FAUCET_INDEX = 7;
/** Genesis validators' self stakes come out of the staking and strategic account (docs/staking.md "Genesis"). */
export const STAKING_INDEX = 8;
/**
 * Self stake of each genesis validator: 1,000,000 NTV (1,000 × the minimum stake), so up to 161
 * genesis validators fit the staking account's 161.8M NTV.
 */
export const GENESIS_VALIDATOR_STAKE = 1_000_000n * 10n ** 9n;

export interface OriginMapping {
  chain: string;
  contract: string;
}

export interface StablecoinSpec {
  symbol: string;
  name: string;
  decimals: number;
  currency: string;
  issuer: string;
  /** Origin-chain contracts that the bridge fast path credits to the canonical mint (spec §4.6). */
  origins: OriginMapping[];
}

/**
 * The 18 STD-8 stablecoins pre-mapped at genesis (facts.md "Genesis"). The canonical mint of each
 * is Blake3(`<origin_chain>_<SYMBOL>`) of its first origin. Only origin contracts taken from the
 * issuers' public documentation are listed; the rest are registered by governance at handover.
 */
export const STABLECOINS: StablecoinSpec[] = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, currency: 'USD', issuer: 'Circle', origins: [
    { chain: 'ethereum', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
    { chain: 'solana', contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
  ] },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, currency: 'USD', issuer: 'Tether', origins: [
    { chain: 'ethereum', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
    { chain: 'solana', contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' },
  ] },
  { symbol: 'PYUSD', name: 'PayPal USD', decimals: 6, currency: 'USD', issuer: 'Paxos', origins: [
    { chain: 'ethereum', contract: '0x6c3ea9036406852006290770BEdFcAbA0e23A0e8' },
  ] },
  { symbol: 'FDUSD', name: 'First Digital USD', decimals: 18, currency: 'USD', issuer: 'First Digital', origins: [
    { chain: 'ethereum', contract: '0xc5f0f7b66764F6ec8C8Dff7BA683102295E16409' },
  ] },
  { symbol: 'USDe', name: 'Ethena USDe', decimals: 18, currency: 'USD', issuer: 'Ethena', origins: [
    { chain: 'ethereum', contract: '0x4c9EDD5852cd905f086C759E8383e09bff1E68B3' },
  ] },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, currency: 'USD', issuer: 'Sky (MakerDAO)', origins: [
    { chain: 'ethereum', contract: '0x6B175474E89094C44Da98b954EedeAC495271d0F' },
  ] },
  { symbol: 'EURC', name: 'Euro Coin', decimals: 6, currency: 'EUR', issuer: 'Circle', origins: [
    { chain: 'ethereum', contract: '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c' },
  ] },
  { symbol: 'EURCV', name: 'EUR CoinVertible', decimals: 18, currency: 'EUR', issuer: 'SG-FORGE', origins: [] },
  { symbol: 'EURe', name: 'Monerium EUR emoney', decimals: 18, currency: 'EUR', issuer: 'Monerium', origins: [] },
  { symbol: 'EURS', name: 'STASIS EURO', decimals: 2, currency: 'EUR', issuer: 'STASIS', origins: [
    { chain: 'ethereum', contract: '0xdB25f211AB05b1c97D595516F45794528a807ad8' },
  ] },
  { symbol: 'JPYC', name: 'JPY Coin', decimals: 18, currency: 'JPY', issuer: 'JPYC Inc.', origins: [] },
  { symbol: 'XSGD', name: 'XSGD', decimals: 6, currency: 'SGD', issuer: 'StraitsX', origins: [
    { chain: 'ethereum', contract: '0x70e8dE73cE538DA2bEEd35d14187F6959a8ecA96' },
  ] },
  { symbol: 'BRZ', name: 'Brazilian Digital Token', decimals: 4, currency: 'BRL', issuer: 'Transfero', origins: [] },
  { symbol: 'TRYB', name: 'BiLira', decimals: 6, currency: 'TRY', issuer: 'BiLira', origins: [] },
  { symbol: 'CADC', name: 'CAD Coin', decimals: 18, currency: 'CAD', issuer: 'PayTrie', origins: [] },
  { symbol: 'NZDS', name: 'NZD Stablecoin', decimals: 6, currency: 'NZD', issuer: 'Techemynt', origins: [] },
  { symbol: 'IDRT', name: 'Rupiah Token', decimals: 2, currency: 'IDR', issuer: 'PT Rupiah Token Indonesia', origins: [] },
  { symbol: 'ZARP', name: 'ZARP Stablecoin', decimals: 2, currency: 'ZAR', issuer: 'ZARP', origins: [] },
];

export interface BridgedTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  origin: string;
  /** `launchpad` for tokens from known launchpad contracts (spec §2.1: badge Memecoin). */
  launchOrigin?: 'launchpad';
}

/**
 * Bridge-canonical tokens (spec §1.10: 13+; facts.md lists the first ten, the rest are well-known
 * assets chosen to complete the list). Mint = Blake3(`<origin>_<SYMBOL>`) (spec §1.7).
 * WETH exists on two origins; the symbol resolves to the first (ethereum), the base one by mint.
 */
export const BRIDGED_TOKENS: BridgedTokenSpec[] = [
  { symbol: 'SOL', name: 'Solana', decimals: 9, origin: 'solana' },
  { symbol: 'WIF', name: 'dogwifhat', decimals: 6, origin: 'solana', launchOrigin: 'launchpad' },
  { symbol: 'ETH', name: 'Ether', decimals: 18, origin: 'ethereum' },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, origin: 'ethereum' },
  { symbol: 'WETH', name: 'Wrapped Ether (Base)', decimals: 18, origin: 'base' },
  { symbol: 'BTC', name: 'Bitcoin', decimals: 8, origin: 'bitcoin' },
  { symbol: 'POL', name: 'Polygon Ecosystem Token', decimals: 18, origin: 'polygon' },
  { symbol: 'MONAD', name: 'Monad', decimals: 18, origin: 'monad' },
  { symbol: 'BONK', name: 'Bonk', decimals: 5, origin: 'solana', launchOrigin: 'launchpad' },
  { symbol: 'PUMP', name: 'Pump', decimals: 6, origin: 'solana', launchOrigin: 'launchpad' },
  { symbol: 'BNB', name: 'BNB', decimals: 18, origin: 'bsc' },
  { symbol: 'AVAX', name: 'Avalanche', decimals: 18, origin: 'avalanche' },
  { symbol: 'ARB', name: 'Arbitrum', decimals: 18, origin: 'arbitrum' },
  { symbol: 'OP', name: 'Optimism', decimals: 18, origin: 'optimism' },
  { symbol: 'LINK', name: 'Chainlink', decimals: 18, origin: 'ethereum' },
  { symbol: 'UNI', name: 'Uniswap', decimals: 18, origin: 'ethereum' },
  { symbol: 'AAVE', name: 'Aave', decimals: 18, origin: 'ethereum' },
  { symbol: 'JUP', name: 'Jupiter', decimals: 6, origin: 'solana' },
  { symbol: 'PYTH', name: 'Pyth Network', decimals: 6, origin: 'solana' },
  { symbol: 'DOGE', name: 'Dogecoin', decimals: 8, origin: 'dogecoin' },
  { symbol: 'LTC', name: 'Litecoin', decimals: 8, origin: 'litecoin' },
  { symbol: 'TON', name: 'Toncoin', decimals: 9, origin: 'ton' },
];

/**
 * The 18 further symbols reserved for future STD-8 issuance (spec §2.1): they cannot be registered
 * as STD-7 tokens. Assignment is by governance only.
 */
export const RESERVED_SYMBOLS = [
  'USDP', 'TUSD', 'GUSD', 'USDS', 'FRAX', 'LUSD', 'CRVUSD', 'GHO', 'RLUSD',
  'USD1', 'EURT', 'EUROP', 'GBPT', 'XCHF', 'AUDD', 'MXNB', 'CNHT', 'HKDA',
];

/**
 * Testnet only: the testnet-rewards account holds this many whole units of every genesis
 * stablecoin and bridged token, so token transfers and (later) pools can be tried without a bridge.
 * Mainnet starts these tokens with zero supply; they are minted by the bridge and issuers.
 */
export const TESTNET_TOKEN_FLOAT_UNITS = 1_000_000_000n;
