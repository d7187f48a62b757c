import type { ChainStore } from '../storage/chain-store.js';

/** Spec §1.11 and §8: at most 100 NTV per address per hour, testnet only. */
export const FAUCET_AMOUNT_NTV = 100n;
export const FAUCET_WINDOW_SECONDS = 3600;

/**
 * When each address last drew from the faucet. Node-local policy, not consensus state: kept in the
 * store's local records so that a restart does not reset the hourly limit.
 */
export class FaucetLedger {
  private readonly last = new Map<string, number>();

  constructor(private readonly store: ChainStore) {}

  /**
   * Reserve a draw for `address` at `now`, or say how many seconds remain until it may draw. The
   * check and the reservation happen in one synchronous step, so concurrent calls cannot both pass.
   */
  async tryReserve(address: string, now: number): Promise<{ waitSeconds: number; previous: number }> {
    if (!this.last.has(address)) {
      const stored = await this.store.getLocal(`faucet:${address}`);
      if (!this.last.has(address)) this.last.set(address, stored ? Number(Buffer.from(stored).toString()) : 0);
    }
    const previous = this.last.get(address)!;
    const waitSeconds = previous === 0 ? 0 : Math.max(0, previous + FAUCET_WINDOW_SECONDS - now);
    if (waitSeconds === 0) this.last.set(address, now);
    return { waitSeconds, previous };
  }

  /** Undo a reservation whose transfer did not happen. */
  release(address: string, previous: number): void {
    this.last.set(address, previous);
  }

  async persist(address: string, now: number): Promise<void> {
    await this.store.putLocal(`faucet:${address}`, Buffer.from(String(now)));
  }
}
