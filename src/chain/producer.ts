import type { Core } from '../core/core.js';
import type { BlockResultView } from '../core/block-result.js';
import { statusOf } from './status.js';
import { signEd25519 } from '../codec/keys.js';
import type { BlockWrite, PackedStateWrites } from '../storage/chain-store.js';
import { AUTH_EVM } from './evm/transaction.js';
import { encodeBlock, headerHash, type Block, type BlockHeader } from './block.js';
import { ExecutionAborted } from './errors.js';
import type { PendingBundle } from './mempool.js';
import { blockReceipts, type Receipt } from './receipts.js';
import type { TokenRegistry } from './token-registry.js';

export interface ValidatorIdentity {
  seed: Uint8Array;
  publicKey: Uint8Array;
  address: Uint8Array;
}

export interface ProducedBlock {
  block: Block;
  /** the block's execution result in block order: stored as is, receipts are built from it */
  result: BlockResultView;
  /** the receipts in block order, built on first use (a synced block's are usually never read) */
  readonly receipts: Receipt[];
  /**
   * Per selected bundle: its position in the block and whether it took effect, or the invalid
   * status that kept it out of the block. An imported block's are built on first read: a catch-up
   * sync executes 1,000 bundles a block that nobody asks about, and an entry and an outcome object
   * per bundle, alive until the block is durable, cost its GC ~1 ms a block (docs/p2p.md "Measured").
   */
  readonly outcomes: BundleOutcome[];
  /** how many outcomes have no index: bundles left out of the block (invalid, or to retry later) */
  leftOut: number;
  /** the included bundles that carry an EVM transaction (their eth index records, docs/eth.md) */
  evmBundles: Array<{ bytes: Uint8Array; hash: Uint8Array }>;
  /** the state writes of the block, for the host's StateView once the block is durable */
  writes: PackedStateWrites;
  /** the one atomic batch that makes the block durable */
  write: BlockWrite;
  /**
   * Milliseconds spent in each phase, for the debug log: an imported block also waits for a write
   * slot and is verified; `write` is the whole group write the block was part of.
   */
  timings: { wait?: number; verify?: number; execute: number; commit: number; receipts: number; index?: number; history?: number; write?: number };
  /**
   * The main thread's CPU milliseconds within `timings.execute`, where Node reports a thread's CPU:
   * `execute` is wall time and includes waiting for a core the verifier threads hold
   * (docs/performance.md "Selection from a pool of queued bundles").
   */
  executeCpu?: number;
  /**
   * A block of this node's mempool: milliseconds selecting it and settling the pool after it
   * executed (Notifier.afterExecution), and the pool it was selected from. For the debug log; not
   * among `timings`, whose sum is the block's path to durable.
   */
  pool?: { select: number; settle?: number; pooled: number; queued: number };
}

export interface BundleOutcome {
  entry: PendingBundle;
  /** its index in the block; undefined when it was left out */
  index?: number;
  /** included and its operations took effect (false: failed, reverted, fee paid) */
  success?: boolean;
  invalidStatus?: string;
  invalidMessage?: string;
  retry: boolean;
}

/**
 * Whether an outcome used its bundle's nonce: a success, or an EVM transaction that failed (the
 * core consumes its nonce, as a reverted transaction on Ethereum: docs/eth.md "EVM semantics");
 * a failed native bundle keeps its nonce (spec §5.8).
 */
export function usedNonce(outcome: BundleOutcome): boolean {
  return outcome.index !== undefined && (outcome.success === true || outcome.entry.auth.kind === AUTH_EVM);
}

/**
 * A ProducedBlock whose receipts are built from its result when first read, and its outcomes when
 * `outcomes` is a function (an imported block's): on first read too.
 */
export function producedBlock(
  fields: Omit<ProducedBlock, 'receipts' | 'outcomes'> & { outcomes: BundleOutcome[] | (() => BundleOutcome[]) },
  tokens: TokenRegistry,
): ProducedBlock {
  const { outcomes: given, ...rest } = fields;
  let receipts: Receipt[] | undefined;
  let outcomes = typeof given === 'function' ? undefined : given;
  return {
    ...rest,
    // `this.block`: a re-executed proposal takes the proposer's header after this is built
    get receipts(): Receipt[] {
      return (receipts ??= blockReceipts(this.block, this.result, tokens));
    },
    get outcomes(): BundleOutcome[] {
      return (outcomes ??= (given as () => BundleOutcome[])());
    },
  };
}

/** Consensus fields of the block being built (docs/consensus.md "Rounds"). */
export interface BlockTurn {
  round: number;
  /** consensus keys of the leaders of rounds 0..round−1 */
  missed: Uint8Array[];
  /** staking account credited as proposer */
  proposer: Uint8Array;
  /** the proposer's consensus key; this node's key unless re-executing another's proposal */
  proposerPubkey?: Uint8Array;
  /** final when made (the solo fast path: this node's vote is > 2/3 of the stake) */
  final?: boolean;
}

