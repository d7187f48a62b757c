import type { BundleInput, Core } from '../core/core.js';
import type { BlockResultView } from '../core/block-result.js';
import type { BundleScan } from '../core/scan.js';
import { Bytes32Map } from '../codec/bytes32-map.js';
import { bytesEqual, toHex, toLatin1 } from '../codec/hash.js';
import { verifyEd25519 } from '../codec/keys.js';
import { blockContextOf, deriveAuth, type KeySource } from './block-checks.js';
import { decodeStoredBlock, storedBundles, type Block, type BlockHeader } from './block.js';
import { BlockCheckError, checkBlock, type BlockCheckFailure, type CheckedBlock } from './pipeline/1-check.js';
import type { AccountKeys } from './account-keys.js';
import type { BundleAuth, Mempool, PendingBundle } from './mempool.js';
import { producedBlock, type ProducedBlock } from './producer.js';
import { statusOf } from './status.js';
import type { TokenRegistry } from './token-registry.js';
import { AUTH_EVM } from '../abi/constants.js';

/**
 * Contract F: a block made by another validator enters the chain here (sync, src/p2p/sync.ts, and
 * the consensus layer for blocks finalized by others), along the block path (docs/architecture.md
 * "Block path"): step 1 (./pipeline/1-check.ts: the block decodes and extends our head, its hash,
 * transactions root, proposer signature and membership, finality certificate, the proofs of every
 * block), then the halt at an approved upgrade's height; step 2 here, the bundles through the core
 * with the header's context, whose result must match: no invalid bundle, the same gas and state
 * root. Steps 3–5 are the local producer's (Chain.commitExecuted): one synced level batch with the
 * execution result, the bundles' positions and the indexes (shared with the blocks executed while
 * the previous write was in flight), the 'block' event, waiting callers answered.
 *
 * Bundle signatures are not re-verified (docs/p2p.md "Import"): more than 2/3 of the stake signed
 * that they executed this exact block (the hash covers the transactions root and the state root),
 * and re-checking 1,000 Ed25519 signatures per block would cap sync near 15 blocks/s per core.
 * The core still needs each bundle's authorization input (which key signed); it is derived from the
 * bundle and state: the key it reveals, the account's only key of the signature's scheme, or, when
 * the account holds several, the one whose signature verifies.
 */

export type ImportFailure =
  | BlockCheckFailure | 'INVALID_BUNDLE' | 'GAS_MISMATCH' | 'STATE_ROOT_MISMATCH'
  /**
   * the node halts before this block (ImportTarget.haltBefore): today an approved upgrade's height
   * that this binary does not implement (docs/upgrades.md)
   */
  | 'HALTED';

export class ImportError extends Error {
  constructor(readonly code: ImportFailure, message: string, readonly height?: number) {
    super(message);
    this.name = 'ImportError';
  }

  /** Whether the block is wrong (the sender is to blame) rather than merely not next for us. */
  get blamesSender(): boolean {
    return this.code !== 'NOT_NEXT' && this.code !== 'HALTED';
  }
}

export interface ImportedBlock {
  block: Block;
  /** settles once the block is durable (its write overlaps executing the next one) */
  durable: Promise<void>;
}

export interface ImportOptions {
  /**
   * Skip the certificate check: only for a caller that has already counted > 2/3 of the stake's
   * votes for this hash itself (the consensus layer's own tally). Sync never sets it.
   */
  certificateVerified?: boolean;
}

/** Keys revealed by imported bundles whose block may not be durable yet (the StateView lags). */
/** What an import needs of the chain it extends (src/chain/chain.ts implements it). */
export interface ImportTarget {
  readonly chainId: number;
  readonly tokens: TokenRegistry;
  readonly keys: AccountKeys;
  readonly mempool: Mempool;
  readonly allowUnsigned: boolean;
  readonly executionParent: BlockHeader;
  readonly executionCore: Core;
  writeSlot(): Promise<void>;
  /** --elastic-state: load the keys the block's bundles will touch before the core runs them. */
  prepareExecution(bundles: () => Uint8Array[]): Promise<void>;
  commitExecuted(produced: ProducedBlock): Promise<void>;
  reloadCore(): Promise<void>;
  /** why this node must not execute the block at `height`, or undefined (Chain.upgradeHalt: docs/upgrades.md) */
  haltBefore(height: number): Error | undefined;
}

const revealedKeys = new WeakMap<ImportTarget, Map<string, BundleAuth[]>>();
const REVEALED_LIMIT = 100_000;

