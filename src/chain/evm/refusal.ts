import { ChainError } from '../errors.js';

/** A refusal: `status` goes to the -32001 error's data.status (docs/eth.md "Errors"). */
export function evmRefusal(status: string, message: string, data: Record<string, unknown> = {}): ChainError {
  return new ChainError('BUNDLE_INVALID', message, { status, ...data });
}
