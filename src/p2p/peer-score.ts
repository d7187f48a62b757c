/**
 * Our own score of each peer, next to gossipsub's: the chain and consensus layers penalize a peer
 * for what only they can judge (a block whose state root differs, a bad certificate, a bundle with a
 * bad seal). Below the threshold the peer is disconnected and banned for a while (docs/p2p.md).
 */
export interface PeerScoreOptions {
  /** disconnect and ban at or below this score */
  threshold: number;
  /** how long a banned peer may not connect, in milliseconds */
  banMs: number;
  /** points a penalty takes when the caller names none */
  defaultPenalty: number;
  /** points recovered per minute, so old offences fade */
  recoveryPerMinute: number;
}

export const DEFAULT_PEER_SCORE: PeerScoreOptions = { threshold: -100, banMs: 10 * 60_000, defaultPenalty: 25, recoveryPerMinute: 5 };

export class PeerScores {
  private readonly scores = new Map<string, { score: number; at: number }>();
  private readonly bans = new Map<string, number>();

  constructor(private readonly options: PeerScoreOptions = DEFAULT_PEER_SCORE) {}

  score(peer: string, now = Date.now()): number {
    const entry = this.scores.get(peer);
    if (!entry) return 0;
    // Whole points only: penalties that arrive together add up exactly, so four of 25 reach a
    // threshold of -100 however many milliseconds apart they land.
    const recovered = Math.floor(((now - entry.at) * this.options.recoveryPerMinute) / 60_000);
    return Math.min(0, entry.score + recovered);
  }

  /** Lower the score; true when the peer fell to the threshold and is now banned. */
  penalize(peer: string, points = this.options.defaultPenalty, now = Date.now()): boolean {
    const score = this.score(peer, now) - Math.abs(points);
    this.scores.set(peer, { score, at: now });
    if (score > this.options.threshold) return false;
    this.bans.set(peer, now + this.options.banMs);
    this.scores.delete(peer);
    return true;
  }

  isBanned(peer: string, now = Date.now()): boolean {
    const until = this.bans.get(peer);
    if (until === undefined) return false;
    if (until > now) return true;
    this.bans.delete(peer);
    return false;
  }

  bannedCount(now = Date.now()): number {
    let n = 0;
    for (const peer of [...this.bans.keys()]) if (this.isBanned(peer, now)) n++;
    return n;
  }
}
