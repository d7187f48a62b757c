import { EventEmitter } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLibp2p, type Libp2p } from 'libp2p';
import { quic } from '@chainsafe/libp2p-quic';
import { identify, type Identify } from '@libp2p/identify';
import { gossipsub, TopicValidatorResult, type GossipSub, type GossipsubMessage } from '@libp2p/gossipsub';
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { peerIdFromString } from '@libp2p/peer-id';
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr';
import type { Connection, PeerId, PrivateKey, Stream } from '@libp2p/interface';
import { BorshReader, BorshWriter } from '../codec/borsh.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import type { Logger } from '../logger.js';
import { readFrames, sendFrames } from './frames.js';
import { DEFAULT_PEER_SCORE, PeerScores, type PeerScoreOptions } from './peer-score.js';
import { decodeStatus, encodeStatus, signValidatorProof, verifyValidatorProof, type StatusMessage } from './status.js';
import type { GossipTopic, GossipVerdict, NetworkView, PeerInfo, ServedBlock } from './types.js';

export type { GossipTopic, GossipVerdict, PeerInfo, ServedBlock } from './types.js';

export interface P2PNetworkOptions {
  dataDir: string;
  /** spec §1.8 / §4.20 --p2p-port (UDP, QUIC); 0 picks a free port */
  listenPort: number;
  /** address to bind; 0.0.0.0 by default (spec §5.11: the P2P port must be open to all peers) */
  host?: string;
  /** spec §4.20 --bootnodes: `/ip4/<ip>/udp/<port>/quic-v1/p2p/<peer_id>` */
  bootnodes: string[];
  /** spec §4.20 --external-addr: the multiaddr announced to peers */
  externalAddr?: string;
  genesisHash: Uint8Array;
  chainId: number;
  /** the node's validator key; when present the handshake proves it holds it */
  validatorKey?: { seed: Uint8Array; publicKey: Uint8Array };
  /** spec §4.20 --enforce-validator-allowlist */
  enforceValidatorAllowlist: boolean;
  logger: Logger;
  /** the head the status handshake announces; genesis (height 0) when absent */
  head?: () => { height: number; hash: Uint8Array };
  /** whether a consensus key is in the current validator set; needed by the allowlist */
  isValidator?: (publicKey: Uint8Array) => boolean;
  score?: Partial<PeerScoreOptions>;
  /** how often each peer's status (head height) is asked again */
  statusIntervalMs?: number;
  requestTimeoutMs?: number;
}

export type GossipHandler = (data: Uint8Array, from: string) => void | Promise<void>;
export type GossipValidator = (data: Uint8Array, from: string) => GossipVerdict | Promise<GossipVerdict>;
export type BlockServer = (fromHeight: number, count: number) => Promise<Array<{ block: Uint8Array; certificate: Uint8Array }>>;
/** What `/ntv/validators/1` answers: the validator-set records with proofs against the durable head's state root. */
export type ValidatorSetServer = () => Uint8Array | undefined;
/** What `/ntv/epochs/1` answers: encoded epoch records from the first boundary at or above `fromHeight`. */
export type EpochRecordServer = (fromHeight: number, count: number) => Promise<Uint8Array[]>;

export interface NetworkEvents {
  /** a peer's status arrived (handshake or refresh) */
  status: [peer: string, height: number];
  'peer:disconnect': [peer: string];
}

export const STATUS_PROTOCOL = '/ntv/status/1';
export const BLOCKS_PROTOCOL = '/ntv/blocks/1';
/** A sealed bundle sent straight to the upcoming leader (docs/p2p.md "Forwarding"). */
export const FORWARD_PROTOCOL = '/ntv/forward/1';
/**
 * The validator set at the server's durable head, proven against that head's state root
 * (docs/p2p.md "Validator-set proofs"): what a `--light` node checks certificates with.
 */
export const VALIDATORS_PROTOCOL = '/ntv/validators/1';
/**
 * Epoch records (src/chain/epoch-record.ts; docs/light-client.md "Epoch records"): a boundary
 * block's header, certificate and validator-set proof, what a `--light --checkpoint` node walks
 * from epoch to epoch. Request: Borsh { from_height u64, count u8 }; answer: one frame per record,
 * the boundaries from the first at or above from_height, consecutive, at most count.
 */
export const EPOCHS_PROTOCOL = '/ntv/epochs/1';
/** records per `/ntv/epochs/1` request at most */
export const MAX_EPOCH_RECORDS_PER_P2P_REQUEST = 16;
/** `/ntv/blocks/1` without the bundles: what a `--light` node follows (docs/p2p.md "Header requests"). */
export const HEADERS_PROTOCOL = '/ntv/headers/1';
/** an answer: ≤ 100 active validators of a few hundred records, each proof ~1 KB plus its value */
const MAX_VALIDATORS_FRAME_BYTES = 4 * 1024 * 1024;
/** The receiver's verdict on a forwarded bundle, one byte back on the stream. */
const VERDICTS: readonly GossipVerdict[] = ['accept', 'ignore', 'reject'];
/** spec §4.20: peer sync requests blocks in batches of 10 */
export const MAX_BLOCKS_PER_REQUEST = 10;

