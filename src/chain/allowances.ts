/**
 * ERC-20 allowances as the host reads them (docs/allowances.md): the core's 0x0C record owner ‖
 * token ‖ spender → u128, absent when 0; 2^128−1 is infinite. The rules (Approve, TransferFrom)
 * are the core's (assembly/ops/allowances.ts); this only reads committed state.
 */
import { allowanceKey } from '../abi/state.js';
import { decodeBalance } from '../core/records.js';
import type { StateReader } from './state-reader.js';

export { INFINITE_ALLOWANCE } from './evm/units.js';

/** What `spender` may still move of `owner`'s `token`, in raw units (0 when no record). */
export function allowanceOf(state: StateReader, owner: Uint8Array, token: Uint8Array, spender: Uint8Array): bigint {
  const record = state.get(allowanceKey(owner, token, spender));
  return record ? decodeBalance(record) : 0n;
}
