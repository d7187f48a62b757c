import { encodeBundle, type Operation } from '../codec/bundle.js';
import { Core, type BlockResult, type StateReader } from '../core/core.js';
import type { WasmModule } from '../core/loader.js';
import { accountKey, decodeAccount } from '../core/records.js';
import { statusOf } from '../chain/status.js';
import { AUTH_EVM } from '../abi/constants.js';

/** Any length but 0, 64 and 3,309 bytes is an EVM transaction's signature to the core (assembly/block.ts): one byte, its value unread. */
const EVM_PLACEHOLDER_SIGNATURE = new Uint8Array(1);

/**
 * Simulation through the core itself (DESIGN.md: "simulation (through the core on a scratch
 * journal)"): the planned bundle is applied to a separate Core instance that reads the committed
 * StateView, then the block is reverted, so nothing is written anywhere and the answer is exactly
 * what the block producer's core would do with the same bundle against the same state.
 *
 * A Core caches what it reads for its whole life, so a scratch instance is only valid for the
 * committed state it was created over: one is kept per head block and replaced when the head moves.
 */

export interface SimulationContext {
  /** the committed state the chain's core reads (src/chain/state-view.ts) */
  state: StateReader;
  /** identifies the committed state: the head block hash */
  headKey: string;
  height: number;
  /** unix seconds of the simulated block (at least the head's) */
  timestamp: number;
  proposer: Uint8Array;
  gasPrice: bigint;
  chainId: number;
}

export interface SimulationOutcome {
  status: number;
  statusName: string;
  ok: boolean;
  /** the status message when it failed */
  error?: string;
  gasUsed: bigint;
  fee: bigint;
  /** per operation index: the amount the core paid out (Swap) or minted (LP) */
  outputs: Map<number, bigint>;
}

export class Simulator {
  private scratch: { key: string; core: Core } | undefined;

  constructor(private readonly module: WasmModule) {}

  /**
   * Apply `operations` from `sender` as one unsigned bundle in a scratch block, then revert it.
   * `evm`: as an EVM transaction's bundle (auth 3, key_hash = the sender), so the core applies the
   * EVM-path rules (docs/eth.md "EVM semantics"); the signature is a 1-byte placeholder, since the
   * core never reads an EVM signature (the host verified it: docs/core-abi.md "Authorization").
   */
  async run(ctx: SimulationContext, sender: Uint8Array, operations: Operation[], maxGas: bigint, evm = false): Promise<SimulationOutcome> {
    const core = await this.coreFor(ctx);
    const record = ctx.state.get(accountKey(sender));
    const nonce = record ? decodeAccount(record).nonce : 0n;
    const bytes = encodeBundle({
      userAccount: sender, operations, maxGas, maxPriorityFee: 0n, validUntil: BigInt(ctx.timestamp) + 3600n, nonce,
      signature: evm ? EVM_PLACEHOLDER_SIGNATURE : new Uint8Array(0),
    });
    let result: BlockResult;
    try {
      result = core.applyBlock(
        {
          height: BigInt(ctx.height), timestamp: BigInt(ctx.timestamp), proposer: ctx.proposer, gasPrice: ctx.gasPrice,
          // Unsigned on every network: a what-if run, never a block.
          chainId: BigInt(ctx.chainId), allowUnsigned: true, blockGasLimit: 1n << 62n,
        },
        [evm ? { bytes, auth: AUTH_EVM, keyHash: sender } : { bytes, auth: 0 }],
      );
    } catch (error) {
      this.scratch = undefined;
      throw error;
    }
    core.revertBlock();
    const r = result.results[0]!;
    const info = statusOf(r.status);
    const outputs = new Map<number, bigint>();
    for (const e of result.events) {
      if (e.kind === 'Swap') outputs.set(e.opIndex, e.amountOut);
      else if (e.kind === 'LiquidityAdded') outputs.set(e.opIndex, e.lp);
      else if (e.kind === 'PoolCreated') outputs.set(e.opIndex, e.lpSupply - 1000n);
    }
    return {
      status: r.status, statusName: info.name, ok: info.class === 'ok', ...(info.class === 'ok' ? {} : { error: info.message }),
      gasUsed: r.gasUsed, fee: r.fee, outputs,
    };
  }

  private async coreFor(ctx: SimulationContext): Promise<Core> {
    if (this.scratch?.key !== ctx.headKey) {
      this.scratch = { key: ctx.headKey, core: await Core.fromModule(this.module, ctx.state) };
    }
    return this.scratch.core;
  }
}
