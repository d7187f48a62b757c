import type { Certificate } from './votes.js';

/**
 * Vote participation for the reputation factor of spec §2.4 ("vote participation"): the share of
 * the last `window` finality certificates that carry a validator's vote, read from this node's
 * stored certificates. Votes are consensus messages, not chain state, so this is what this node
 * has seen; every node that stores the same certified blocks computes the same shares
 * (docs/staking.md "Reputation"). Counted once per head and shared by every validator asked about.
 */
export class VoteParticipation {
  private cached: { head: number; shares: Map<string, number>; blocks: number } | undefined;

  constructor(
    private readonly certificate: (height: number) => Promise<Certificate | undefined>,
    private readonly window = 100,
  ) {}

  /** Consensus key (hex) → share of the window's certified blocks it voted for; `blocks` = how many there were. */
  async at(head: number): Promise<{ shares: Map<string, number>; blocks: number }> {
    if (this.cached?.head === head) return this.cached;
    const from = Math.max(1, head - this.window + 1);
    const certificates = await Promise.all(Array.from({ length: Math.max(0, head - from + 1) }, (_, i) => this.certificate(from + i)));
    const votes = new Map<string, number>();
    let blocks = 0;
    for (const c of certificates) {
      if (!c) continue;
      blocks++;
      for (const v of new Set(c.votes.map((x) => Buffer.from(x.validator).toString('hex')))) votes.set(v, (votes.get(v) ?? 0) + 1);
    }
    const shares = new Map([...votes].map(([k, n]) => [k, n / blocks]));
    this.cached = { head, shares, blocks };
    return this.cached;
  }
}
