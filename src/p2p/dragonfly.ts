import { bundleHash } from '../codec/bundle.js';
import { BorshReader, BorshWriter } from '../codec/borsh.js';
import { blake3, bytesEqual, toHex } from '../codec/hash.js';
import { signEd25519, verifyEd25519 } from '../codec/keys.js';
import type { ChainNode } from '../chain/interface.js';
import { ChainError } from '../chain/errors.js';
import type { PendingBundle } from '../chain/mempool.js';
import type { Logger } from '../logger.js';
import type { P2PNetwork } from './network.js';
import type { GossipVerdict } from './types.js';

/**
 * Bundle forwarding, "Dragonfly" (issue 5; facts.md "Consensus details seen"): a bundle admitted by
 * this node's submission gate goes to the upcoming leader with a seal
 * Blake3(tx_hash ‖ height u64 LE ‖ validator_pubkey) signed by this node's validator key. The
 * receiver checks the seal and admits the bundle through its own submission gate (signature,
 * nonce and expiry checked again). It goes straight to the leader over `/ntv/forward/1` when the
 * leader is a connected peer that proved its key in the status handshake; otherwise, or when that
 * send fails, it travels by gossip on the `bundles` topic (docs/p2p.md "Forwarding").
 */

export const SEAL_TYPE = 'ed25519-blake3';
/** A seal names the height it was made for; one this far from ours is stale or from the future. */
const SEAL_HEIGHT_WINDOW = 1_000;
const SEEN_LIMIT = 100_000;
/** Bundles this node admitted and still watches until a block includes them (oldest dropped beyond). */
const OWN_LIMIT = 50_000;
/** At most this many re-forwards per new head: a backlog reaches each new leader over a few blocks. */
const REFORWARD_PER_BLOCK = 2_000;

export interface ForwardedBundle {
  bundle: Uint8Array;
  height: number;
  validator: Uint8Array;
  signature: Uint8Array;
}

export function sealHash(txHash: Uint8Array, height: number, validatorPubkey: Uint8Array): Uint8Array {
  const out = new Uint8Array(32 + 8 + 32);
  out.set(txHash, 0);
  new DataView(out.buffer).setBigUint64(32, BigInt(height), true);
  out.set(validatorPubkey, 40);
  return blake3(out);
}

export function sealBundle(bundle: Uint8Array, height: number, key: { seed: Uint8Array; publicKey: Uint8Array }): ForwardedBundle {
  return { bundle, height, validator: key.publicKey, signature: signEd25519(key.seed, sealHash(bundleHash(bundle), height, key.publicKey)) };
}

export function verifySeal(f: ForwardedBundle): boolean {
  return verifyEd25519(f.validator, sealHash(bundleHash(f.bundle), f.height, f.validator), f.signature);
}

/** Borsh: bundle Vec<u8>, height u64, validator_pubkey [u8;32], seal_signature [u8;64]. */
export function encodeForwarded(f: ForwardedBundle): Uint8Array {
  return new BorshWriter(f.bundle.length + 112)
    .vecBytes(f.bundle, 'bundle').u64(BigInt(f.height), 'height').fixedBytes(f.validator, 32, 'validator_pubkey')
    .fixedBytes(f.signature, 64, 'seal_signature').finish();
}

