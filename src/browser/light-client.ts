import { compileCore, type WasmSource } from '../core/loader.js';
import { bytesEqual, fromHex, toHex } from '../codec/hash.js';
import { parseHash } from '../codec/address.js';
import { verifyEd25519Noble } from '../codec/ed25519-noble.js';
import { decodeStoredBlock, type BlockHeader } from '../chain/block.js';
import { decodeEpochRecord } from '../chain/epoch-record.js';
import { HeaderTrust, LightVerifyError, parseCheckpoint, type Checkpoint } from '../light/header-trust.js';
import { Replayer, rawBlockFromJson, replayBlocks, type RawBlockJson, type ReplayProgress, type ReplaySummary } from '../chain/replay.js';
import { fetchRawBlocks } from '../client/raw-blocks.js';
import { RpcClient } from '../client/rpc-client.js';
import { verifyBalanceProof, verifyProofResult, type GetProofResult } from '../client/proof.js';

/**
 * The light embedder's client (docs/light-client.md): it trusts nothing the node says that it has
 * not checked. Two modes over the same JSON-RPC:
 *
 * - **`headers`** (the default; issue 43): checkpoint sync by the rule every light client here
 *   shares (src/light/header-trust.ts, also the node's `--light`). From a trusted checkpoint —
 *   genesis by default, or `checkpoint: 'height:hash'` — it takes the epoch records of the later
 *   boundaries (svc_getEpochProofs: header, finality certificate, validator-set proof), each
 *   certified by the set of the epoch before and proving the next, then checks the header it needs
 *   (svc_getRawBlock) by its certificate against that epoch's set. No block is executed and the core
 *   is not loaded; the cost grows with the number of epochs, not blocks.
 * - **`replay`** (the auditor's mode): every block from genesis through build/core.wasm, as
 *   `ntv-node replay` does (src/chain/replay.ts): header hash and parent link, the proposer's
 *   signature, proposer and certificate voters against the set of its own replayed state, then
 *   re-execution to the header's state root.
 *
 * Either way a balance or any state value is then proven against the state root of a header so
 * verified (svc_getProof), so a node that lies about a balance is caught.
 */

/** A block the client cannot verify a header at, so nothing at it can be proven (the verifying provider answers 4200). */
export class HeightNotVerifiable extends Error {
  override readonly name = 'HeightNotVerifiable';
}

export interface LightClientOptions {
  /** the node's JSON-RPC URL */
  url: string;
  /** `headers` (default): checkpoint sync by certificates; `replay`: re-execute every block from genesis */
  mode?: 'headers' | 'replay';
  /**
   * headers mode: the trusted epoch boundary to start from, `height:hash` (svc_getEpochProofs names
   * them; docs/replay.md "Weak subjectivity" says how recent it must be). Absent: genesis.
   */
  checkpoint?: string;
  /** the genesis block hash (Nxh… or hex) the embedder trusts; absent, the node's block 0 is taken */
  genesisHash?: string;
  /** replay mode: core.wasm as bytes, a compiled module or a URL (default: core.wasm next to this module) */
  wasm?: WasmSource;
  /** replay mode: blocks per svc_getRawBlock batch (default 32) */
  batch?: number;
  /** the fetch the JSON-RPC client uses (default: globalThis.fetch): to count bytes, or to route requests */
  fetch?: typeof fetch;
}

/** What a sync did: the range verified, and per mode the epochs crossed or the blocks replayed. */
export interface LightSyncSummary {
  from: number;
  to: number;
  /** headers mode: epoch boundaries crossed by their records */
  epochs?: number;
  /** replay mode: the replay engine's summary */
  replay?: ReplaySummary;
}

/** Verified headers kept for proofs: proofs are at the head, so a short window suffices. */
const KEPT_HEADERS = 64;
/** epoch records per svc_getEpochProofs call (the method's maximum) */
const EPOCH_BATCH = 64;