export async function importBlock(chain: ImportTarget, encodedBlock: Uint8Array, certificate: Uint8Array, options: ImportOptions = {}): Promise<ImportedBlock> {
  // Wait for a write slot first: the parent is the last executed block, which moves as writes land.
  // The block is decoded after the wait, so its 1,000 bundle views are not alive across it (a
  // scavenge meanwhile would copy them, and the next would promote them).
  const waitStarted = performance.now();
  await chain.prepareExecution(() => {
    try {
      return decodeStoredBlock(encodedBlock).bundles;
    } catch {
      return [];
    }
  });
  await chain.writeSlot();
  const verifyStarted = performance.now();
  const core = chain.executionCore;
  let checked: CheckedBlock;
  try {
    checked = checkBlock(encodedBlock, certificate, chain.executionParent, core, {
      chainId: chain.chainId, verify: verifyEd25519, ...(options.certificateVerified ? { certificateVerified: true } : {}),
    });
  } catch (error) {
    if (error instanceof BlockCheckError) throw new ImportError(error.kind, error.message, error.height);
    throw error;
  }
  const { header, bundles, scan } = checked;
  // spec §3: the block at an approved plan's height is the new release's to execute (docs/upgrades.md).
  const halt = chain.haltBefore(header.height);
  if (halt) throw new ImportError('HALTED', halt.message, header.height);

  // Per bundle only its authorization input is kept (one shared object for every unsigned bundle);
  // the views, entries and outcomes are made when somebody reads them (`importedBlock`, `outcomes`).
  const mine = chain.mempool.size > 0 ? new Map<number, PendingBundle>() : undefined;
  const keys = keySource(chain);
  const auths = bundles.map((bytes, i) => bundleAuth(chain, bytes, i, scan, mine, header.height, keys));
  const context = blockContextOf(header, chain.allowUnsigned);
  const t0 = performance.now();
  let result: BlockResultView;
  try {
    result = core.applyBlock(context, bundles.map((bytes, i): BundleInput => ({ bytes, auth: auths[i]!.kind, keyHash: auths[i]!.keyHash, pubkey: auths[i]!.pubkey })));
  } catch (error) {
    await chain.reloadCore();
    throw new ImportError('INVALID_BUNDLE', `the core could not execute the block: ${String(error)}`, header.height);
  }
  let invalid = -1;
  for (let i = 0; i < result.count && invalid < 0; i++) if (statusOf(result.status(i)).class === 'invalid') invalid = i;
  if (invalid >= 0 || Number(result.gasUsed) !== header.gasUsed) {
    core.revertBlock();
    if (invalid >= 0) {
      throw new ImportError('INVALID_BUNDLE', `bundle ${invalid} is invalid here (${statusOf(result.status(invalid)).name}); the proposer should have left it out`, header.height);
    }
    throw new ImportError('GAS_MISMATCH', `executing the block used ${result.gasUsed} gas, the header says ${header.gasUsed}`, header.height);
  }
  const t1 = performance.now();
  const { stateRoot, writes } = core.commitBlockPacked();
  if (!bytesEqual(stateRoot, header.stateRoot)) {
    // The core has committed a state storage will never hold: rebuild it from storage.
    await chain.reloadCore();
    throw new ImportError('STATE_ROOT_MISMATCH', `re-execution gives state root ${toHex(stateRoot)}, the header says ${toHex(header.stateRoot)}`, header.height);
  }
  rememberRevealed(chain, bundles, auths);
  const t2 = performance.now();
  const block = importedBlock(header, encodedBlock, scan);
  // A loop, not a closure: a closure over `bundles` would put them in the context that `outcomes`
  // below keeps, and 1,000 views a block would live until the block is durable and be promoted.
  const evmBundles: ProducedBlock['evmBundles'] = [];
  for (let i = 0; i < auths.length; i++) if (auths[i]!.kind === AUTH_EVM) evmBundles.push({ bytes: bundles[i]!, hash: scan.hash(i) });
  const produced = producedBlock({
    block,
    result,
    outcomes: () => {
      const accountKeys = new Bytes32Map<string>();
      return block.bundles.map((bytes, index) => ({
        entry: mine?.get(index) ?? new ImportedBundle(scan.hash(index), bytes, scan.nonce(index), scan.expiry(index), auths[index]!, accountKeys),
        index,
        success: statusOf(result.status(index)).class === 'ok',
        retry: false,
      }));
    },
    leftOut: 0,
    evmBundles,
    writes,
    write: {
      height: header.height,
      hash: header.hash,
      block: encodedBlock,
      outcome: result.bytes,
      bundleHashes: scan.hashes,
      state: writes,
      ...(certificate.length > 0 ? { certificate } : {}),
    },
    timings: {
      wait: verifyStarted - waitStarted, verify: t0 - verifyStarted, execute: t1 - t0, commit: t2 - t1, receipts: 0,
    },
  }, chain.tokens);
  return { block, durable: chain.commitExecuted(produced) };
}