export function decodeForwarded(bytes: Uint8Array): ForwardedBundle {
  const r = new BorshReader(bytes);
  const bundle = r.vecBytes('bundle', bytes.length);
  const height = r.u64('height');
  const validator = r.fixedBytes(32, 'validator_pubkey');
  const signature = r.fixedBytes(64, 'seal_signature');
  r.end('forwarded_bundle');
  if (height > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('height out of range');
  return { bundle, height: Number(height), validator, signature };
}

export interface DragonflyStats {
  enabled: boolean;
  sealType: string;
  /** bundles this node admitted and forwarded */
  forwarded: number;
  /** of those, sent straight to the upcoming leader (the rest went by gossip) */
  direct: number;
  /** forwarded bundles from peers that passed the seal check and this node's submission gate */
  received: number;
  /** forwarded bundles refused: bad seal, or refused by the submission gate */
  rejected: number;
}

export class Dragonfly {
  private readonly stats = { forwarded: 0, direct: 0, received: 0, rejected: 0 };
  /** bundle hashes that came from peers: not forwarded again (gossip already spreads them) */
  private readonly fromPeers = new Set<string>();
  /**
   * Bundles this node admitted and sent straight to a leader, with the leaders (hex keys) that hold
   * them: while one stays pending, each new head's leader that does not hold it gets it (reforward).
   */
  private readonly own = new Map<string, { bytes: Uint8Array; holders: Set<string> }>();

  constructor(
    private readonly deps: {
      chain: ChainNode;
      network: P2PNetwork;
      validatorKey: { seed: Uint8Array; publicKey: Uint8Array };
      logger: Logger;
      /** the consensus key expected to propose `height`, when the consensus layer knows it */
      leaderOf?: (height: number) => Uint8Array | undefined;
    },
  ) {}

  start(): void {
    this.deps.chain.on('admitted', (entry) => this.forward(entry));
    this.deps.chain.on('block', () => this.reforward());
    this.deps.network.validate('bundles', (data, from) => this.receive(data, from));
    this.deps.network.onForwarded((data, from) => this.receive(data, from));
  }

  snapshot(): DragonflyStats {
    return { enabled: true, sealType: SEAL_TYPE, ...this.stats };
  }

  /** A bundle our gate admitted: seal it for the next height and send it towards its leader. */
  private forward(entry: PendingBundle): void {
    if (this.fromPeers.has(entry.hashKey)) return;
    const { chain, network, validatorKey, leaderOf } = this.deps;
    // No peer, nothing to forward to (a solo node): known before the leader is looked up.
    if (network.readyPeers().length === 0) return;
    const height = chain.executionParent.height + 1;
    const leader = leaderOf?.(height);
    const direct = leader ? network.peerOfValidator(leader) : undefined;
    const mine = leader !== undefined && bytesEqual(leader, validatorKey.publicKey);
    if (leader && (mine || direct !== undefined)) {
      // Held by this node and one leader: watched until included (a bundle that goes by gossip
      // below reaches every peer, the next leaders too). The bytes are the mempool's own.
      if (this.own.size >= OWN_LIMIT) this.own.delete(this.own.keys().next().value!);
      this.own.set(entry.hashKey, { bytes: entry.bytes, holders: new Set([toHex(validatorKey.publicKey), toHex(leader)]) });
    }
    // The leader includes what it admits itself; forwarding is for everyone else.
    if (mine) return;
    this.send(entry.hashKey, entry.bytes, height, direct);
  }

  /**
   * A new head: the bundles this node admitted that are still pending go to the next height's
   * leader unless it holds them. A bundle sent straight to one leader is otherwise only in two
   * mempools: when that leader's turn passed before it arrived (or its round failed over), it waited
   * for one of the two to lead again — with 7 validators, a chaos run's transfer missed 12 blocks
   * in a row and its caller's 30 s inclusion wait (docs/p2p.md "Forwarding").
   */
  private reforward(): void {
    if (this.own.size === 0) return;
    const { chain, network, validatorKey, leaderOf } = this.deps;
    const height = chain.executionParent.height + 1;
    const leader = leaderOf?.(height);
    const peerReady = network.readyPeers().length > 0;
    const leaderHex = leader ? toHex(leader) : undefined;
    const direct = leader && peerReady && !bytesEqual(leader, validatorKey.publicKey) ? network.peerOfValidator(leader) : undefined;
    let sent = 0;
    for (const [hashKey, own] of this.own) {
      if (!chain.isPending(hashKey)) {
        this.own.delete(hashKey);
        continue;
      }
      // Only a connected leader that proved its key: the gossip fallback already reached every peer.
      if (direct === undefined || own.holders.has(leaderHex!) || sent >= REFORWARD_PER_BLOCK) continue;
      own.holders.add(leaderHex!);
      sent++;
      this.send(hashKey, own.bytes, height, direct);
    }
  }

  /** Seal for `height` and send straight to the leader's peer `direct`, else (or when that fails) by gossip. */
  private send(hashKey: string, bytes: Uint8Array, height: number, direct: string | undefined): void {
    const message = encodeForwarded(sealBundle(bytes, height, this.deps.validatorKey));
    if (direct === undefined) return this.gossip(hashKey, message);
    this.deps.network.sendForwarded(direct, message).then((verdict) => {
      this.stats.forwarded++;
      this.stats.direct++;
      this.deps.logger.debug('bundle forwarded to the leader', { bundle: hashKey, leader: direct, verdict });
    }, (error: unknown) => {
      this.deps.logger.debug('direct forward failed, gossiping', { bundle: hashKey, leader: direct, error: String(error) });
      this.gossip(hashKey, message);
    });
  }

  /** The fallback: every peer gets it, and the leader among them. */
  private gossip(hashKey: string, message: Uint8Array): void {
    this.deps.network.publish('bundles', message).then(() => {
      this.stats.forwarded++;
    }, (error: unknown) => {
      this.deps.logger.debug('bundle forward failed', { bundle: hashKey, error: String(error) });
    });
  }

  /**
   * The `bundles` topic validator: a bad seal or a bundle the gate finds forged is rejected (the
   * peer is penalized); one we already hold, or that is merely late (nonce used, expired), is
   * ignored; an admitted one is accepted and gossip carries it on.
   */
  private async receive(data: Uint8Array, from: string): Promise<GossipVerdict> {
    const { chain, logger } = this.deps;
    let forwarded: ForwardedBundle;
    try {
      forwarded = decodeForwarded(data);
    } catch {
      this.stats.rejected++;
      return 'reject';
    }
    if (Math.abs(forwarded.height - chain.executionParent.height) > SEAL_HEIGHT_WINDOW || !verifySeal(forwarded)) {
      this.stats.rejected++;
      return 'reject';
    }
    const hashKey = toHex(bundleHash(forwarded.bundle));
    if (chain.isPending(hashKey)) return 'ignore';
    this.remember(hashKey);
    try {
      const { known, included } = await chain.enqueueBundle(forwarded.bundle);
      included.catch(() => undefined);
      if (known) return 'ignore';
      this.stats.received++;
      logger.debug('forwarded bundle admitted', { bundle: hashKey, from, sealer: toHex(forwarded.validator), height: forwarded.height });
      return 'accept';
    } catch (error) {
      const status = error instanceof ChainError ? (error.data as { status?: string }).status : undefined;
      if (status === 'BAD_SIGNATURE' || status === 'MALFORMED_BUNDLE' || status === 'UNSIGNED_NOT_ALLOWED') {
        this.stats.rejected++;
        return 'reject';
      }
      return 'ignore';
    }
  }

  private remember(hashKey: string): void {
    if (this.fromPeers.size >= SEEN_LIMIT) this.fromPeers.clear();
    this.fromPeers.add(hashKey);
  }
}