interface EpochProofsJson { epoch_length: number; head: number; records: Array<{ height: number; record: string }> }

export class LightClient {
  private readonly headers = new Map<number, BlockHeader>();

  private constructor(
    private readonly client: RpcClient,
    readonly mode: 'headers' | 'replay',
    /** replay mode's engine (undefined in headers mode) */
    readonly replayer: Replayer | undefined,
    /** headers mode's trusted set and anchor (undefined in replay mode) */
    readonly trust: HeaderTrust | undefined,
    private readonly batch: number,
  ) {
    this.keep(trust ? trust.anchor : replayer!.headHeader!);
  }

  static async create(options: LightClientOptions): Promise<LightClient> {
    const client = new RpcClient(options.url, options.fetch ? { fetch: options.fetch } : {});
    if ((options.mode ?? 'headers') === 'headers') {
      let checkpoint: Checkpoint;
      let record: { height: number; record: string } | undefined;
      if (options.checkpoint !== undefined) {
        checkpoint = parseCheckpoint(options.checkpoint);
        [record] = (await epochRecords(client, checkpoint.height, 1)).records;
      } else {
        // Genesis: block 0's record, its hash the pinned one or, absent a pin, the node's (trust on first use).
        [record] = (await epochRecords(client, 0, 1)).records;
        if (!record) throw new Error('the node serves no epoch record of genesis (svc_getEpochProofs 0)');
        const served = decodeEpochRecord(fromHex(record.record, undefined, 'record')).header.hash;
        if (options.genesisHash !== undefined && !bytesEqual(parseHashOrHex(options.genesisHash), served)) {
          throw new Error(`the node's genesis block ${toHex(served)} is not the trusted ${options.genesisHash}`);
        }
        checkpoint = { height: 0, hash: served };
      }
      if (!record) throw new Error(`the node serves no epoch record at or above the checkpoint ${checkpoint.height}`);
      const trust = HeaderTrust.fromCheckpoint(fromHex(record.record, undefined, 'record'), checkpoint);
      return new LightClient(client, 'headers', undefined, trust, options.batch ?? 32);
    }
    if (options.checkpoint !== undefined) throw new Error('a checkpoint is for the headers mode: replay starts at genesis');
    const module = await compileCore(options.wasm ?? new URL('./core.wasm', import.meta.url));
    const replayer = await Replayer.create({ module, verifyEd25519: verifyEd25519Noble });
    const block0 = await client.call<RawBlockJson>('svc_getRawBlock', [0]);
    if (!block0.genesis) throw new Error('the node serves no genesis input (svc_getRawBlock 0): its genesis flags do not give its block 0');
    if (options.genesisHash !== undefined && !bytesEqual(parseHashOrHex(options.genesisHash), parseHash(block0.hash))) {
      throw new Error(`the node's genesis block ${block0.hash} is not the trusted ${options.genesisHash}`);
    }
    replayer.genesis(fromHex(block0.genesis, undefined, 'genesis'), rawBlockFromJson(block0));
    return new LightClient(client, 'replay', replayer, undefined, options.batch ?? 32);
  }

  /** The JSON-RPC client to the node (its answers are unverified). */
  get rpc(): RpcClient {
    return this.client;
  }

  /** The last verified height. */
  get height(): number {
    return this.trust ? this.newest : this.replayer!.headHeader!.height;
  }

  /** The chain id of the verified headers. */
  get chainId(): number {
    return this.headers.get(this.height)!.chainId;
  }

  /** A header this client verified (the last KEPT_HEADERS of them). */
  header(height: number): BlockHeader | undefined {
    return this.headers.get(height);
  }

  /** The node's head height, as it says (unverified until synced). */
  async nodeHead(): Promise<number> {
    const [head] = await this.client.call<Array<{ height: number }>>('svc_getRecentBlocks', [1]);
    return head!.height;
  }

