/**
 * The parsed form of an intent (spec §2.6 goal types, §4.8 grammar): what the parser
 * (src/intents/parser.ts) produces and the planner (src/intents/planner.ts) consumes.
 * Amounts are exact raw units (bigint), resolved with each token's decimals from the on-chain
 * registry at parse time; no floats anywhere on the way.
 */

/** A token as the registry resolved it when the intent was parsed. */
export interface TokenRef {
  symbol: string;
  /** 32-byte mint (all zero for NTV) */
  mint: Uint8Array;
  decimals: number;
}

/** An amount of a token in raw units, with the text the user wrote (for summaries). */
export interface TokenAmount {
  token: TokenRef;
  raw: bigint;
  /** the human amount as written, e.g. "1.5" */
  text: string;
}

/** A recipient: a native/EVM address, or a name (`alice.vex`) the planner resolves. */
export type Recipient =
  | { kind: 'address'; address: Uint8Array; text: string }
  | { kind: 'name'; name: string };

/** An exact decimal price: `num / den` whole units of the quote token per whole base token. */
export interface Price {
  num: bigint;
  den: bigint;
  text: string;
}

/** Inline constraints (§4.8), extracted before goal parsing; each is optional and combinable. */
export interface Constraints {
  /** `with N% slippage`, in basis points (0.5% → 50) */
  slippageBps?: number;
  /** `within N minutes` or `deadline N seconds`, in seconds from submission */
  deadlineSeconds?: number;
  /** `max fee N` or `fee cap N`: most NTV the intent may pay in fees, raw units (9 decimals) */
  maxFee?: bigint;
  /** `gas limit N`: the bundle's max_gas */
  gasLimit?: bigint;
}

/**
 * The validator a Stake goal names, as written: 32 bytes that are a staking account or a consensus
 * key (which one is decided against state by the planner), or a name (a `.vex` name, else a
 * validator's own metadata name).
 */
export type ValidatorRef = { kind: 'bytes'; bytes: Uint8Array; text: string } | { kind: 'name'; name: string; text: string };

export type Goal =
  /** swap / convert / trade / sell `<amount> <in> for|to <out>`: amount is the input */
  | { type: 'Swap'; amountIn: TokenAmount; tokenOut: TokenRef }
  /** buy / get / purchase `<amount> <out> with <in>`: amount is the output; input by reverse AMM math */
  | { type: 'Acquire'; amountOut: TokenAmount; tokenIn: TokenRef; maxCost?: TokenAmount }
  /** two swaps, or bridge-then-swap: ordered steps executed atomically */
  | { type: 'Composite'; steps: Goal[] }
  /**
   * stake `<amount>` NTV [with [validator] <who>]: a Delegate to that validator, or to the one the
   * planner's rule picks (docs/intents.md "Stake and allocate")
   */
  | { type: 'Stake'; amount: TokenAmount; validator?: ValidatorRef }
  | { type: 'ProvideLiquidity'; a: TokenAmount; b: TokenAmount }
  | { type: 'Transfer'; amount: TokenAmount; to: Recipient }
  | { type: 'Bridge'; amount: TokenAmount; chain: string }
  /** liquidate to `<amount> <token>`, keeping or excluding tokens */
  | { type: 'Liquidate'; target: TokenAmount; keeping: TokenRef[]; excluding: TokenRef[] }
  /** rebalance to `<p>% <t1>, <p>% <t2>, …`; basis points summing to 10,000 */
  | { type: 'Rebalance'; targets: Array<{ token: TokenRef; bps: number }> }
  /** put `<amount> <token>` split `<p> stake <q> liquidity`; basis points summing to 10,000 */
  | { type: 'Allocate'; amount: TokenAmount; stakeBps: number; liquidityBps: number }
  /** `<swap or buy> … every <unit> for <n> <units>`: `runs` executions, `intervalSeconds` apart */
  | { type: 'Recurring'; goal: Goal; intervalSeconds: number; runs: number }
  /** `… if price below|above <p>`, `limit buy <amount> <token> at <p> <token>` */
  | { type: 'Conditional'; goal: Goal; condition: { direction: 'below' | 'above'; price: Price; base: TokenRef; quote: TokenRef } }
  /** buy `<amount> <synthetic>` with `<token>` (STD-71): priced by the integrator hook */
  | { type: 'MintSynthetic'; synthetic: string; amount: { raw: bigint; text: string; decimals: number }; payWith: TokenRef }
  /** open `<n>x long <asset> perp with <amount> <token>`, `short <asset> <n>x with …` */
  | { type: 'OpenPosition'; side: 'long' | 'short'; leverage: number; asset: string; collateral: TokenAmount }
  /** register `<name>`: name registration, processed outside the goal planner */
  | { type: 'Custom'; action: 'register_name'; name: string };

export type GoalType = Goal['type'];

export interface ParsedIntent {
  goal: Goal;
  constraints: Constraints;
  /** the language the verbs were recognised in */
  language: 'en' | 'es' | 'pt' | 'fr' | 'de' | 'it' | 'ja';
  /** the English form the goal grammar matched, after constraints were taken out */
  normalized: string;
  /** `nl` for natural language, `json` for a JSON goal */
  source: 'nl' | 'json';
}