/**
 * Largest gossip message per topic. A bundle is at most a few ML-DSA-65 signatures; a block of
 * 10,000 bundles (the --max-txs-per-block default) is a few MiB with Ed25519 and ~34 MiB if every
 * bundle carried an ML-DSA-65 signature; a vote is a key and a signature.
 */
const TOPIC_LIMITS: Record<GossipTopic, number> = { bundles: 256 * 1024, blocks: 48 * 1024 * 1024, votes: 4 * 1024 };
/** a served block frame: the block plus its certificate (votes of up to the 100 active validators) */
const MAX_BLOCK_FRAME_BYTES = 48 * 1024 * 1024 + 64 * 1024;
const MAX_STATUS_BYTES = 1024;
const KEY_FILE = 'p2p.key';
const TOPICS: GossipTopic[] = ['bundles', 'blocks', 'votes'];
const BOOTNODE_BACKOFF_MS = { initial: 500, max: 30_000 };
const PENALTY = { badStatus: 100, genesisMismatch: 100, oversize: 50, badResponse: 50 } as const;

interface PeerState {
  status?: StatusMessage;
  /** the validator key whose proof verified for this peer id */
  validatorKey?: Uint8Array;
  /** best height known: the handshake's, raised by later gossip */
  height?: number;
}

interface Bootnode {
  address: Multiaddr;
  peer: PeerId;
  attempt: number;
  nextAt: number;
  dialing: boolean;
}

type Services = { identify: Identify; pubsub: GossipSub };

/**
 * The QUIC socket could not be bound because the port is taken: the start fails with it, and the
 * node's start turns it into the operator's message naming the flag (src/node.ts `listenFailure`).
 */
export class ListenError extends Error {
  readonly code = 'EADDRINUSE';

  constructor(readonly host: string, readonly port: number, cause: string) {
    super(`UDP ${host}:${port}: ${cause}`);
    this.name = 'ListenError';
  }
}

/**
 * The libp2p transport (issue 5; docs/p2p.md): QUIC on --p2p-port, a persisted Ed25519 identity,
 * the `/ntv/status/1` handshake, gossipsub topics for bundles, blocks and votes with validation
 * hooks, our own peer scores, and `/ntv/blocks/1` for sync batches.
 */
export class P2PNetwork extends EventEmitter<NetworkEvents> implements NetworkView {
  private readonly peers = new Map<string, PeerState>();
  private readonly handlers = new Map<GossipTopic, GossipHandler[]>();
  private readonly validators = new Map<GossipTopic, GossipValidator>();
  private readonly scores: PeerScores;
  private readonly bootnodes: Bootnode[];
  private readonly topicNames: Record<GossipTopic, string>;
  private blockServer: BlockServer | undefined;
  private validatorSetServer: ValidatorSetServer | undefined;
  private headerServer: BlockServer | undefined;
  private epochRecordServer: EpochRecordServer | undefined;
  private forwardHandler: ((data: Uint8Array, from: string) => Promise<GossipVerdict>) | undefined;
  private maintenance: NodeJS.Timeout | undefined;
  private lastStatusRound = 0;
  private stopped = false;
  private started = false;
  /** counters for svc_* methods and tests */
  readonly counters = { gossipReceived: 0, gossipRejected: 0, gossipIgnored: 0, blocksServed: 0, refusedPeers: 0, gossipRepairs: 0 };

  private constructor(
    private readonly options: P2PNetworkOptions,
    private readonly node: Libp2p<Services>,
  ) {
    super();
    this.scores = new PeerScores({ ...DEFAULT_PEER_SCORE, ...options.score });
    this.bootnodes = options.bootnodes.map(parseBootnode);
    // Topics carry the genesis so two networks never share a mesh even through a shared peer.
    const network = `${options.chainId}-${toHex(options.genesisHash).slice(0, 16)}`;
    this.topicNames = { bundles: `/ntv/${network}/bundles/1`, blocks: `/ntv/${network}/blocks/1`, votes: `/ntv/${network}/votes/1` };
  }

  static async create(options: P2PNetworkOptions): Promise<P2PNetwork> {
    const privateKey = await loadPeerKey(options.dataDir);
    const host = options.host ?? '0.0.0.0';
    let scores: PeerScores | undefined;
    const banned = (peer: PeerId) => scores?.isBanned(peer.toString()) ?? false;
    const node = await createLibp2p<Services>({
      privateKey,
      start: false,
      addresses: {
        listen: [`/ip4/${host}/udp/${options.listenPort}/quic-v1`],
        ...(options.externalAddr ? { announce: [options.externalAddr] } : {}),
      },
      // The node listens on /ip4/<--p2p-host> only and bootnodes are /ip4/ (spec §4.20), so no IPv6
      // dial socket: the native QUIC client binds [::] on a random port whatever --p2p-host says
      // (hardening issue item 7). The IPv4 dial socket opens at the first dial (patches/
      // @chainsafe+libp2p-quic: lazy clients); it too binds 0.0.0.0, see docs/p2p.md "Sockets".
      transports: [quic({ ipv6: false })],
      connectionGater: {
        denyDialPeer: banned,
        denyInboundEncryptedConnection: banned,
      },
      services: {
        identify: identify(),
        pubsub: gossipsub({
          emitSelf: false,
          allowPublishToZeroTopicPeers: true,
          ignoreDuplicatePublishError: true,
          maxInboundDataLength: MAX_BLOCK_FRAME_BYTES,
          // our validators decide; gossipsub's own score still counts their rejections
          asyncValidation: false,
        }),
      },
    });
    const network = new P2PNetwork(options, node);
    scores = network.scores;
    return network;
  }

