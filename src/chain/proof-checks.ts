// How a list of domain proof checks (src/domains/module.ts ProofCheck) is applied to a bundle's
// operations: each check looks only where the core allows its operation. The lists come from the
// registry: every check at admission (./admission/host-proofs.ts), the checks of `every block` on import and
// replay (./block-proofs.ts). This file names no domain (test/unit/domain-registry.test.ts).

import { BUNDLE_FIRST_OP_AT, OpCode } from '../abi/constants.js';
import type { Operation } from '../abi/operations.js';
import { decodeBundle } from '../codec/bundle.js';
import type { ProofCheck, Verify, VerifyAsync } from '../domains/module.js';

/** A refused proof: the bundle status (docs/rpc.md) and the message naming the proof and what is wrong. */
export interface ProofRefusal {
  status: string;
  message: string;
}

export class ProofChecks {
  private readonly byOperation = new Map<Operation['type'], ProofCheck[]>();
  private readonly lookInside: boolean;
  /** the first operations that may carry a proof; when one may sit elsewhere, every bundle is decoded */
  private readonly firstCodes: ReadonlySet<number>;
  private readonly decodesEvery: boolean;

  constructor(checks: readonly ProofCheck[]) {
    for (const c of checks) this.byOperation.set(c.operation, [...(this.byOperation.get(c.operation) ?? []), c]);
    this.lookInside = checks.some((c) => c.position === 'nested');
    this.firstCodes = new Set(checks.map((c) => OpCode[c.operation]));
    this.decodesEvery = checks.some((c) => c.position !== 'first');
  }

  /** The first proof among `ops` these checks refuse, or undefined. */
  problemOf(ops: readonly Operation[], chainId: number, verify: Verify): ProofRefusal | undefined {
    for (const [check, op] of this.proofsIn(ops)) {
      const why = check.problem(op, chainId, verify);
      if (why !== undefined) return { status: check.status, message: `${check.what}: ${why}` };
    }
    return undefined;
  }

  /** problemOf with a verifier that may be asynchronous (each check's problemAsync). */
  async problemOfAsync(ops: readonly Operation[], chainId: number, verify: VerifyAsync): Promise<ProofRefusal | undefined> {
    for (const [check, op] of this.proofsIn(ops)) {
      if (!check.problemAsync) throw new Error(`the ${check.operation} proof has no asynchronous check`);
      const why = await check.problemAsync(op, chainId, verify);
      if (why !== undefined) return { status: check.status, message: `${check.what}: ${why}` };
    }
    return undefined;
  }

  /**
   * The operations of an encoded bundle when it may carry a proof these checks look at, or
   * undefined (none: one byte tells when every check's operation may only come first; or the
   * bundle does not decode, which is the core's to refuse).
   */
  operationsOf(bytes: Uint8Array): Operation[] | undefined {
    if (!this.decodesEvery && (bytes.length <= BUNDLE_FIRST_OP_AT || !this.firstCodes.has(bytes[BUNDLE_FIRST_OP_AT]!))) return undefined;
    try {
      return decodeBundle(bytes).operations;
    } catch {
      return undefined;
    }
  }

  /** Each (check, operation) pair of `ops` whose position the check looks at. */
  private *proofsIn(ops: readonly Operation[], nested = false): Generator<[ProofCheck, Operation]> {
    for (const [i, op] of ops.entries()) {
      for (const c of this.byOperation.get(op.type) ?? []) {
        if (c.position === 'nested' || (!nested && (c.position === 'top' || i === 0))) yield [c, op];
      }
      const inner = this.lookInside ? (op as { action?: { operations?: Operation[] } }).action?.operations : undefined;
      if (inner) yield* this.proofsIn(inner, true);
    }
  }
}
