/**
 * Simulation of an EVM call through the core (issue 42 item 2; docs/eth.md "EVM semantics"):
 * `eth_call` of a state-changing ERC-20 function, `eth_estimateGas` and the revert checks of
 * `eth_sendRawTransaction` run the call's native operation as an EVM transaction's bundle (auth 3)
 * on a scratch core over committed state (src/intents/simulate.ts), so what they answer is what the
 * block's core does with the same transaction: the same rules, one code path. A failure is worded
 * as the contract would revert on Ethereum (OpenZeppelin's ERC20/721/1155 and Circle's FiatToken
 * reasons, as geth answers: code 3, docs/eth.md "Errors").
 */
import type { ChainApi } from '../chain/interface.js';
import { readInPasses } from '../chain/state-history.js';
import { compileCore, type WasmModule } from '../core/loader.js';
import { Simulator, type SimulationOutcome } from '../intents/simulate.js';
import type { EvmAction } from '../chain/evm/transaction.js';
import { actionGas, operationOf } from '../chain/evm/transaction.js';
import { executionReverted, type EthCallError } from './errors.js';

/** The contract's revert reason for a failed status, by what the call is. */
function revertReason(status: string, action: EvmAction, message: string): string {
  const erc = action.kind === 'nft' ? 'ERC721' : action.kind === 'multi' ? 'ERC1155' : 'ERC20';
  switch (status) {
    case 'INSUFFICIENT_BALANCE':
      return erc === 'ERC1155' ? 'ERC1155: insufficient balance for transfer' : 'ERC20: transfer amount exceeds balance';
    case 'INSUFFICIENT_ALLOWANCE':
      return 'ERC20: insufficient allowance';
    case 'TRANSFER_TO_ZERO_ADDRESS':
      return 'ERC20: transfer to the zero address';
    case 'NFT_NOT_FOUND':
      return 'ERC721: invalid token ID';
    case 'NOT_NFT_OWNER':
      return 'ERC721: transfer from incorrect owner';
    case 'TOKEN_PAUSED':
      return 'Pausable: paused';
    case 'ADDRESS_BLACKLISTED':
      return 'Blacklistable: account is blacklisted';
    default:
      // No contract wording: the core's own status and message.
      return `${status}: ${message}`;
  }
}

export class EvmSimulator {
  private module: Promise<WasmModule> | undefined;
  private simulator: Simulator | undefined;

  constructor(private readonly chain: ChainApi, private readonly proposer: Uint8Array) {}

  /**
   * Run `action` from `sender` (a right-aligned EVM account) on a scratch block after the head.
   * The gas price is 0, as geth's eth_call without a price: the fee is the txpool's business
   * ("insufficient funds", checked by the caller), the operation's rules are the core's.
   */
  async run(sender: Uint8Array, action: EvmAction): Promise<SimulationOutcome> {
    const head = this.chain.headHeader;
    const simulator = await this.ready();
    return simulator.run(
      {
        state: this.chain.state, headKey: Buffer.from(head.hash).toString('hex'), height: head.height + 1,
        timestamp: Math.max(Math.floor(Date.now() / 1000), head.timestamp), proposer: this.proposer, gasPrice: 0n, chainId: this.chain.chainId,
      },
      sender, [operationOf(action)], actionGas(action), true,
    );
  }

  /** Throws the contract's revert (code 3) when the core would fail the call's bundle. */
  async check(sender: Uint8Array, action: EvmAction): Promise<void> {
    const outcome = await this.run(sender, action);
    const error = revertOf(outcome, action);
    if (error) throw error;
  }

  /**
   * `run` over the state as of past block `height` (eth_call at a block, docs/eth.md "Block
   * parameters"; issue 42 item 1): a scratch block after that block, at its timestamp. A core reads
   * synchronously and keeps what it read, so each pass is a fresh scratch core over a view that
   * answers the keys resolved so far and notes the others (answered meanwhile from the head); the
   * noted keys are resolved as of the block and the call runs again until a pass reads nothing new,
   * as StateHistory.run does for the synchronous readers. A pass that noted keys may have taken a
   * wrong branch on the head's values: its outcome, or error, is dropped.
   */
  async runAt(height: number, sender: Uint8Array, action: EvmAction): Promise<SimulationOutcome> {
    const block = await this.chain.blockByHeight(height);
    if (!block) throw new Error(`block ${height} is not held: a past-state read is checked against the window first`);
    this.module ??= compileCore();
    const module = await this.module;
    return readInPasses(this.chain.state, (state) => new Simulator(module).run({
      // a Simulator of its own each pass: a core keeps what it read, and the head's scratch core stays for the head's calls
      state, headKey: `${height}`, height: height + 1, timestamp: block.header.timestamp, proposer: this.proposer, gasPrice: 0n, chainId: this.chain.chainId,
    }, sender, [operationOf(action)], actionGas(action), true), async (key) => (await this.chain.stateAt(height, (past) => [past.get(key)]))[0], `a simulation at height ${height}`);
  }

  /** `check` over the state as of past block `height`. */
  async checkAt(height: number, sender: Uint8Array, action: EvmAction): Promise<void> {
    const error = revertOf(await this.runAt(height, sender, action), action);
    if (error) throw error;
  }

  private async ready(): Promise<Simulator> {
    this.module ??= compileCore();
    const module = await this.module;
    this.simulator ??= new Simulator(module);
    return this.simulator;
  }
}

/** The revert error of an outcome that did not succeed; undefined when it did. */
export function revertOf(outcome: SimulationOutcome, action: EvmAction): EthCallError | undefined {
  if (outcome.ok) return undefined;
  return executionReverted(revertReason(outcome.statusName, action, outcome.error ?? ''));
}
