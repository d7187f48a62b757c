import { encodeHash } from '../../codec/address.js';
import { bytesEqual } from '../../codec/hash.js';
import type { Block, BlockHeader } from '../block.js';
import type { ProposalExecution } from '../interface.js';
import type { PendingBundle } from '../mempool.js';
import type { ProducedBlock } from '../producer.js';
import type { Execution } from './2-execute.js';
import type { Heads } from './heads.js';
import type { BlockLoop } from './loop.js';
import type { Admission } from '../admission/admission.js';
import type { WriteQueue } from './4-write.js';

/**
 * Step 3 of the block pipeline, commit (docs/architecture.md "Layers"; docs/consensus.md "Commit
 * on finality"): an executed block becomes final and joins the write queue (./4-write.ts). This
 * node's block on the solo path is final when made (./loop.ts); a proposal is re-executed here and
 * held, speculative, until its certificate; a certified block of another validator
 * (src/chain/import.ts) is final already and enters at `commitExecuted`.
 */

export interface FinalityDependencies {
  heads: Heads;
  loop: BlockLoop;
  execution: Execution;
  writes: WriteQueue;
  admission: Admission;
  /** the halt before an approved upgrade this binary does not implement (Chain.upgradeHalt) */
  haltBefore: (height: number) => Error | undefined;
}

export class Finality {
  constructor(private readonly deps: FinalityDependencies) {}

  /**
   * Commit a block executed elsewhere (src/chain/import.ts) exactly as a produced one: indexes and
   * local records in its one batch, mempool bookkeeping at once, the write overlapped with
   * executing the next block. Resolves once the block is durable and its 'block' event emitted.
   */
  commitExecuted(produced: ProducedBlock): Promise<void> {
    const startedAt = Date.now();
    this.deps.heads.executionHead = produced.block.header;
    return this.deps.writes.queueWrite(produced, startedAt);
  }

  /**
   * Re-execute another validator's proposal on top of the head, keeping the result in the core
   * (not in storage) until it is final. ok when execution reproduces the header exactly: every
   * bundle valid, and the same gas, state root and hash. Bundle signatures are checked (unlike a
   * certified import): this node's vote will vouch for them.
   */
  async executeProposal(block: Block, encoded: Uint8Array): Promise<ProposalExecution> {
    const { heads, loop, execution, writes } = this.deps;
    let entries: PendingBundle[];
    try {
      entries = await this.deps.admission.proposalEntries(block);
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), faulty: true };
    }
    await loop.writeSlot();
    // The parent must be durable too: the proposal's keys and nonces are checked against it.
    if (writes.pendingWrites > 0) await writes.writeChain;
    const header = block.header;
    const parent = heads.executionHead;
    if (loop.speculative || parent !== heads.head || !bytesEqual(header.parentHash, parent.hash)) {
      return { ok: false, reason: `does not extend this node's head ${parent.height}`, faulty: false };
    }
    const halt = this.deps.haltBefore(header.height);
    if (halt) return { ok: false, reason: halt.message, faulty: false };
    let produced: ProducedBlock;
    try {
      produced = execution.producer.produce(parent, entries, header.timestamp, {
        round: header.round, missed: header.missed, proposer: header.proposer, proposerPubkey: header.proposerPubkey,
      });
    } catch (error) {
      await execution.reloadCore();
      return { ok: false, reason: `the core could not execute the block: ${String(error)}`, faulty: true };
    }
    const invalid = produced.outcomes.find((o) => o.invalidStatus !== undefined);
    const mismatch = invalid ? `a bundle is invalid here (${invalid.invalidStatus})` : headerMismatch(produced.block.header, header);
    if (mismatch) {
      await execution.reloadCore();
      return { ok: false, reason: mismatch, faulty: true };
    }
    produced.block = { ...produced.block, header };
    produced.write.block = encoded;
    loop.speculative = produced;
    heads.executionHead = header;
    return { ok: true };
  }

  /** Make the speculative block durable with its certificate; false when there is none (superseded). */
  async commitSpeculative(certificate: Uint8Array): Promise<boolean> {
    const loop = this.deps.loop;
    const produced = loop.speculative;
    if (!produced) return false;
    loop.speculative = undefined;
    produced.write.certificate = certificate;
    loop.lastBlockAt = Date.now();
    await this.commitExecuted(produced);
    return true;
  }
}

/** Which header field a re-execution disagrees on, or undefined when the hashes match. */
function headerMismatch(mine: BlockHeader, theirs: BlockHeader): string | undefined {
  if (bytesEqual(mine.hash, theirs.hash)) return undefined;
  if (!bytesEqual(mine.stateRoot, theirs.stateRoot)) return `state root ${encodeHash(mine.stateRoot)} here, ${encodeHash(theirs.stateRoot)} in the header`;
  if (mine.gasUsed !== theirs.gasUsed) return `gas used ${mine.gasUsed} here, ${theirs.gasUsed} in the header`;
  for (const field of ['gasLimit', 'baseFee', 'timestamp', 'bundleCount'] as const) {
    if (mine[field] !== theirs[field]) return `${field} ${mine[field]} here, ${theirs[field]} in the header (validators must run the same --gas-price and --max-txs-per-block)`;
  }
  return 'the header hash differs';
}
