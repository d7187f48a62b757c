import type { Bundle, Operation, TokenMetadataField } from '../codec/bundle.js';
import type { RpcClient } from './rpc-client.js';

/**
 * What a domain's wallet helpers (src/domains/<name>/client.ts) use of the Wallet: its client, its
 * account and its ways to send. The helpers become the Wallet's own methods (src/client/wallet.ts
 * copies them onto its prototype), and typing their `this` by this interface rather than by the
 * Wallet class keeps the imports one way: the Wallet imports the helpers, the helpers import this.
 */
export interface WalletCore {
  readonly client: RpcClient;
  /** The 32-byte account this wallet signs for. */
  readonly account: Uint8Array;
  /** Sign and submit one bundle of `operations`; resolves with its receipt (or queued answer). */
  send(operations: Operation[], opts?: BundleOptions): Promise<SubmitResult>;
  /** `send` of a single operation. */
  sendOperation(op: Operation, opts?: BundleOptions): Promise<SubmitResult>;
  /** A token's mint from its symbol, mint address or 32 bytes (symbols through svc_getTokenInfo). */
  resolveMint(token: string | Uint8Array): Promise<Uint8Array>;
}

export interface BundleOptions {
  /** Default: the node's pending nonce (or the next one this wallet reserved, if higher). */
  nonce?: bigint;
  maxGas?: bigint;
  maxPriorityFee?: bigint;
  /** Unix seconds; default now + 3600. */
  validUntil?: bigint;
  expiryTimestamp?: bigint;
  /** Default: included when the node reports no registered key for the account (spec §5.3). */
  includePubkey?: boolean;
}

export interface SubmitResult {
  /** `Nxh…` hash of the submitted bytes, computed locally. */
  bundleHash: string;
  /** The bundle that was sent; undefined when raw bytes that do not decode were submitted. */
  bundle: Bundle | undefined;
  /** The node's answer to svc_submitBundle, as returned. */
  receipt: unknown;
}

export type TokenMetadataFields = Partial<Record<TokenMetadataField, string>>;
