/**
 * What the rest of the node sees of the peer-to-peer layer. This file imports nothing from libp2p,
 * so the RPC layer can depend on it (STYLE.md: rpc never imports libp2p).
 */

/** The gossip topics (issue 5: bundles, blocks and votes). */
export type GossipTopic = 'bundles' | 'blocks' | 'votes';

/** A gossip validator's verdict: accept delivers and forwards, ignore drops, reject drops and penalizes. */
export type GossipVerdict = 'accept' | 'ignore' | 'reject';

export interface PeerInfo {
  /** libp2p peer id (base58) */
  id: string;
  /** the remote address of the open connection */
  address: string;
  direction: 'inbound' | 'outbound';
  /** head height from the status handshake or later gossip; undefined before the handshake */
  height: number | undefined;
  /** head hash (hex) from the status handshake */
  headHash: string | undefined;
  /** the validator key (hex) the peer proved to hold, if any */
  validatorKey: string | undefined;
  /** our score of the peer; it is disconnected and banned below the threshold */
  score: number;
}

/** One block as served by `/ntv/blocks/1`: the stored block and its finality certificate. */
export interface ServedBlock {
  height: number;
  block: Uint8Array;
  /** encoded finality certificate; empty when the server holds none */
  certificate: Uint8Array;
}

/** The read-only view the RPC methods use (svc_validatorHealth, svc_getNetworkStats). */
export interface NetworkView {
  readonly peerId: string;
  multiaddrs(): string[];
  connectedPeers(): PeerInfo[];
  bestPeerHeight(): number | undefined;
}

export interface SyncView {
  /** true while catching up (spec §6.2: subscriptions paused) */
  syncing: boolean;
  currentHeight: number;
  highestHeight: number | undefined;
  startingHeight: number;
  blocksImported: number;
}

export interface DragonflyView {
  enabled: boolean;
  sealType: string;
  forwarded: number;
  /** forwarded straight to the upcoming leader over /ntv/forward/1 (the rest by gossip) */
  direct: number;
  received: number;
  rejected: number;
}

/** What svc_validatorHealth, svc_getDragonflyStats and svc_getNetworkStats read (src/node.ts builds it). */
export interface P2PView extends NetworkView {
  sync(): SyncView;
  dragonfly(): DragonflyView;
}