  get peerId(): string {
    return this.node.peerId.toString();
  }

  /** Listen, subscribe to the topics and dial the bootnodes. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.node.handle(STATUS_PROTOCOL, (stream, connection) => this.serveStatus(stream, connection));
    await this.node.handle(BLOCKS_PROTOCOL, (stream, connection) => this.serveBlocks(stream, connection, this.blockServer, 'blocks'));
    await this.node.handle(HEADERS_PROTOCOL, (stream, connection) => this.serveBlocks(stream, connection, this.headerServer, 'headers'));
    await this.node.handle(FORWARD_PROTOCOL, (stream, connection) => this.serveForward(stream, connection));
    await this.node.handle(VALIDATORS_PROTOCOL, (stream, connection) => this.serveValidatorSet(stream, connection));
    await this.node.handle(EPOCHS_PROTOCOL, (stream, connection) => this.serveEpochRecords(stream, connection));
    this.node.addEventListener('connection:open', (event) => {
      const connection = event.detail;
      // The dialling side starts the handshake; the listening side answers it (serveStatus).
      if (connection.direction === 'outbound') void this.handshake(connection.remotePeer);
    });
    this.node.addEventListener('peer:disconnect', (event) => {
      const id = event.detail.toString();
      this.peers.delete(id);
      this.emit('peer:disconnect', id);
      for (const boot of this.bootnodes) if (boot.peer.equals(event.detail)) boot.nextAt = Date.now() + BOOTNODE_BACKOFF_MS.initial;
    });
    try {
      await this.node.start();
    } catch (error) {
      // libp2p names the address and the OS error inside a longer text; the node's start needs to
      // know it was the port, to name the flag.
      const message = (error as Error).message;
      if (/address already in use|EADDRINUSE/i.test(message)) throw new ListenError(this.options.host ?? '0.0.0.0', this.options.listenPort, message);
      throw error;
    }
    const pubsub = this.node.services.pubsub;
    for (const topic of TOPICS) {
      pubsub.topicValidators.set(this.topicNames[topic], (peer, message) =>
        this.validateGossip(topic, peer, message.type === 'signed' ? message.from.toString() : undefined, message.data));
      pubsub.subscribe(this.topicNames[topic]);
    }
    pubsub.addEventListener('gossipsub:message', (event) => this.deliver(event.detail));
    this.maintenance = setInterval(() => this.maintain(), 250);
    this.maintain();
    this.options.logger.info('p2p started', { peerId: this.peerId, addresses: this.multiaddrs() });
  }

  /** Close every connection and the socket; safe to call twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.maintenance) clearInterval(this.maintenance);
    await this.node.stop();
    this.peers.clear();
  }

  multiaddrs(): string[] {
    return this.node.getMultiaddrs().map((a) => a.toString());
  }

  // ---- gossip --------------------------------------------------------------------------------

  /** Publish to a topic; resolves with how many peers it was sent to. */
  async publish(topic: GossipTopic, data: Uint8Array): Promise<number> {
    if (data.length > TOPIC_LIMITS[topic]) throw new Error(`${topic} message of ${data.length} bytes exceeds the limit of ${TOPIC_LIMITS[topic]}`);
    const result = await this.node.services.pubsub.publish(this.topicNames[topic], data);
    return result.recipients.length;
  }