  /**
   * Verify up to `to` (default: the node's head). Headers mode: the epoch records up to the
   * boundary at or below `to`, then the header at `to`. Replay mode: every block up to `to`.
   */
  async sync(to?: number, onProgress?: (p: ReplayProgress) => void): Promise<LightSyncSummary> {
    const target = to ?? (await this.nodeHead());
    const from = this.height;
    if (this.trust) {
      const epochs = await this.crossEpochs(target);
      if (target > this.height) await this.verifiedHeader(target);
      return { from, to: this.height, epochs };
    }
    const replay = await replayBlocks(this.replayer!, { blocks: (heights) => fetchRawBlocks(this.client, heights) }, { from: this.height + 1, to: target }, {
      batch: this.batch,
      onProgress: (p) => {
        this.keep(this.replayer!.headHeader!);
        onProgress?.(p);
      },
    });
    return { from, to: this.height, replay };
  }

  /**
   * A balance proven against a header this client verified: svc_getProof [address, token], the
   * client first verifying the proof's height. Throws ProofError when the proof or the node's
   * `balance` does not hold. The mint is the one the proven key names (give a mint address rather
   * than a symbol to not rely on the node's symbol table). `height`: the state as of that block,
   * which the node proves from its change sets inside its state window (docs/storage.md "State
   * history"), against the header this client verifies at that height; absent, the node's head.
   */
  async verifiedBalance(address: string, token = 'NTV', height?: number): Promise<{ balance: bigint; height: number; stateRoot: Uint8Array; mint: Uint8Array; proof: GetProofResult }> {
    const proof = await this.proofAt([address, token], height);
    const header = await this.verifiedHeader(proof.height);
    const key = fromHex(proof.key, 65, 'key');
    const mint = key.slice(33, 65);
    return { balance: verifyBalanceProof(proof, address, mint, header.stateRoot), height: proof.height, stateRoot: header.stateRoot, mint, proof };
  }

  /** Any state key's value (undefined: absent) proven against a verified header; at `height` as `verifiedBalance`. */
  async verifiedValue(keyOrAddress: string, token?: string, height?: number): Promise<{ value: Uint8Array | undefined; height: number; key: Uint8Array }> {
    const proof = await this.proofAt(token === undefined ? [keyOrAddress] : [keyOrAddress, token], height);
    const header = await this.verifiedHeader(proof.height);
    return { value: verifyProofResult(proof, header.stateRoot), height: proof.height, key: fromHex(proof.key, undefined, 'key') };
  }

  /**
   * svc_getProof at the head, or at `height`: a height this client cannot verify a header at is
   * refused before the node is asked (HeightNotVerifiable), and a proof of another height than the
   * one asked is the node's fault (LightVerifyError).
   */
  private async proofAt(params: [string] | [string, string], height: number | undefined): Promise<GetProofResult> {
    if (height === undefined) return this.withRecordsAhead(this.client.call<GetProofResult>('svc_getProof', params));
    this.assertVerifiable(height);
    const proof = await this.withRecordsAhead(this.client.call<GetProofResult>('svc_getProof', [params[0], params[1] ?? null, height]));
    if (proof.height !== height) throw new LightVerifyError(`svc_getProof at block ${height} answered a proof at block ${proof.height}`);
    return proof;
  }

  /**
   * Whether a header at `height` can be verified: one kept, or (headers mode) one after the trusted
   * set's height, which the epoch records reach forward; replay mode verifies the blocks it
   * replays and keeps the last KEPT_HEADERS.
   */
  private assertVerifiable(height: number): void {
    if (!Number.isSafeInteger(height) || height < 0) throw new HeightNotVerifiable(`block ${height} is not a height`);
    if (this.headers.has(height)) return;
    if (this.trust) {
      if (!this.trust.canVerify(height)) throw beforeHeldSets(height);
      return;
    }
    if (height < this.height) throw new HeightNotVerifiable(`block ${height} is behind the replayed blocks this client keeps (${Math.max(0, this.height - KEPT_HEADERS + 1)}..${this.height})`);
  }

