import type { Operation } from '../codec/bundle.js';
import type { TokenRef } from './goals.js';

/**
 * The integrator hook for synthetic-asset intents (spec §4.8: "Synthetic-asset intents (STD-71)
 * are parsed and accepted; oracle pricing and margin logic are supplied by the integrator").
 * This node has no oracle and no margin engine, so MintSynthetic and OpenPosition goals are priced
 * by whatever the embedder registers here (docs/intents.md "Integrator hook"). The hook turns the
 * goal into ordinary operations (for example a Transfer of the payment or collateral to the
 * integrator's vault account) plus the figures the preview shows; the planner puts those operations
 * into the intent's one bundle like any other step. Without a hook, preview and simulate say so in
 * their notes and svc_submitIntent refuses the intent.
 */

export interface SyntheticMintRequest {
  sender: Uint8Array;
  /** the synthetic's symbol as written, e.g. "sTSLA" */
  synthetic: string;
  /** raw units of the synthetic, with the decimals the parser used */
  amount: { raw: bigint; text: string; decimals: number };
  payWith: TokenRef;
  slippageBps: number;
}

export interface OpenPositionRequest {
  sender: Uint8Array;
  side: 'long' | 'short';
  /** whole multiple, e.g. 5 for 5x */
  leverage: number;
  asset: string;
  collateral: { token: TokenRef; raw: bigint; text: string };
  slippageBps: number;
}

/** What a hook answers: the operations to execute and what the wallet is shown. */
export interface HookQuote {
  operations: Operation[];
  /** the token and raw amount the sender pays (balance check and preview) */
  pays: { token: TokenRef; amount: bigint };
  /** one line for the preview summary, e.g. "mint 2 sTSLA at 251.30 USDC (oracle …)" */
  summary: string;
  /** price impact of the integrator's pricing, basis points (0 when not applicable) */
  priceImpactBps?: number;
  /** remarks for the wallet, shown in the result's `notes` (spec §7.3 warnings are the planner's own) */
  notes?: string[];
}

export interface IntegratorHooks {
  /** shown in summaries and errors */
  readonly name: string;
  mintSynthetic?(request: SyntheticMintRequest): HookQuote;
  openPosition?(request: OpenPositionRequest): HookQuote;
}

/** The hooks the embedder registered (one set per node process). */
export class HookRegistry {
  private current: IntegratorHooks | undefined;

  register(hooks: IntegratorHooks): void {
    this.current = hooks;
  }

  clear(): void {
    this.current = undefined;
  }

  get hooks(): IntegratorHooks | undefined {
    return this.current;
  }
}

/** The note preview and simulate carry when no hook can price the goal. */
export function missingHookNote(goal: 'MintSynthetic' | 'OpenPosition'): string {
  const what = goal === 'MintSynthetic' ? 'synthetic-asset minting (STD-71) needs oracle pricing' : 'leveraged positions need margin and oracle pricing';
  return `No integrator hook registered: ${what} supplied by the integrator, so this intent cannot be submitted on this node`;
}