  /** Receive every accepted message of a topic; `from` is the peer that passed it to us. */
  override on<K extends keyof NetworkEvents>(event: K, listener: (...args: NetworkEvents[K]) => void): this;
  override on(topic: GossipTopic, handler: GossipHandler): this;
  override on(name: string, handler: (...args: never[]) => unknown): this {
    if ((TOPICS as string[]).includes(name)) {
      const topic = name as GossipTopic;
      this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler as GossipHandler]);
      return this;
    }
    return super.on(name as keyof NetworkEvents, handler as never);
  }

  /**
   * The chain or consensus layer's check of a topic's messages, run before delivery and before
   * gossipsub forwards them: `reject` drops the message and penalizes the peer that sent it.
   */
  validate(topic: GossipTopic, validator: GossipValidator): void {
    this.validators.set(topic, validator);
  }

  private async validateGossip(topic: GossipTopic, peer: PeerId, author: string | undefined, data: Uint8Array): Promise<TopicValidatorResult> {
    const from = peer.toString();
    const verdict = await this.judgeGossip(topic, from, author, data);
    if (verdict === 'reject') this.counters.gossipRejected++;
    if (verdict === 'ignore') this.counters.gossipIgnored++;
    return verdict === 'accept' ? TopicValidatorResult.Accept : verdict === 'reject' ? TopicValidatorResult.Reject : TopicValidatorResult.Ignore;
  }

  private async judgeGossip(topic: GossipTopic, from: string, author: string | undefined, data: Uint8Array): Promise<GossipVerdict> {
    if (this.scores.isBanned(from)) return 'reject';
    const state = this.peers.get(from);
    // Nothing is taken from a peer before its handshake showed it is on our chain.
    if (!state?.status) return 'ignore';
    if (data.length > TOPIC_LIMITS[topic]) {
      this.penalize(from, `oversized ${topic} message (${data.length} bytes)`, PENALTY.oversize);
      return 'reject';
    }
    // spec §4.20 --enforce-validator-allowlist: only blocks and votes authored (gossipsub's signed
    // `from`) by a peer whose handshake proved a key of the current validator set are taken, so a
    // non-validator's message does not get in by being relayed through a validator. Ignored rather
    // than rejected: the relaying peer may be honest (docs/p2p.md).
    if (this.options.enforceValidatorAllowlist && topic !== 'bundles' && (author === undefined || !this.isValidatorPeer(author))) return 'ignore';
    const validator = this.validators.get(topic);
    if (!validator) return 'accept';
    let verdict: GossipVerdict;
    try {
      verdict = await validator(data, from);
    } catch (error) {
      this.options.logger.debug('gossip validator threw; message rejected', { topic, from, error: String(error) });
      verdict = 'reject';
    }
    if (verdict === 'reject') this.penalize(from, `invalid ${topic} message`);
    return verdict;
  }

  private deliver(message: GossipsubMessage): void {
    const topic = TOPICS.find((t) => this.topicNames[t] === message.msg.topic);
    if (!topic) return;
    this.counters.gossipReceived++;
    const from = message.propagationSource.toString();
    for (const handler of this.handlers.get(topic) ?? []) {
      void (async () => handler(message.msg.data, from))().catch((error: unknown) => {
        this.options.logger.warn('gossip handler failed', { topic, from, error: String(error) });
      });
    }
  }

  // ---- peers ---------------------------------------------------------------------------------

  connectedPeers(): PeerInfo[] {
    const out: PeerInfo[] = [];
    for (const connection of this.node.getConnections()) {
      const id = connection.remotePeer.toString();
      if (out.some((p) => p.id === id)) continue;
      const state = this.peers.get(id);
      out.push({
        id,
        address: connection.remoteAddr.toString(),
        direction: connection.direction,
        height: state?.height,
        headHash: state?.status ? toHex(state.status.headHash) : undefined,
        validatorKey: state?.validatorKey ? toHex(state.validatorKey) : undefined,
        score: Math.round(this.scores.score(id) * 100) / 100,
      });
    }
    return out;
  }

  /** Peers whose handshake succeeded, with their best known height. */
  readyPeers(): Array<{ id: string; height: number }> {
    const out: Array<{ id: string; height: number }> = [];
    for (const [id, state] of this.peers) if (state.status && state.height !== undefined) out.push({ id, height: state.height });
    return out;
  }

  /** The highest head any handshaken peer announced (or showed by gossip since). */
  bestPeerHeight(): number | undefined {
    return this.bestPeer()?.height;
  }

  bestPeer(): { id: string; height: number } | undefined {
    let best: { id: string; height: number } | undefined;
    for (const peer of this.readyPeers()) if (!best || peer.height > best.height) best = peer;
    return best;
  }

  /** Raise a peer's known height (a block it gossiped shows it holds that height). */
  notePeerHeight(peer: string, height: number): void {
    const state = this.peers.get(peer);
    if (state?.status && (state.height === undefined || height > state.height)) state.height = height;
  }

  /** The validator key a peer proved in its handshake, if it is in the current set. */
  validatorKeyOf(peer: string): Uint8Array | undefined {
    const key = this.peers.get(peer)?.validatorKey;
    if (!key) return undefined;
    return !this.options.isValidator || this.options.isValidator(key) ? key : undefined;
  }

  /** A connected peer whose handshake proved this validator key. */
  peerOfValidator(publicKey: Uint8Array): string | undefined {
    for (const [id, state] of this.peers) if (state.validatorKey && bytesEqual(state.validatorKey, publicKey)) return id;
    return undefined;
  }

  isValidatorPeer(peer: string): boolean {
    const key = this.peers.get(peer)?.validatorKey;
    return key !== undefined && this.options.isValidator !== undefined && this.options.isValidator(key);
  }

  /**
   * Lower a peer's score for something the chain or consensus layer found wrong; at the threshold
   * the peer is disconnected and banned (the connection gater refuses it until the ban ends).
   */
  penalize(peer: string, reason: string, points?: number): void {
    const banned = this.scores.penalize(peer, points);
    this.options.logger.debug('peer penalized', { peer, reason, score: this.scores.score(peer), banned });
    if (!banned) return;
    this.options.logger.warn('peer banned', { peer, reason });
    this.peers.delete(peer);
    void this.node.hangUp(peerIdFromString(peer)).catch(() => undefined);
  }

  scoreOf(peer: string): number {
    return this.scores.score(peer);
  }

  isBanned(peer: string): boolean {
    return this.scores.isBanned(peer);
  }

  /** Dial a multiaddr now (tests and operators; bootnodes are dialled by the maintenance loop). */
  async dial(address: string): Promise<void> {
    await this.node.dial(multiaddr(address));
  }

  // ---- the status handshake ------------------------------------------------------------------

  private ourStatus(): StatusMessage {
    const head = this.options.head?.() ?? { height: 0, hash: this.options.genesisHash };
    const status: StatusMessage = { chainId: this.options.chainId, genesisHash: this.options.genesisHash, headHeight: head.height, headHash: head.hash };
    if (this.options.validatorKey) {
      status.validator = {
        publicKey: this.options.validatorKey.publicKey,
        signature: signValidatorProof(this.options.validatorKey.seed, this.options.genesisHash, this.node.peerId.toMultihash().bytes),
      };
    }
    return status;
  }

  /** Send our status, read theirs (the dialling side, and every status refresh). */
  private async handshake(peer: PeerId): Promise<void> {
    if (this.stopped) return;
    try {
      const frames = await this.exchange(peer, STATUS_PROTOCOL, [encodeStatus(this.ourStatus())], { maxFrameBytes: MAX_STATUS_BYTES, maxFrames: 1 });
      if (frames.length !== 1) throw new Error('no status in the answer');
      this.acceptStatus(peer, frames[0]!);
    } catch (error) {
      if (this.stopped) return;
      this.options.logger.debug('status exchange failed', { peer: peer.toString(), error: String(error) });
    }
  }

  private async serveStatus(stream: Stream, connection: Connection): Promise<void> {
    try {
      const frames = await withTimeout(readFrames(stream, { maxFrameBytes: MAX_STATUS_BYTES, maxFrames: 1 }), this.requestTimeout(), 'status request');
      // Answer first, so a peer on another genesis learns why we hang up.
      await sendFrames(stream, [encodeStatus(this.ourStatus())]);
      await stream.close();
      if (frames.length !== 1) throw new Error('no status in the request');
      this.acceptStatus(connection.remotePeer, frames[0]!);
    } catch (error) {
      stream.abort(error as Error);
      this.options.logger.debug('status request failed', { peer: connection.remotePeer.toString(), error: String(error) });
    }
  }

  /** Check a peer's status; a peer of another chain or genesis, or with a forged proof, is refused. */
  private acceptStatus(peer: PeerId, bytes: Uint8Array): void {
    const id = peer.toString();
    let status: StatusMessage;
    try {
      status = decodeStatus(bytes);
    } catch (error) {
      this.refuse(peer, `malformed status: ${(error as Error).message}`, PENALTY.badStatus);
      return;
    }
    if (status.chainId !== this.options.chainId || !bytesEqual(status.genesisHash, this.options.genesisHash)) {
      this.refuse(peer, `different network: chain ${status.chainId}, genesis ${toHex(status.genesisHash)}`, PENALTY.genesisMismatch);
      return;
    }
    let validatorKey: Uint8Array | undefined;
    if (status.validator) {
      if (!verifyValidatorProof(status.validator.publicKey, status.validator.signature, this.options.genesisHash, peer.toMultihash().bytes)) {
        this.refuse(peer, 'validator proof does not verify for this peer id', PENALTY.badStatus);
        return;
      }
      validatorKey = status.validator.publicKey;
    }
    const state = this.peers.get(id) ?? {};
    const first = state.status === undefined;
    state.status = status;
    state.validatorKey = validatorKey;
    state.height = Math.max(state.height ?? 0, status.headHeight);
    this.peers.set(id, state);
    if (first) this.options.logger.info('peer connected', { peer: id, height: status.headHeight, validator: validatorKey ? toHex(validatorKey) : undefined });
    this.emit('status', id, state.height);
  }

  private refuse(peer: PeerId, reason: string, points: number): void {
    this.counters.refusedPeers++;
    this.options.logger.warn('peer refused', { peer: peer.toString(), reason });
    this.peers.delete(peer.toString());
    this.penalize(peer.toString(), reason, points);
    void this.node.hangUp(peer).catch(() => undefined);
  }

  // ---- block requests ------------------------------------------------------------------------

  /** What `/ntv/blocks/1` serves: the stored blocks from `fromHeight`, at most `count`. */
  setBlockServer(server: BlockServer): void {
    this.blockServer = server;
  }

  /** What `/ntv/headers/1` serves: the same as blocks, each block's bundles left out. */
  setHeaderServer(server: BlockServer): void {
    this.headerServer = server;
  }

  /**
   * Ask a peer for up to 10 blocks from `fromHeight` (spec §4.20). The answer may be shorter (the
   * peer holds fewer); its heights must run on from `fromHeight`, or the peer is penalized.
   */
  async requestBlocks(peer: string, fromHeight: number, count: number, protocol: typeof BLOCKS_PROTOCOL | typeof HEADERS_PROTOCOL = BLOCKS_PROTOCOL): Promise<ServedBlock[]> {
    if (!Number.isInteger(count) || count < 1 || count > MAX_BLOCKS_PER_REQUEST) {
      throw new RangeError(`count must be 1..${MAX_BLOCKS_PER_REQUEST}, got ${count}`);
    }
    const request = new BorshWriter(16).u64(BigInt(fromHeight), 'from_height').u8(count, 'count').finish();
    let frames: Uint8Array[];
    try {
      frames = await this.exchange(peerIdFromString(peer), protocol, [request], { maxFrameBytes: MAX_BLOCK_FRAME_BYTES, maxFrames: count });
    } catch (error) {
      if (String(error).includes('exceeds the limit') || String(error).includes('more than')) this.penalize(peer, 'oversized blocks answer', PENALTY.badResponse);
      throw error;
    }
    const out: ServedBlock[] = [];
    for (const [i, bytes] of frames.entries()) {
      try {
        const r = new BorshReader(bytes);
        const height = Number(r.u64('height'));
        // Views: each frame is a fresh array of its own (frames.ts `take`), so the block need not
        // be copied out of it a second time (160 KB a full block).
        const block = r.vecBytesView('block', MAX_BLOCK_FRAME_BYTES);
        const certificate = r.vecBytesView('certificate', MAX_BLOCK_FRAME_BYTES);
        r.end('served_block');
        if (height !== fromHeight + i) throw new Error(`height ${height} where ${fromHeight + i} was due`);
        out.push({ height, block, certificate });
      } catch (error) {
        this.penalize(peer, `bad blocks answer: ${(error as Error).message}`, PENALTY.badResponse);
        throw error;
      }
    }
    return out;
  }

  /** Headers are asked only by light nodes: the same request and frames as blocks. */
  async requestHeaders(peer: string, fromHeight: number, count: number): Promise<ServedBlock[]> {
    return this.requestBlocks(peer, fromHeight, count, HEADERS_PROTOCOL);
  }

  private async serveBlocks(stream: Stream, connection: Connection, server: BlockServer | undefined, kind: 'blocks' | 'headers'): Promise<void> {
    try {
      const frames = await withTimeout(readFrames(stream, { maxFrameBytes: 64, maxFrames: 1 }), this.requestTimeout(), 'blocks request');
      if (frames.length !== 1) throw new Error('no request');
      const r = new BorshReader(frames[0]!);
      const fromHeight = Number(r.u64('from_height'));
      const count = r.u8('count');
      r.end('blocks_request');
      if (count < 1 || count > MAX_BLOCKS_PER_REQUEST) throw new Error(`count ${count} is outside 1..${MAX_BLOCKS_PER_REQUEST}`);
      const blocks = server ? await server(fromHeight, count) : [];
      const payloads = blocks.slice(0, count).map(({ block, certificate }, i) =>
        new BorshWriter(block.length + certificate.length + 16)
          .u64(BigInt(fromHeight + i), 'height').vecBytes(block, 'block').vecBytes(certificate, 'certificate').finish());
      await sendFrames(stream, payloads);
      await stream.close();
      this.counters.blocksServed += payloads.length;
    } catch (error) {
      stream.abort(error as Error);
      this.options.logger.debug(`${kind} request failed`, { peer: connection.remotePeer.toString(), error: String(error) });
    }
  }

  // ---- validator-set proofs -----------------------------------------------------------------

  /** What `/ntv/validators/1` serves (a full node: src/p2p/index.ts; a light node serves none). */
  setValidatorSetServer(server: ValidatorSetServer): void {
    this.validatorSetServer = server;
  }

  /**
   * Ask a peer for its validator set with proofs (one empty request frame, one answer frame, encoded
   * by src/chain/validator-set-proof.ts). The caller verifies it; undefined when the peer serves none.
   */
  async requestValidatorSet(peer: string): Promise<Uint8Array | undefined> {
    const frames = await this.exchange(peerIdFromString(peer), VALIDATORS_PROTOCOL, [new Uint8Array(0)], { maxFrameBytes: MAX_VALIDATORS_FRAME_BYTES, maxFrames: 1 });
    return frames[0];
  }

  private async serveValidatorSet(stream: Stream, connection: Connection): Promise<void> {
    try {
      const frames = await withTimeout(readFrames(stream, { maxFrameBytes: 0, maxFrames: 1 }), this.requestTimeout(), 'validator-set request');
      if (frames.length !== 1) throw new Error('no request');
      const answer = this.validatorSetServer?.();
      await sendFrames(stream, answer ? [answer] : []);
      await stream.close();
    } catch (error) {
      stream.abort(error as Error);
      this.options.logger.debug('validator-set request failed', { peer: connection.remotePeer.toString(), error: String(error) });
    }
  }

  // ---- epoch records ------------------------------------------------------------------------

  /** What `/ntv/epochs/1` serves (a full node: src/p2p/index.ts; a light node serves none). */
  setEpochRecordServer(server: EpochRecordServer): void {
    this.epochRecordServer = server;
  }

  /** Ask a peer for up to `count` epoch records from the first boundary at or above `fromHeight`; the caller verifies them. */
  async requestEpochRecords(peer: string, fromHeight: number, count: number): Promise<Uint8Array[]> {
    if (!Number.isInteger(count) || count < 1 || count > MAX_EPOCH_RECORDS_PER_P2P_REQUEST) {
      throw new RangeError(`count must be 1..${MAX_EPOCH_RECORDS_PER_P2P_REQUEST}, got ${count}`);
    }
    const request = new BorshWriter(16).u64(BigInt(fromHeight), 'from_height').u8(count, 'count').finish();
    return this.exchange(peerIdFromString(peer), EPOCHS_PROTOCOL, [request], { maxFrameBytes: MAX_VALIDATORS_FRAME_BYTES + 512 * 1024, maxFrames: count });
  }

  private async serveEpochRecords(stream: Stream, connection: Connection): Promise<void> {
    try {
      const frames = await withTimeout(readFrames(stream, { maxFrameBytes: 64, maxFrames: 1 }), this.requestTimeout(), 'epoch records request');
      if (frames.length !== 1) throw new Error('no request');
      const r = new BorshReader(frames[0]!);
      const fromHeight = Number(r.u64('from_height'));
      const count = r.u8('count');
      r.end('epochs_request');
      if (count < 1 || count > MAX_EPOCH_RECORDS_PER_P2P_REQUEST) throw new Error(`count ${count} is outside 1..${MAX_EPOCH_RECORDS_PER_P2P_REQUEST}`);
      const records = this.epochRecordServer ? await this.epochRecordServer(fromHeight, count) : [];
      await sendFrames(stream, records.slice(0, count));
      await stream.close();
    } catch (error) {
      stream.abort(error as Error);
      this.options.logger.debug('epoch records request failed', { peer: connection.remotePeer.toString(), error: String(error) });
    }
  }

  // ---- direct forwarding ---------------------------------------------------------------------

  /** What `/ntv/forward/1` does with a sealed bundle sent to this node (Dragonfly's receive). */
  onForwarded(handler: (data: Uint8Array, from: string) => Promise<GossipVerdict>): void {
    this.forwardHandler = handler;
  }

  /** Send a sealed bundle straight to one peer; resolves with the receiver's verdict. */
  async sendForwarded(peer: string, data: Uint8Array): Promise<GossipVerdict> {
    const [answer] = await this.exchange(peerIdFromString(peer), FORWARD_PROTOCOL, [data], { maxFrameBytes: 1, maxFrames: 1 });
    const verdict = answer?.length === 1 ? VERDICTS[answer[0]!] : undefined;
    if (!verdict) throw new Error(`${FORWARD_PROTOCOL}: no verdict from ${peer}`);
    return verdict;
  }

  private async serveForward(stream: Stream, connection: Connection): Promise<void> {
    const from = connection.remotePeer.toString();
    try {
      const frames = await withTimeout(readFrames(stream, { maxFrameBytes: TOPIC_LIMITS.bundles, maxFrames: 1 }), this.requestTimeout(), 'forwarded bundle');
      if (frames.length !== 1) throw new Error('no bundle in the request');
      // The same checks as a bundle from gossip: the seal, then this node's submission gate.
      const verdict = this.scores.isBanned(from) ? 'reject' : this.forwardHandler ? await this.forwardHandler(frames[0]!, from) : 'ignore';
      if (verdict === 'reject') this.penalize(from, 'invalid forwarded bundle');
      await sendFrames(stream, [Uint8Array.of(VERDICTS.indexOf(verdict))]);
      await stream.close();
    } catch (error) {
      stream.abort(error as Error);
      this.options.logger.debug('forwarded bundle failed', { peer: from, error: String(error) });
    }
  }

  // ---- plumbing ------------------------------------------------------------------------------

  /**
   * One request/response on a fresh stream: the reader is attached before our side closes
   * (DEPENDENCIES.md), and the whole exchange is bounded by the request timeout.
   */
  private async exchange(peer: PeerId, protocol: string, request: Uint8Array[], limits: { maxFrameBytes: number; maxFrames: number }): Promise<Uint8Array[]> {
    const signal = AbortSignal.timeout(this.requestTimeout());
    const stream = await this.node.dialProtocol(peer, protocol, { signal });
    const onAbort = () => stream.abort(new Error(`${protocol} to ${peer.toString()} timed out`));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const reading = readFrames(stream, limits);
      reading.catch(() => undefined);
      await sendFrames(stream, request, signal);
      await stream.close({ signal });
      return await reading;
    } catch (error) {
      stream.abort(error as Error);
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private requestTimeout(): number {
    return this.options.requestTimeoutMs ?? 30_000;
  }

  /** Every 250 ms: dial missing bootnodes (with backoff) and refresh peers' status now and then. */
  private maintain(): void {
    if (this.stopped) return;
    const now = Date.now();
    for (const boot of this.bootnodes) {
      if (boot.dialing || now < boot.nextAt || this.scores.isBanned(boot.peer.toString())) continue;
      if (this.node.getConnections(boot.peer).length > 0) continue;
      boot.dialing = true;
      this.node.dial(boot.address, { signal: AbortSignal.timeout(10_000) }).then(() => {
        boot.attempt = 0;
      }, (error: unknown) => {
        boot.attempt++;
        const delay = Math.min(BOOTNODE_BACKOFF_MS.max, BOOTNODE_BACKOFF_MS.initial * 2 ** Math.min(boot.attempt, 16));
        boot.nextAt = Date.now() + delay;
        this.options.logger.debug('bootnode dial failed', { address: boot.address.toString(), attempt: boot.attempt, retryMs: delay, error: String(error) });
      }).finally(() => {
        boot.dialing = false;
      });
    }
    const interval = this.options.statusIntervalMs ?? 2_000;
    if (now - this.lastStatusRound >= interval) {
      this.lastStatusRound = now;
      for (const connection of this.node.getConnections()) {
        // Outbound connections refresh from our side; inbound ones whose handshake never arrived too.
        const state = this.peers.get(connection.remotePeer.toString());
        if (connection.direction === 'outbound' || state?.status === undefined) void this.handshake(connection.remotePeer);
      }
      this.repairGossipStreams();
    }
  }

  /**
   * Peers (handshake done) for which gossipsub has no live outbound stream, at the last status
   * round. gossipsub opens that stream when a connection opens and never again while the peer stays
   * connected: once it closes (seen in chaos runs after a peer was paused or restarted, with the
   * QUIC connection still up) nothing this node publishes reaches that peer, and a validator that
   * hears nobody halts its height (docs/p2p.md "Gossip stream repair").
   */
  private readonly streamless = new Set<string>();

  /** Reconnect a peer whose gossip stream stayed missing or dead for two status rounds, so gossipsub opens new ones. */
  private repairGossipStreams(): void {
    const streams = (this.node.services.pubsub as unknown as { streamsOutbound?: Map<string, { rawStream?: unknown }> }).streamsOutbound;
    if (!(streams instanceof Map)) return; // another gossipsub version: nothing to look at
    const connections = this.node.getConnections();
    const missing = new Set<string>();
    for (const [id, state] of this.peers) {
      if (state.status === undefined) continue;
      const toPeer = connections.filter((c) => c.remotePeer.toString() === id);
      if (gossipStreamLive(streams.get(id), toPeer)) continue;
      missing.add(id);
      if (!this.streamless.has(id)) continue;
      const peer = toPeer[0]?.remotePeer;
      if (!peer) continue;
      this.counters.gossipRepairs++;
      this.options.logger.info('gossip stream to peer lost; reconnecting', { peer: id });
      missing.delete(id);
      void this.node.hangUp(peer)
        .then(() => this.node.dial(peer, { signal: AbortSignal.timeout(10_000) }))
        .catch((error: unknown) => this.options.logger.debug('reconnect after a lost gossip stream failed', { peer: id, error: String(error) }));
    }
    this.streamless.clear();
    for (const id of missing) this.streamless.add(id);
  }
}