  /** The verified header at `height`, verifying it first. */
  async verifiedHeader(height: number): Promise<BlockHeader> {
    const kept = this.headers.get(height);
    if (kept) return kept;
    if (!this.trust) {
      if (height > this.height) await this.sync(height);
      const header = this.headers.get(height);
      if (!header) throw new Error(`height ${height} is behind the verified window (${this.height - KEPT_HEADERS + 1}..${this.height})`);
      return header;
    }
    // The block is fetched while the epochs before it are crossed: it is checked after them.
    const fetched = this.client.call<RawBlockJson>('svc_getRawBlock', [height]);
    fetched.catch(() => {});
    if (height > this.trust.nextBoundary) await this.crossEpochs(height);
    if (!this.trust.canVerify(height)) throw beforeHeldSets(height);
    const past = height <= this.trust.set.height;
    const raw = rawBlockFromJson(await fetched);
    const { header } = decodeStoredBlock(raw.block);
    if (header.height !== height) throw new LightVerifyError(`svc_getRawBlock ${height} served block ${header.height}`);
    // behind the current set: checked by the set of its own epoch, one this client crossed
    if (past) {
      const problem = this.trust.pastHeaderProblem(header, raw.certificate);
      if (problem !== undefined) throw new LightVerifyError(`block ${header.height}: ${problem}`);
    } else this.trust.verifyHeader(header, raw.certificate);
    this.keep(header);
    return header;
  }

  /** Headers mode: the epoch records of the boundaries from the next one up to `to`; the count crossed. */
  private async crossEpochs(to: number): Promise<number> {
    const trust = this.trust!;
    let crossed = 0;
    while (trust.nextBoundary <= to) {
      const from = trust.nextBoundary;
      const ahead = this.ahead;
      this.ahead = undefined;
      const { records } = ahead && ahead.from === from ? await ahead.answer : await epochRecords(this.client, from, EPOCH_BATCH);
      if (records.length === 0) throw new LightVerifyError(`the node serves no epoch record of boundary ${trust.nextBoundary}`);
      for (const record of records) {
        if (record.height > to) break;
        const { header } = trust.advance(fromHex(record.record, undefined, 'record'));
        this.keep(header);
        crossed++;
      }
    }
    return crossed;
  }

  /** headers mode: the newest header verified */
  private newest = 0;
  /** headers mode: the epoch records after the trusted set, asked beside a proof (one round trip fewer) */
  private ahead: { from: number; answer: Promise<EpochProofsJson> } | undefined;

  /** `request`, with the epoch records from the next boundary asked at the same time (headers mode). */
  private async withRecordsAhead<T>(request: Promise<T>): Promise<T> {
    if (this.trust) {
      const from = this.trust.nextBoundary;
      const answer = epochRecords(this.client, from, EPOCH_BATCH);
      answer.catch(() => {});
      this.ahead = { from, answer };
    }
    return request;
  }

  private keep(header: BlockHeader): void {
    this.headers.set(header.height, header);
    if (header.height > this.newest) this.newest = header.height;
    if (this.headers.size > KEPT_HEADERS) this.headers.delete(Math.min(...this.headers.keys()));
  }
}

/** A block before every validator set the client holds: no header at it can be verified. */
function beforeHeldSets(height: number): HeightNotVerifiable {
  return new HeightNotVerifiable(`block ${height} is before the validator sets this client holds (it verifies headers from its checkpoint or genesis on, keeping the sets of the last epochs it crossed)`);
}

async function epochRecords(client: RpcClient, from: number, limit: number): Promise<EpochProofsJson> {
  return client.call<EpochProofsJson>('svc_getEpochProofs', [from, limit]);
}

function parseHashOrHex(text: string): Uint8Array {
  return text.startsWith('Nxh') ? parseHash(text) : fromHex(text, 32, 'genesis hash');
}

export { toHex };
