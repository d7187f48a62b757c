import { headerSigningBytes, type BlockHeader } from '../chain/block.js';
import { keyId } from './votes.js';

/**
 * Two different headers signed by one consensus key at one height: the evidence a
 * ReportDoubleSign operation carries (discriminant 36; docs/consensus.md "Double-sign
 * evidence"). Headers travel as their canonical binary form (`headerSigningBytes`, decoded by
 * `decodeHeaderBytes`), whose Blake3 is the block hash the signature covers.
 */
export interface DoubleSignEvidence {
  validator: Uint8Array;
  height: number;
  headerA: Uint8Array;
  sigA: Uint8Array;
  headerB: Uint8Array;
  sigB: Uint8Array;
}

/**
 * Remembers the first signed header of each (height, proposer key) seen, from gossip or the node's
 * own store, and returns evidence when a second, different one arrives. The caller has verified
 * the signature of every header it passes in (an unsigned conflict proves nothing). One report per
 * (validator, height): the core records one offence per pair anyway.
 */
export class DoubleSignDetector {
  private readonly first = new Map<string, BlockHeader>();
  private readonly reported = new Set<string>();

  /** Keeps `keepHeights` heights below the newest seen. */
  constructor(private readonly keepHeights = 64) {}

  observe(header: BlockHeader): DoubleSignEvidence | undefined {
    const id = `${header.height}:${keyId(header.proposerPubkey)}`;
    const earlier = this.first.get(id);
    if (!earlier) {
      this.first.set(id, header);
      this.prune(header.height);
      return undefined;
    }
    if (Buffer.compare(earlier.hash, header.hash) === 0 || this.reported.has(id)) return undefined;
    this.reported.add(id);
    return {
      validator: header.proposerPubkey, height: header.height,
      headerA: headerSigningBytes(earlier), sigA: earlier.signature,
      headerB: headerSigningBytes(header), sigB: header.signature,
    };
  }

  private prune(newest: number): void {
    if (this.first.size < this.keepHeights * 4) return;
    for (const [id, h] of this.first) if (h.height + this.keepHeights < newest) this.first.delete(id);
    for (const id of this.reported) if (Number(id.split(':')[0]) + this.keepHeights < newest) this.reported.delete(id);
  }
}
