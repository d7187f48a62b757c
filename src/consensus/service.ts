import { GAS_BASE, GAS_REPORT_DOUBLE_SIGN } from '../abi/constants.js';
import type { Block, BlockHeader } from '../chain/block.js';
import type { ChainConsensus, ChainNode } from '../chain/interface.js';
import { chainParams, type ChainParams } from '../chain/chain-params.js';
import type { BlockTurn, ValidatorIdentity } from '../chain/producer.js';
import { readValidatorSet, type ValidatorInfo } from '../chain/validator-set.js';
import { encodeBundle } from '../codec/bundle.js';
import { bytesEqual } from '../codec/hash.js';
import { signBundle } from '../codec/keys.js';
import type { Logger } from '../logger.js';
import type { P2PNetwork } from '../p2p/network.js';
import type { ChainStore } from '../storage/chain-store.js';
import type { DoubleSignEvidence } from './double-sign.js';
import { ConsensusEngine, type ConsensusHost, type ConsensusOptions, type ConsensusTransport, type Execution, type SigningState } from './engine.js';
import { leaderSchedule, slotOf } from './leader.js';
import { decodeCertificate, encodeCertificate, type Certificate } from './votes.js';

/** Contract E's P2PNetwork as the engine's transport. */
export function consensusTransport(network: P2PNetwork): ConsensusTransport {
  return {
    publish: (topic, data) => network.publish(topic, data),
    on: (topic, handler) => network.on(topic, handler),
    penalize: (peer, reason) => network.penalize(peer, reason),
    validate: (topic, check) => network.validate(topic, check),
    peerCount: () => network.connectedPeers().length,
  };
}

/**
 * Node-local records of the validator's signing state (docs/consensus.md "Signing state"), written
 * in one synced batch. The one-vote protocol's 'consensus-last-vote' record before them is no
 * longer read (docs/consensus.md "Upgrading from the one-vote protocol").
 */
const SIGNING_KEYS = { record: 'consensus-signing-record', pol: 'consensus-signing-pol', polBlock: 'consensus-signing-pol-block', decision: 'consensus-signing-decision', votes: 'consensus-signing-votes', ownBlock: 'consensus-signing-own-block' } as const;
/**
 * Gas a ReportDoubleSign bundle may use: exactly what the core charges for it (the base and the
 * operation's figure), since admission asks the reporter to hold max_gas × price (src/chain/admission/funds.ts).
 */
const REPORT_MAX_GAS = GAS_BASE + GAS_REPORT_DOUBLE_SIGN;
const REPORT_VALIDITY_SECONDS = 3600n;

/**
 * The consensus layer wired to one node: the engine (src/consensus/engine.ts) over the chain, its
 * storage and the p2p transport. It is the chain's `ChainConsensus` (whose turn, the solo fast
 * path) and the engine's `ConsensusHost` (execute, commit, import, report).
 */
export class ConsensusService implements ChainConsensus {
  readonly engine: ConsensusEngine;
  private setCache: { hash: Uint8Array; set: ValidatorInfo[]; params: ChainParams } | undefined;
  /** the last leaderKey answer: asked for every admitted bundle, drawn again only for a new head or height */
  private leaderCache: { hash: Uint8Array; height: number; key: Uint8Array | undefined } | undefined;
  private soloCache: { hash: Uint8Array; turn: BlockTurn | undefined } | undefined;
  private reports = 0;

  private constructor(
    options: ConsensusOptions,
    private readonly deps: { chain: ChainNode; store: ChainStore; validator: ValidatorIdentity; transport?: ConsensusTransport; logger: Logger },
    signing: SigningState,
  ) {
    const { chain, store, validator, logger } = deps;
    const host: ConsensusHost = {
      chainId: chain.chainId,
      head: () => chain.headHeader,
      validators: () => this.atHead().set,
      params: () => this.atHead().params,
      syncing: () => chain.syncing,
      execute: (block: Block, encoded: Uint8Array): Promise<Execution> => chain.executeProposal(block, encoded),
      commit: (certificate: Certificate) => chain.commitSpeculative(encodeCertificate(certificate)),
      discard: () => chain.discardSpeculative(),
      importFinal: async (encoded, certificate) => {
        // Our own tally counted > 2/3 of the stake for this hash: the import skips re-checking it.
        const imported = await chain.importBlock(encoded, encodeCertificate(certificate), { certificateVerified: true });
        await imported.durable;
      },
      storedHeader: async (height) => (await chain.blockByHeight(height))?.header,
      storedCertified: async (height) => {
        const [encoded, certificate] = await Promise.all([store.getBlock(height), store.getCertificate(height)]);
        return encoded && certificate ? { encoded, certificate } : undefined;
      },
      reportDoubleSign: (evidence) => this.reportDoubleSign(evidence),
      saveSigningState: (state: SigningState) => store.putLocalSynced(
        (Object.keys(SIGNING_KEYS) as Array<keyof SigningState>).map((k) => [SIGNING_KEYS[k], state[k]]),
      ),
      signingState: () => signing,
    };
    this.engine = new ConsensusEngine(options, { host, identity: validator, logger, ...(deps.transport ? { transport: deps.transport } : {}) });
  }