/**
 * A bundle of an imported block as the pipeline's entry. The hex hash and the account's map key
 * are made only when asked for: a synced block's 1,000 entries mostly never are.
 */
class ImportedBundle implements PendingBundle {
  private hex: string | undefined;
  private latin1: string | undefined;
  readonly nodeAssigned = false;
  /** an imported bundle never enters the mempool, whose orders alone read the fee */
  readonly priorityFee = 0n;

  constructor(
    readonly hash: Uint8Array,
    readonly bytes: Uint8Array,
    readonly nonce: bigint,
    readonly expiresAt: bigint,
    readonly auth: BundleAuth,
    /** the block's account keys so far: a sender with many bundles in the block gets one string */
    private readonly accountKeys: Bytes32Map<string>,
  ) {}

  /** docs/bundle-format.md: user_account is the bundle's first field */
  get account(): Uint8Array {
    return this.bytes.subarray(0, 32);
  }

  get hashKey(): string {
    return (this.hex ??= toHex(this.hash));
  }

  get accountKey(): string {
    if (this.latin1 === undefined) {
      this.latin1 = this.accountKeys.getAt(this.bytes, 0);
      if (this.latin1 === undefined) this.accountKeys.setAt(this.bytes, 0, (this.latin1 = toLatin1(this.account)));
    }
    return this.latin1;
  }
}

/**
 * An imported block whose bundle views and hash list are made when first read: until its write
 * lands nobody does during a catch-up, and 2,000 views a full block, alive that long, were copied
 * by every scavenge. Getters of the object itself, so a spread (`{ ...block }`) still copies them.
 */
function importedBlock(header: BlockHeader, encoded: Uint8Array, scan: BundleScan): Block {
  let bundles: Uint8Array[] | undefined;
  let bundleHashes: Uint8Array[] | undefined;
  return {
    header,
    get bundles(): Uint8Array[] {
      return (bundles ??= storedBundles(encoded));
    },
    set bundles(value: Uint8Array[]) {
      bundles = value;
    },
    get bundleHashes(): Uint8Array[] {
      return (bundleHashes ??= Array.from({ length: scan.count }, (_, i) => scan.hash(i)));
    },
    set bundleHashes(value: Uint8Array[]) {
      bundleHashes = value;
    },
  };
}

/**
 * A bundle's authorization input: the mempool entry's when this node holds the bundle (verified at
 * admission; the entry goes into `mine`), else derived from the scan.
 */
function bundleAuth(chain: ImportTarget, bytes: Uint8Array, i: number, scan: BundleScan, mine: Map<number, PendingBundle> | undefined, height: number, keys: KeySource): BundleAuth {
  if (mine) {
    const entry = chain.mempool.get(toHex(scan.hash(i)));
    if (entry) {
      mine.set(i, entry);
      return entry.auth;
    }
  }
  const status = scan.status(i);
  if (status !== 0) throw new ImportError('INVALID_BUNDLE', `bundle ${i} does not decode (${statusOf(status).name})`, height);
  return deriveAuth(bytes, i, scan, keys);
}

/** The account keys import derives authorization from: state, and keys revealed in blocks not yet durable. */
function keySource(chain: ImportTarget): KeySource {
  return {
    registered: (account) => chain.keys.of(account),
    revealed: (account) => revealedKeys.get(chain)?.get(toLatin1(account)) ?? [],
  };
}

function rememberRevealed(chain: ImportTarget, bundles: readonly Uint8Array[], auths: readonly BundleAuth[]): void {
  let map = revealedKeys.get(chain);
  if (!map) revealedKeys.set(chain, (map = new Map()));
  for (let i = 0; i < auths.length; i++) {
    const auth = auths[i]!;
    if (auth.pubkey.length === 0) continue;
    if (map.size >= REVEALED_LIMIT) map.clear();
    // docs/bundle-format.md: user_account is the bundle's first field
    const accountKey = toLatin1(bundles[i]!.subarray(0, 32));
    map.set(accountKey, [...(map.get(accountKey) ?? []), auth]);
  }
}
