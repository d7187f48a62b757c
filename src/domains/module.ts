/**
 * What a domain adds to the host's generic paths (issue 44; docs/adding-a-domain.md "Host checks").
 * After Cosmos SDK's `x/<module>`: each domain's host code lives in `src/domains/<name>/`, and
 * `src/domains/index.ts` lists the modules. Admission, block import and replay iterate that list
 * (src/chain/admission/host-proofs.ts) and never name a domain.
 */

import type { ReceiptFormats } from '../abi/events.js';
import type { Operation } from '../abi/operations.js';
import type { TokenRegistry } from '../chain/token-registry.js';
import type { BlockResultView } from '../core/block-result.js';

/** An Ed25519 check: (public key, message, signature) → verifies. */
export type Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;
/** The same, where it may be asynchronous (the browser replay's WebCrypto). */
export type VerifyAsync = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean | Promise<boolean>;

/**
 * A proof an operation carries that the core cannot check, because it needs a signature scheme the
 * deterministic core does not run (secp256k1, or Ed25519 over data other than the bundle). The host
 * checks it wherever it checks bundle signatures, so a bad one never reaches a block; the core
 * decides everything that depends on state.
 */
// `problem` is declared as a method so a check typed for its one operation type fits a module's list.
export interface ProofCheck<T extends Operation = Operation> {
  /** the operation type that carries the proof */
  readonly operation: T['type'];
  /**
   * Where the core allows the operation, which bounds where the host looks: `first`, a bundle's
   * first operation only and never nested (one byte of the bundle tells whether it has one);
   * `top`, any top-level operation; `nested`, also inside a governance proposal's action.
   */
  readonly position: 'first' | 'top' | 'nested';
  /**
   * `admission`: a submitted bundle and each bundle of a proposal this node re-executes.
   * `every block`: also each bundle of a certified block on import and on an auditor's replay,
   * for a proof that is the authority of a state change rather than a claim about the sender.
   */
  readonly checked: 'admission' | 'every block';
  /** the bundle status a refusal answers with (docs/rpc.md "Statuses") */
  readonly status: string;
  /** the start of the refusal's message, naming the proof ("invalid double-sign evidence") */
  readonly what: string;
  /** why the proof does not verify, or undefined when it does */
  problem(op: T, chainId: number, verify: Verify): string | undefined;
  /** the same with a verifier that may be asynchronous; required for `every block` checks (replay) */
  problemAsync?(op: T, chainId: number, verify: VerifyAsync): Promise<string | undefined>;
}

/**
 * The NTV an operation spends from its sender by its own fields, for admission's funds rule
 * (src/chain/admission/funds.ts; docs/mempool.md "Funds"): a bundle whose sender cannot cover its
 * leading spends plus its most fee is refused before it waits. `undefined` when the operation may
 * also pay NTV into the account (counting stops there: a later operation may spend what it paid in).
 */
// `ntvSpent` is declared as a method so a spend typed for its one operation type fits a module's list.
export interface NtvSpend<T extends Operation = Operation> {
  readonly operation: T['type'];
  ntvSpent(op: T): bigint | undefined;
}

/**
 * A domain's chain-level host module. Its RPC side (methods and examples) is a `DomainRpc` of
 * src/domains/rpc.ts, kept apart so the chain layer never loads the RPC layer; its reader and
 * receipt formatting live in the same folder (docs/adding-a-domain.md "Host side").
 */
export interface DomainModule {
  /** the domain's one name, as its folder and its docs page (`docs/<name>.md`) */
  readonly name: string;
  /** the proofs its operations carry that the host checks */
  readonly proofChecks: readonly ProofCheck[];
  /** its operations that spend the sender's NTV by their fields; an operation not listed stops the count */
  readonly ntvSpends?: readonly NtvSpend[];
  /**
   * How a receipt shows the named formats of its events' fields (abi/events.mjs `format`: its
   * address form, the names of its enum values), for src/chain/receipts.ts, which takes them from
   * every module and names no domain. A format is given by one module only (domain-registry test).
   */
  readonly receiptFormats?: DomainReceiptFormats;
  /**
   * The formats that depend on the block the receipt is read from (its other events, e.g. an object
   * the same block created, which committed state does not hold yet) or on the token registry, made
   * once a block (src/chain/receipts.ts `formats`). Each such format comes from one module only, as
   * `receiptFormats` do (domain-registry test).
   */
  readonly blockReceiptFormats?: (block: ReceiptBlock) => DomainReceiptFormats;
}

/** A receipt's name for an enum value: `names[v]`, or the number as text when a later core gives one this host does not know. */
export const nameOf = (names: readonly string[], v: number): string => names[v] ?? String(v);

/** The receipt formats a module may give (abi/events.mjs `j` and `as`); the token symbol stays the generic receipt's. */
export type DomainReceiptFormats = Partial<Omit<ReceiptFormats, 'symbol'>>;

/** What a block's receipt formats may read: the block's execution result (its events) and the token registry. */
export interface ReceiptBlock {
  readonly result: BlockResultView;
  readonly tokens: TokenRegistry;
}
