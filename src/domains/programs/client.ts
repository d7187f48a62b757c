/**
 * Intent programs' wallet helpers (RegisterProgram 48; docs/programs.md "Programs on chain"): the signed
 * path of svc_registerProgram. Composed into Wallet (src/client/wallet.ts), which also re-exports the
 * operation builder and its gas below.
 */
import { GAS_BASE, OPERATION_GAS } from '../../abi/constants.js';
import type { Operation } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';

export class ProgramClient {
  /**
   * RegisterProgram (docs/bundle-format.md discriminant 48; docs/programs.md "Programs on chain"):
   * the program JSON (an object or its text) under its `name`, owned by this account. The JSON is
   * sent as given (compact when an object); the node validates it when it reads the record.
   */
  async registerProgram(this: WalletCore, program: Record<string, unknown> | string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.send([registerProgramOp(program)], { maxGas: registerProgramGas(program), ...opts });
  }
}

/** The RegisterProgram operation of a program JSON (object or text); its `name` must be a string. */
export function registerProgramOp(program: Record<string, unknown> | string): Operation {
  const text = typeof program === 'string' ? program : JSON.stringify(program);
  const parsed: unknown = JSON.parse(text);
  const name = typeof parsed === 'object' && parsed !== null ? (parsed as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') throw new Error('program: the JSON must be an object with a string "name"');
  return { type: 'RegisterProgram', name, program: text };
}

/** Gas of a one-operation RegisterProgram bundle: 5,000 base + 30,000 + 3 per JSON byte (docs/programs.md). */
export function registerProgramGas(program: Record<string, unknown> | string): bigint {
  const text = typeof program === 'string' ? program : JSON.stringify(program);
  const gas = OPERATION_GAS.RegisterProgram;
  return GAS_BASE + gas.base + gas.perByte * BigInt(Buffer.byteLength(text, 'utf8'));
}
