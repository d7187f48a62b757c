import { decodeStoredBlock, type BlockHeader } from '../chain/block.js';
import { certifiedHeaderProblem } from '../chain/block-checks.js';
import type { ValidatorInfo } from '../chain/validator-set.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import type { Logger } from '../logger.js';
import { bestPeer } from '../p2p/sync.js';
import type { ServedBlock } from '../p2p/types.js';
import type { LightStore, StoredHeader } from './store.js';
import { ValidatorProofError, validatorSetProofHead, verifyValidatorSetProof, type ProvenValidatorSet } from '../chain/validator-set-proof.js';

/** What the follower uses of the p2p layer (P2PNetwork has these). */
export interface LightNetwork {
  readyPeers(): Array<{ id: string; height: number }>;
  requestHeaders(peer: string, fromHeight: number, count: number): Promise<ServedBlock[]>;
  requestValidatorSet(peer: string): Promise<Uint8Array | undefined>;
}

/** The set a header is checked against: the newest one proven, and the height it was proven at. */
export interface TrustedSet {
  height: number;
  validators: ValidatorInfo[];
  epochLength: number;
}

export class LightVerifyError extends Error {}

const BATCH = 10;
const PEER_COOLDOWN_MS = 5_000;

/**
 * Why `header` (with `certificate`) may not follow `parent`, or undefined when it may: the next
 * height, the parent's hash, the same chain, then `certifiedHeaderProblem` against `set`: the
 * header is taken only when validators holding more than 2/3 of the stake of a set this node
 * proved signed it (docs/operations.md "Light node": which set, and why that is sound).
 */
export function nextHeaderProblem(parent: BlockHeader, header: BlockHeader, certificate: Uint8Array, set: TrustedSet): string | undefined {
  if (header.height !== parent.height + 1) return `height ${header.height} does not follow ${parent.height}`;
  if (header.chainId !== parent.chainId) return `block of chain ${header.chainId}, this chain is ${parent.chainId}`;
  if (!bytesEqual(header.parentHash, parent.hash)) return `its parent hash ${toHex(header.parentHash)} is not block ${parent.height}'s ${toHex(parent.hash)}`;
  return certifiedHeaderProblem(header, certificate, set.validators, set.epochLength, `the validator set proven at height ${set.height}`);
}

/**
 * The `--light` node's sync (docs/operations.md "Light node"): headers with their certificates from
 * the best peer, in batches of 10 over `/ntv/headers/1` (blocks without their bundles), each checked by
 * `nextHeaderProblem` against the newest proven set; once at the peer's head, the set at that
 * head is asked over `/ntv/validators/1` and taken after its proofs verify against the state root
 * of a header verified that way. So the set a header is checked against is at most one batch old
 * while the node follows the head.
 */
export class LightFollower {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly cooldown = new Map<string, number>();
  /** counters for svc_validatorHealth */
  headersImported = 0;
  refused = 0;
  highestPeerHeight: number | undefined;

  constructor(
    private readonly deps: { network: LightNetwork; store: LightStore; logger: Logger },
    public head: BlockHeader,
    public set: TrustedSet,
    private readonly options: { idleMs?: number } = {},
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  /** A peer announced a new head: look now rather than at the next idle tick. */
  poke(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const peer = this.pickPeer();
      if (peer) this.highestPeerHeight = Math.max(this.highestPeerHeight ?? 0, peer.height);
      try {
        if (peer && peer.height > this.head.height) {
          await this.fetchHeaders(peer.id, Math.min(BATCH, peer.height - this.head.height));
          continue;
        }
        if (peer && this.set.height < this.head.height) await this.refreshSet(peer.id);
      } catch (error) {
        if (this.stopped) return;
        if (peer) this.cooldown.set(peer.id, Date.now() + PEER_COOLDOWN_MS);
        this.deps.logger.warn(error instanceof LightVerifyError ? 'header from peer refused' : 'light sync request failed', { peer: peer?.id, error: (error as Error).message });
      }
      await this.idle();
    }
  }

  /** The next `count` headers from `peer`, verified one by one and stored with the new head. */
  private async fetchHeaders(peer: string, count: number): Promise<void> {
    const served = await this.deps.network.requestHeaders(peer, this.head.height + 1, count);
    if (served.length === 0) throw new Error(`served nothing from ${this.head.height + 1}`);
    const accepted: StoredHeader[] = [];
    let parent = this.head;
    let refusal: string | undefined;
    for (const block of served) {
      let header: BlockHeader;
      try {
        header = decodeStoredBlock(block.block).header;
      } catch (error) {
        refusal = `block ${block.height} does not decode: ${(error as Error).message}`;
        break;
      }
      const problem = nextHeaderProblem(parent, header, block.certificate, this.set);
      if (problem !== undefined) {
        refusal = `block ${header.height}: ${problem}`;
        break;
      }
      accepted.push({ header, certificate: block.certificate });
      parent = header;
    }
    await this.deps.store.putHeaders(accepted);
    if (accepted.length > 0) {
      this.head = parent;
      this.headersImported += accepted.length;
    }
    if (refusal !== undefined) {
      this.refused++;
      throw new LightVerifyError(refusal);
    }
  }

  /**
   * The set at the peer's durable head, with proofs. Its height may be above ours (the peer moved
   * on): the headers up to it are fetched and verified first, then the proofs against that header.
   */
  private async refreshSet(peer: string): Promise<void> {
    const answer = await this.deps.network.requestValidatorSet(peer);
    if (!answer) throw new Error('the peer serves no validator set');
    let claimed: { height: number };
    try {
      claimed = validatorSetProofHead(answer);
    } catch (error) {
      throw new LightVerifyError(`the validator-set answer does not decode: ${(error as Error).message}`);
    }
    if (claimed.height <= this.set.height) return;
    while (this.head.height < claimed.height && !this.stopped) await this.fetchHeaders(peer, Math.min(BATCH, claimed.height - this.head.height));
    const stored = await this.deps.store.header(claimed.height);
    if (!stored) throw new Error(`no verified header at ${claimed.height}`);
    let proven: ProvenValidatorSet;
    try {
      proven = verifyValidatorSetProof(answer, stored.header);
    } catch (error) {
      if (error instanceof ValidatorProofError) {
        this.refused++;
        throw new LightVerifyError(error.message);
      }
      throw error;
    }
    await this.deps.store.putValidatorSetProof(answer);
    const changed = !sameSet(this.set.validators, proven.validators);
    this.set = { height: proven.height, validators: proven.validators, epochLength: proven.epochLength };
    if (changed) this.deps.logger.info('validator set changed', { height: proven.height, validators: proven.validators.filter((v) => v.active && !v.jailed).length });
  }

  private pickPeer(): { id: string; height: number } | undefined {
    return bestPeer(this.deps.network.readyPeers(), this.cooldown);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.idleMs ?? 250);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }
}

/** Same voting keys, stakes and standing: a set change worth a log line. */
function sameSet(a: ValidatorInfo[], b: ValidatorInfo[]): boolean {
  return a.length === b.length && a.every((v, i) => {
    const w = b[i]!;
    return bytesEqual(v.consensusKey, w.consensusKey) && v.stake === w.stake && v.active === w.active && v.jailed === w.jailed;
  });
}