  static async create(
    options: ConsensusOptions,
    deps: { chain: ChainNode; store: ChainStore; validator: ValidatorIdentity; transport?: ConsensusTransport; logger: Logger },
  ): Promise<ConsensusService> {
    const signing: SigningState = {};
    for (const k of Object.keys(SIGNING_KEYS) as Array<keyof SigningState>) {
      const value = await deps.store.getLocal(SIGNING_KEYS[k]);
      if (value) signing[k] = value;
    }
    return new ConsensusService(options, deps, signing);
  }

  /** Attach to the chain: it asks this service whose turn it is; its durable blocks advance the engine. */
  start(): void {
    const { chain } = this.deps;
    chain.on('block', (produced) => this.engine.onHeadAdvanced(produced.block.header));
    this.engine.start();
  }

  /** Stop the engine once what it signed is saved and sent (a graceful stop never leaves half of it). */
  async stop(): Promise<void> {
    await this.engine.flush();
    this.engine.stop();
  }

  // ---- ChainConsensus ------------------------------------------------------------------------

  soloTurn(parent: BlockHeader, state: { get(key: Uint8Array): Uint8Array | undefined }): BlockTurn | undefined {
    if (this.soloCache && bytesEqual(this.soloCache.hash, parent.hash)) return this.soloCache.turn;
    const set = readValidatorSet(state);
    const { validator } = this.deps;
    // Before any staking record exists (a chain without validator genesis) the node is the single
    // validator the foundation made: every block final when made.
    const turn = set.length === 0
      ? { round: 0, missed: [], proposer: validator.address, final: true }
      : this.engine.soloTurn(parent, set);
    this.soloCache = { hash: parent.hash, turn };
    return turn;
  }

  certifySolo(header: BlockHeader): Uint8Array {
    return this.engine.certifySolo(header);
  }

  turn(busy: boolean): BlockTurn | undefined {
    return this.engine.turn(busy);
  }

  proposed(block: Block, encoded: Uint8Array): void {
    this.engine.proposed(block, encoded);
  }

  // ---- reads for the RPC methods and p2p -------------------------------------------------------

  /** The validator set at the head (the parent of head + 1) and the chain params, cached per head. */
  atHead(): { set: ValidatorInfo[]; params: ChainParams } {
    const head = this.deps.chain.headHeader;
    if (!this.setCache || !bytesEqual(this.setCache.hash, head.hash)) {
      const state = this.deps.chain.state;
      this.setCache = { hash: head.hash, set: readValidatorSet(state), params: chainParams(state) };
    }
    return this.setCache;
  }

  /** The consensus key expected to propose `height` in round 0 (bundle forwarding aims at it). */
  leaderKey(height: number): Uint8Array | undefined {
    const head = this.deps.chain.headHeader.hash;
    const cached = this.leaderCache;
    if (cached && cached.height === height && bytesEqual(cached.hash, head)) return cached.key;
    const { set, params } = this.atHead();
    const key = leaderSchedule(set, slotOf(height, params.slotLength), 1)[0]?.consensusKey;
    this.leaderCache = { hash: head, height, key };
    return key;
  }

  /** The stored finality certificate of the block at `height` (svc_getAttestations). */
  async certificate(height: number): Promise<Certificate | undefined> {
    const bytes = await this.deps.store.getCertificate(height);
    return bytes && bytes.length > 0 ? decodeCertificate(bytes) : undefined;
  }

  /** This node's validator key (its consensus key). */
  get identity(): ValidatorIdentity {
    return this.deps.validator;
  }

  get reportsSubmitted(): number {
    return this.reports;
  }

  /**
   * Contract D: evidence of a double signature goes on chain as ReportDoubleSign in a bundle
   * signed by this node's validator account; admission checks the evidence (src/domains/staking/double-sign-evidence.ts)
   * and bundle forwarding carries it to the leader.
   */
  private async reportDoubleSign(e: DoubleSignEvidence): Promise<void> {
    const { chain, validator, logger } = this.deps;
    const nonce = chain.pendingNonce(validator.address);
    const unsigned = {
      userAccount: validator.address,
      operations: [{ type: 'ReportDoubleSign' as const, validator: e.validator, height: BigInt(e.height), headerA: e.headerA, sigA: e.sigA, headerB: e.headerB, sigB: e.sigB }],
      maxGas: REPORT_MAX_GAS, maxPriorityFee: 0n, validUntil: BigInt(Math.floor(Date.now() / 1000)) + REPORT_VALIDITY_SECONDS, nonce,
      signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: validator.publicKey,
    };
    const bytes = encodeBundle(signBundle(unsigned, validator.seed));
    const { hash, included } = await chain.enqueueBundle(bytes);
    this.reports++;
    logger.warn('submitted ReportDoubleSign', { validator: Buffer.from(e.validator).toString('hex'), height: e.height, bundle: Buffer.from(hash).toString('hex') });
    included.catch((error: unknown) => logger.warn('ReportDoubleSign bundle was not included', { error: String(error) }));
  }
}
