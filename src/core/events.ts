// Typed decoding of the core's events (docs/core-abi.md "Event kinds and data"). The events, their
// decoder on the block path and their receipt JSON are generated from the rows of abi/events.mjs
// (src/abi/events.ts; docs/core-abi.md "How the ABI is generated"); this module adds what is not
// layout: the names of the values some fields take, and the interning of repeated 32-byte fields.
import { decodeEventAt, PARAMETER_KEYS, type CoreEvent } from '../abi/events.js';

export {
  decodeEventAt, u128DecimalAt, PARAMETER_KEYS, DAO_EVENT_ACTIONS,
  type CoreEvent, type UnknownEvent, type TransferEvent, type FeeEvent, type ScheduleRunEvent, type ReceiptEventJson,
} from '../abi/events.js';
export type ParameterKey = (typeof PARAMETER_KEYS)[number];
/** The validator staking events (docs/staking.md "Events"), kinds 59–71. */
export type StakingEvent = Extract<CoreEvent, { kind: 'Staked' | 'Delegated' | 'Unstaked' | 'Undelegated' | 'UnstakeClaimed' | 'RewardsClaimed' | 'CommissionSet'
  | 'ValidatorUnjailed' | 'AutoCompoundSet' | 'PoolConfigSet' | 'ValidatorMetadataSet' | 'DoubleSignReported' | 'ConsensusKeyRotationQueued' }>;


export { EventKind, LAST_KNOWN_KIND, ACCOUNT_FIELDS, BUNDLE_LEVEL_OP } from '../abi/constants.js';
/**
 * bundle_index of the events of a schedule run (assembly/domains/schedules/ops.ts): they belong to no
 * bundle and come after every bundle's events in the block (docs/schedules.md).
 */
export { SCHEDULE_RUN_INDEX } from '../abi/constants.js';

/**
 * Interns the 32-byte fields of a block's events: the proposer, the treasury, a bundle's sender and
 * the common tokens repeat across tens of thousands of events, and a typed-array view costs ~100 ns
 * plus GC, so equal values share one read-only Uint8Array.
 */
export class Bytes32Interner {
  private readonly slots: Uint8Array[] = [];
  private next = 0;
  constructor(private readonly size = 8) {}
  get(b: Uint8Array, o: number): Uint8Array {
    const slots = this.slots;
    for (let s = 0; s < slots.length; s++) {
      const c = slots[s]!;
      let i = 31;
      while (i >= 0 && c[i] === b[o + i]) i--;
      if (i < 0) return c;
    }
    const v = b.subarray(o, o + 32);
    if (slots.length < this.size) slots.push(v);
    else {
      slots[this.next] = v;
      this.next = (this.next + 1) % this.size;
    }
    return v;
  }
}

/** Decode one event's data by kind. Byte fields are views into `data` (read-only). */
export function decodeEvent(bundleIndex: number, opIndex: number, kind: number, data: Uint8Array): CoreEvent {
  return decodeEventAt(data, new DataView(data.buffer, data.byteOffset, data.byteLength), 0, data.length, bundleIndex, opIndex, kind);
}
