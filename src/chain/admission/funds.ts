import type { Operation } from '../../codec/bundle.js';
import { encodeAccount } from '../../codec/address.js';
import { NTV_MINT } from '../../abi/constants.js';
import { domains } from '../../domains/index.js';
import { ChainError } from '../errors.js';

/**
 * The funds rule of admission (docs/mempool.md "Funds"; issue 41): as geth's txpool refuses a
 * transaction whose sender cannot pay `gas × price + value`, a bundle is refused before it waits in
 * the mempool, without a fee and without a block, when the sender's NTV at the pending state cannot
 * cover what the bundle may take. A bundle that passes and fails at execution still pays for its
 * gas (spec §7.5), and token amounts stay an execution rule, as ERC-20 amounts are on Ethereum.
 */

/**
 * The NTV a bundle may take from its sender: `max_gas × (gas_price + max_priority_fee)` (the most
 * the core charges, spec §1.8 fee = gas × (price + priority), assembly/block.ts) plus the NTV
 * amounts of its LEADING operations that spend the sender's NTV by their own fields (a Transfer of
 * NTV, and what each domain module declares: src/domains/module.ts NtvSpend). Counting stops at the first operation of any other kind,
 * since it may pay NTV into the account (a swap to NTV, a claim, a withdrawal) for the operations
 * after it to spend: refusing such a bundle would refuse one that succeeds. What is not counted is
 * the core's to check at execution.
 */
export function ntvCommitment(operations: readonly Operation[], maxGas: bigint, maxPriorityFee: bigint, gasPrice: bigint): bigint {
  let total = maxGas * (gasPrice + maxPriorityFee);
  for (const op of operations) {
    const spent = ntvSpent(op);
    if (spent === undefined) break;
    total += spent;
  }
  return total;
}

/** Each operation's spend: the envelope's Transfer, and the domains' (src/domains/index.ts). */
const spends = new Map<Operation['type'], (op: Operation) => bigint | undefined>([
  ['Transfer', (op) => (op.type === 'Transfer' && isNtv(op.token) ? op.amount : 0n)],
  ...domains.flatMap((d) => (d.ntvSpends ?? []).map((s): [Operation['type'], (op: Operation) => bigint | undefined] => [s.operation, (op) => s.ntvSpent(op)])),
]);

/** The NTV an operation spends from its sender by its fields; undefined when it may also pay NTV in. */
function ntvSpent(op: Operation): bigint | undefined {
  return spends.get(op.type)?.(op);
}

function isNtv(mint: Uint8Array): boolean {
  return Buffer.compare(mint, NTV_MINT) === 0;
}

/** geth's wording (core/txpool: ErrInsufficientFunds), with the account in this chain's form and raw NTV units. */
export function insufficientFunds(account: Uint8Array, have: bigint, want: bigint, data: Record<string, unknown> = {}): ChainError {
  return new ChainError('INSUFFICIENT_BALANCE', `insufficient funds for gas * price + value: address ${encodeAccount(account)} have ${have} want ${want} (raw NTV at the pending state)`, {
    status: 'INSUFFICIENT_FUNDS', address: encodeAccount(account), have: have.toString(), want: want.toString(), ...data,
  });
}