/**
 * Whether gossipsub's outbound stream to a peer can still carry messages: present, open, and on a
 * connection to that peer that is still open. Presence alone is not enough: when a peer hangs up
 * and redials at once (its own repair, or a restart), its new connection can arrive before the old
 * one's close; the old connection then goes without a `peer:disconnect` (the peer is still
 * connected) and gossipsub has been seen keeping its stream on it, marked open, for good — it never
 * opens another, so this node's subscriptions and messages stop reaching that peer (docs/p2p.md
 * "Gossip stream repair").
 */
function gossipStreamLive(entry: { rawStream?: unknown } | undefined, connections: Connection[]): boolean {
  if (entry === undefined) return false;
  const raw = entry.rawStream as Stream | undefined;
  if (raw === undefined) return true; // another gossipsub version: presence is all there is to see
  return raw.status === 'open' && connections.some((c) => c.status === 'open' && c.streams.includes(raw));
}

function parseBootnode(text: string): Bootnode {
  let address: Multiaddr;
  try {
    address = multiaddr(text);
  } catch (error) {
    throw new Error(`bootnode ${text} is not a multiaddr: ${(error as Error).message}`);
  }
  const id = address.getComponents().find((c) => c.name === 'p2p')?.value;
  if (!id) throw new Error(`bootnode ${text} has no /p2p/<peer_id> part (spec §4.20: /ip4/<ip>/udp/<port>/quic-v1/p2p/<peer_id>)`);
  return { address, peer: peerIdFromString(id), attempt: 0, nextAt: 0, dialing: false };
}

/** The node's libp2p identity, an Ed25519 key kept in the data dir (mode 0600) across restarts. */
async function loadPeerKey(dataDir: string): Promise<PrivateKey> {
  const file = join(dataDir, KEY_FILE);
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return privateKeyFromProtobuf(Buffer.from(text, 'hex'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read the p2p key ${file}: ${(error as Error).message}`);
  }
  const key = await generateKeyPair('Ed25519');
  await writeFile(file, `${Buffer.from(privateKeyToProtobuf(key)).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    })]);
  } finally {
    clearTimeout(timer);
  }
}
