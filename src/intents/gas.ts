import { GAS_BASE, OPERATION_GAS } from '../abi/constants.js';
import { BorshWriter } from '../codec/borsh.js';
import { encodeBundle, writeOperation, type Operation } from '../codec/bundle.js';
import { Core } from '../core/core.js';
import type { WasmModule } from '../core/loader.js';
import { Status } from '../core/status.js';

/**
 * The gas of a planned bundle, measured from the core itself rather than from a copy of its table
 * (assembly/gas.ts), so an operation another change adds (Stake, RegisterName, …) is priced right
 * without touching this file. docs/core-abi.md "Rules": a bundle's gas is 5,000 base plus a fixed
 * amount per operation kind, known before any state is read, and a bundle whose gas exceeds its
 * max_gas is OUT_OF_GAS — a check that comes before any balance is read. So on an empty state, the
 * smallest max_gas that is not OUT_OF_GAS is the bundle's gas; one binary search per operation
 * kind, cached, and every later estimate is a sum.
 */
function encodeOperation(op: Operation): Uint8Array {
  const w = new BorshWriter();
  writeOperation(w, op);
  return w.finish();
}

export class GasMeter {
  private readonly perKind = new Map<string, bigint>();
  private base: bigint | undefined;
  private static readonly ACCOUNT = new Uint8Array(32).fill(0xee);
  private static readonly CEILING = 1n << 32n;

  private constructor(private readonly core: Core) {}

  static async create(module: WasmModule): Promise<GasMeter> {
    return new GasMeter(await Core.fromModule(module, { get: () => undefined }));
  }

  /** Gas the core charges for a bundle of these operations. */
  bundleGas(operations: readonly Operation[]): bigint {
    let gas = this.baseGas();
    for (const op of operations) gas += this.opGas(op);
    return gas;
  }

  /** Gas of one operation (without the bundle's base). */
  opGas(op: Operation): bigint {
    // A batch's gas grows with its entries (docs/collections.md "Gas"), so it is cached per length; an
    // operation charged per stored byte (RegisterProgram, CreateSchedule, CreateProposal) per encoding.
    const kind = 'entries' in op ? `${op.type}/${op.entries.length}`
      : (OPERATION_GAS as Record<string, { perByte?: bigint }>)[op.type]?.perByte !== undefined ? `${op.type}/${Buffer.from(encodeOperation(op)).toString('hex')}` : op.type;
    const known = this.perKind.get(kind);
    if (known !== undefined) return known;
    const gas = this.measure([op]) - this.baseGas();
    this.perKind.set(kind, gas);
    return gas;
  }

  private baseGas(): bigint {
    if (this.base === undefined) {
      const probe: Operation = { type: 'Transfer', to: GasMeter.ACCOUNT, token: new Uint8Array(32), amount: 1n };
      const one = this.measure([probe]);
      const two = this.measure([probe, probe]);
      this.base = one - (two - one);
      this.perKind.set('Transfer', two - one);
    }
    return this.base;
  }

  /** Binary search of the least max_gas that is not OUT_OF_GAS. */
  private measure(operations: Operation[]): bigint {
    let lo = GAS_BASE; // MAX_GAS_TOO_LOW below this (docs/core-abi.md)
    let hi = GasMeter.CEILING;
    if (this.outOfGas(operations, hi)) throw new Error(`a bundle of ${operations.map((o) => o.type).join(', ')} needs more than 2^32 gas`);
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (this.outOfGas(operations, mid)) lo = mid + 1n;
      else hi = mid;
    }
    return lo;
  }

  private outOfGas(operations: Operation[], maxGas: bigint): boolean {
    const bytes = encodeBundle({
      userAccount: GasMeter.ACCOUNT, operations, maxGas, maxPriorityFee: 0n, validUntil: 1n << 40n, nonce: 0n,
      signature: new Uint8Array(0),
    });
    const result = this.core.applyBlock(
      { height: 1n, timestamp: 1n, proposer: new Uint8Array(32), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 62n },
      [{ bytes, auth: 0 }],
    );
    this.core.revertBlock();
    const status = result.results[0]!.status;
    if (status === Status.MAX_GAS_TOO_LOW) return true;
    return status === Status.OUT_OF_GAS;
  }
}
