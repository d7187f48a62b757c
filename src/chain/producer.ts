import type { Core, BlockResult } from '../core/core.js';
import { statusOf } from './status.js';
import { signEd25519 } from '../codec/keys.js';
import type { BlockWrite, StateWrite } from '../storage/chain-store.js';
import { encodeBlock, headerHash, transactionsRoot, type Block, type BlockHeader } from './block.js';
import { ExecutionAborted } from './errors.js';
import type { PendingBundle } from './mempool.js';
import { buildReceipts, encodeReceipt, type Receipt } from './receipts.js';
import type { TokenRegistry } from './token-registry.js';

export interface ValidatorIdentity {
  seed: Uint8Array;
  publicKey: Uint8Array;
  address: Uint8Array;
}

export interface ProducedBlock {
  block: Block;
  receipts: Receipt[];
  /** per selected bundle: its receipt, or the invalid status that kept it out of the block */
  outcomes: Array<{ entry: PendingBundle; receipt?: Receipt; invalidStatus?: string; invalidMessage?: string; retry: boolean }>;
  /** the state writes of the block, for the host's StateView once the block is durable */
  writes: StateWrite[];
  /** the one atomic batch that makes the block durable */
  write: BlockWrite;
  /**
   * Milliseconds spent in each phase, for the debug log: an imported block also waits for a write
   * slot and is verified; `write` is the whole group write the block was part of.
   */
  timings: { wait?: number; verify?: number; execute: number; commit: number; receipts: number; index?: number; write?: number };
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
    const t0 = performance.now();
    let result: BlockResult;
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
    const outcomes: ProducedBlock['outcomes'] = [];
    selected.forEach((entry, i) => {
      const info = statusOf(result.results[i]!.status);
      if (info.class === 'invalid') {
        outcomes.push({ entry, invalidStatus: info.name, invalidMessage: info.message, retry: RETRY_LATER.has(info.name) });
      } else {
        includedIndexes.push(i);
        outcomes.push({ entry, retry: false });
      }
    });

    const t1 = performance.now();
    const { stateRoot, writes } = core.commitBlock();
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
      transactionsRoot: transactionsRoot(bundleHashes),
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
    const receipts = buildReceipts(header, included, includedIndexes, result, this.deps.tokens);
    const t3 = performance.now();

    let next = 0;
    for (const outcome of outcomes) {
      if (outcome.invalidStatus === undefined) outcome.receipt = receipts[next++];
    }
    const write: BlockWrite = {
      height,
      hash,
      block: encodeBlock(block),
      receipts: receipts.map((r, i) => ({ bundleHash: bundleHashes[i]!, receipt: encodeReceipt(r) })),
      state: writes,
    };
    return { block, receipts, outcomes, writes, write, timings: { execute: t1 - t0, commit: t2 - t1, receipts: t3 - t2 } };
  }
}