export interface ProducerParams {
  chainId: number;
  gasPrice: bigint;
  allowUnsigned: boolean;
  blockGasLimit: bigint;
}

/** Statuses that leave a bundle in the mempool for a later block rather than refusing it. */
const RETRY_LATER = new Set(['BLOCK_GAS_LIMIT', 'NONCE_TOO_HIGH']);

/**
 * Builds, executes, signs and commits one block. Execution is one call into the core; invalid
 * bundles (status class 1–63) have no effect on state, so they are simply left out of the block
 * and an auditor re-executing the block gets the same state root (docs/core-abi.md).
 */
export class BlockProducer {
  constructor(
    private readonly params: ProducerParams,
    private readonly deps: { core: Core; validator: ValidatorIdentity; tokens: TokenRegistry },
  ) {}

  /**
   * Execute and commit the next block in the core and prepare its storage batch. Writing the batch
   * is the caller's job: the chain overlaps it with executing the next block.
   */
  produce(parent: BlockHeader, selected: PendingBundle[], nowSeconds: number, turn?: BlockTurn): ProducedBlock {
    const { core, validator } = this.deps;
    const height = parent.height + 1;
    // The round, skipped leaders and credited account come from consensus (src/consensus); without
    // it the node's own key proposes round 0. A re-executed proposal passes its header's values.
    const round = turn?.round ?? 0;
    const missed = turn?.missed ?? [];
    const proposer = turn?.proposer ?? validator.address;
    const proposerPubkey = turn?.proposerPubkey ?? validator.publicKey;
    const timestamp = Math.max(nowSeconds, parent.timestamp);
    const cpu0 = threadCpu();
    const t0 = performance.now();
    let result: BlockResultView;
    try {
      result = core.applyBlock(
        {
          height: BigInt(height),
          timestamp: BigInt(timestamp),
          proposer,
          gasPrice: this.params.gasPrice,
          chainId: BigInt(this.params.chainId),
          allowUnsigned: this.params.allowUnsigned,
          blockGasLimit: this.params.blockGasLimit,
          missed,
        },
        selected.map((e) => ({ bytes: e.bytes, auth: e.auth.kind, keyHash: e.auth.keyHash, pubkey: e.auth.pubkey })),
      );
    } catch (error) {
      throw new ExecutionAborted(error);
    }

    const includedIndexes: number[] = [];
    const outcomes: BundleOutcome[] = [];
    selected.forEach((entry, i) => {
      const info = statusOf(result.status(i));
      if (info.class === 'invalid') {
        outcomes.push({ entry, invalidStatus: info.name, invalidMessage: info.message, retry: RETRY_LATER.has(info.name) });
      } else {
        outcomes.push({ entry, index: includedIndexes.length, success: info.class === 'ok', retry: false });
        includedIndexes.push(i);
      }
    });

    const t1 = performance.now();
    const executeCpu = cpu0 === undefined ? undefined : threadCpu()! - cpu0;
    const { stateRoot, writes } = core.commitBlockPacked();
    const included = includedIndexes.map((i) => selected[i]!);
    const bundleHashes = included.map((e) => e.hash);
    const unsigned = {
      chainId: this.params.chainId,
      height,
      parentHash: parent.hash,
      timestamp,
      proposer,
      proposerPubkey,
      stateRoot,
      transactionsRoot: core.transactionsRoot(bundleHashes),
      gasUsed: Number(result.gasUsed),
      gasLimit: Number(this.params.blockGasLimit),
      baseFee: Number(this.params.gasPrice),
      bundleCount: included.length,
      round,
      missed,
    };
    const hash = headerHash(unsigned);
    const header: BlockHeader = { ...unsigned, hash, signature: signEd25519(validator.seed, hash) };
    const block: Block = { header, bundles: included.map((e) => e.bytes), bundleHashes };
    const t2 = performance.now();
    const stored = result.compact(includedIndexes);
    const t3 = performance.now();
    const write: BlockWrite = { height, hash, block: encodeBlock(block), outcome: stored.bytes, bundleHashes, state: writes };
    const evmBundles = included.filter((e) => e.auth.kind === AUTH_EVM).map((e) => ({ bytes: e.bytes, hash: e.hash }));
    return producedBlock({
      block, result: stored, outcomes, leftOut: selected.length - included.length, evmBundles, writes, write,
      timings: { execute: t1 - t0, commit: t2 - t1, receipts: t3 - t2 }, ...(executeCpu === undefined ? {} : { executeCpu }),
    }, this.deps.tokens);
  }
}

/** This thread's CPU time in milliseconds (process.threadCpuUsage: Node 22.19+, 23.9+), else undefined. */
function threadCpu(): number | undefined {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage === undefined ? undefined : (usage.user + usage.system) / 1000;
}
