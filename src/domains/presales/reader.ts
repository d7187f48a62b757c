import { Prefix, PRESALE_RATE_SCALE } from '../../abi/constants.js';
import { decodePresaleContributionFields, decodePresaleFields, presaleContributionKey, presaleKey, type PresaleFields } from '../../abi/state.js';
import { blake3 } from '../../codec/hash.js';
import { poolAddress, poolKey } from '../../core/amm.js';
import type { StateReader, WatchableState } from '../../chain/state-reader.js';

/**
 * Presales as the host reads them (spec §4.5; docs/presales.md). The rules are the core's
 * (assembly/domains/presales/ops.ts); this keeps an index of the committed presale records (0x68) and
 * contributions (0x69) in step with every block, and derives the state a presale is in at a time.
 * A presale is named by its escrow account: Blake3("ntv.presale.v1" ‖ id u64 LE), shown as Nx0….
 */

export { presaleKey, presaleContributionKey };
export type PresaleRecord = PresaleFields & { address: Uint8Array };

/** The states of docs/presales.md "States and transitions". */
export type PresaleState = 'upcoming' | 'active' | 'succeeded' | 'failed' | 'finalized';
export const PRESALE_STATES: readonly PresaleState[] = ['upcoming', 'active', 'succeeded', 'failed', 'finalized'];
/** flags bit0: finalized; bit1: the creator took its escrow back (a failed presale) */
export const PRESALE_FINALIZED = 1;
export const PRESALE_CREATOR_REFUNDED = 2;
export const CONTRIBUTION_STATES = ['open', 'claimed', 'refunded'] as const;

const enc = new TextEncoder();
/** The escrow (and name) of presale `id`. */
export function presaleAddress(id: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, id, true);
  return blake3(new Uint8Array([...enc.encode('ntv.presale.v1'), ...b]));
}

/** Sale-token raw units a contribution buys: floor(amount·rate / 10^9). */
export function tokensFor(amount: bigint, rate: bigint): bigint {
  return (amount * rate) / BigInt(PRESALE_RATE_SCALE);
}

/**
 * The state at unix time `now` (the head block's): finalized by its flag; else before start_time
 * upcoming; before end_time and under the hard cap active; then succeeded (finalizable) when the
 * soft cap is met and the pair has no pool yet, otherwise failed (refundable).
 */
export function presaleState(p: PresaleFields, now: bigint, state: StateReader): PresaleState {
  if ((p.flags & PRESALE_FINALIZED) !== 0) return 'finalized';
  if (now < p.startTime) return 'upcoming';
  const ended = now >= p.endTime;
  if (!ended && p.raised < p.hardCap) return 'active';
  const poolExists = state.get(poolKey(poolAddress(p.token, p.payToken))) !== undefined;
  if (p.raised >= p.softCap && !poolExists) return 'succeeded';
  return ended ? 'failed' : 'succeeded';
}

export interface ContributionRecord {
  contributor: Uint8Array;
  amount: bigint;
  state: (typeof CONTRIBUTION_STATES)[number];
}

export class PresaleReader {
  private readonly presales = new Map<string, PresaleRecord>();
  private readonly contributions = new Map<string, Map<string, ContributionRecord>>();

  constructor(readonly state: WatchableState) {
    state.watch(Prefix.PRESALE, (key, value) => {
      const address = key.slice(1, 33);
      const hex = Buffer.from(address).toString('hex');
      if (value === null) this.presales.delete(hex);
      else this.presales.set(hex, { ...decodePresaleFields(value), address });
    });
    state.watch(Prefix.PRESALE_CONTRIBUTION, (key, value) => {
      const presale = Buffer.from(key.subarray(1, 33)).toString('hex');
      const contributor = key.slice(33, 65);
      let m = this.contributions.get(presale);
      if (!m) this.contributions.set(presale, (m = new Map()));
      if (value === null) m.delete(Buffer.from(contributor).toString('hex'));
      else {
        const c = decodePresaleContributionFields(value);
        m.set(Buffer.from(contributor).toString('hex'), { contributor, amount: c.amount, state: CONTRIBUTION_STATES[c.state] ?? 'open' });
      }
    });
  }

  get(address: Uint8Array): PresaleRecord | undefined {
    return this.presales.get(Buffer.from(address).toString('hex'));
  }

  /** Every presale, newest (highest id) first. */
  all(): PresaleRecord[] {
    return [...this.presales.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  /** The contributions to a presale, largest first (ties by address). */
  contributionsOf(address: Uint8Array): ContributionRecord[] {
    const m = this.contributions.get(Buffer.from(address).toString('hex'));
    if (!m) return [];
    return [...m.values()].sort((a, b) => (a.amount < b.amount ? 1 : a.amount > b.amount ? -1 : Buffer.compare(a.contributor, b.contributor)));
  }

  contribution(address: Uint8Array, contributor: Uint8Array): ContributionRecord | undefined {
    return this.contributions.get(Buffer.from(address).toString('hex'))?.get(Buffer.from(contributor).toString('hex'));
  }
}
