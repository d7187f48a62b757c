import { compileCore, type WasmSource } from '../core/loader.js';
import { bytesEqual, fromHex, toHex } from '../codec/hash.js';
import { parseHash } from '../codec/address.js';
import { verifyEd25519Noble } from '../codec/ed25519-noble.js';
import type { BlockHeader } from '../chain/block.js';
import { Replayer, rawBlockFromJson, replayBlocks, type RawBlockJson, type ReplayProgress, type ReplaySummary } from '../chain/replay.js';
import { fetchRawBlocks } from '../client/raw-blocks.js';
import { RpcClient } from '../client/rpc-client.js';
import { verifyBalanceProof, verifyProofResult, type GetProofResult } from '../client/proof.js';

/**
 * The light embedder's client (docs/replay.md "In the browser"): it trusts nothing the node says
 * that it has not checked. Headers and their finality certificates come over JSON-RPC
 * (svc_getRawBlock) and are verified as a validator verifies a block of another one: the header
 * hash and parent link, the proposer's Ed25519 signature (@noble/ed25519 under the node's rule),
 * the proposer and the certificate's voters against the validator set, which is read from the state
 * the client has itself replayed through build/core.wasm from genesis; then the block's state root
 * is checked by re-execution. A balance is then proven against the state root of a header verified
 * that way (svc_getProof), so a node that lies about a balance is caught.
 */

export interface LightClientOptions {
  /** the node's JSON-RPC URL */
  url: string;
  /** core.wasm: bytes, a compiled module or a URL (default: core.wasm next to this bundle) */
  wasm?: WasmSource;
  /** the genesis block hash (Nxh… or hex) the embedder trusts; absent, the node's block 0 is taken */
  genesisHash?: string;
  /** blocks per svc_getRawBlock batch (default 32) */
  batch?: number;
}

/** Verified headers kept for proofs: proofs are at the head, so a short window suffices. */
const KEPT_HEADERS = 64;

export class LightClient {
  private readonly headers = new Map<number, BlockHeader>();

  private constructor(private readonly client: RpcClient, readonly replayer: Replayer, private readonly batch: number) {
    this.keep(replayer.headHeader!);
  }

  static async create(options: LightClientOptions): Promise<LightClient> {
    const client = new RpcClient(options.url);
    const module = await compileCore(options.wasm ?? new URL('./core.wasm', import.meta.url));
    const replayer = await Replayer.create({ module, verifyEd25519: verifyEd25519Noble });
    const block0 = await client.call<RawBlockJson>('svc_getRawBlock', [0]);
    if (!block0.genesis) throw new Error('the node serves no genesis input (svc_getRawBlock 0): its genesis flags do not give its block 0');
    if (options.genesisHash !== undefined && !bytesEqual(parseHashOrHex(options.genesisHash), parseHash(block0.hash))) {
      throw new Error(`the node's genesis block ${block0.hash} is not the trusted ${options.genesisHash}`);
    }
    replayer.genesis(fromHex(block0.genesis, undefined, 'genesis'), rawBlockFromJson(block0));
    return new LightClient(client, replayer, options.batch ?? 32);
  }

  /** The last verified height. */
  get height(): number {
    return this.replayer.headHeader!.height;
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

  /** Fetch, verify and re-execute the blocks after the last verified one, up to `to` (default: the node's head). */
  async sync(to?: number, onProgress?: (p: ReplayProgress) => void): Promise<ReplaySummary> {
    const target = to ?? (await this.nodeHead());
    return replayBlocks(this.replayer, { blocks: (heights) => fetchRawBlocks(this.client, heights) }, { from: this.height + 1, to: target }, {
      batch: this.batch,
      onProgress: (p) => {
        this.keep(this.replayer.headHeader!);
        onProgress?.(p);
      },
    });
  }

  /**
   * A balance proven against a header this client verified: svc_getProof [address, token], the
   * client first syncing to the proof's height. Throws ProofError when the proof or the node's
   * `balance` does not hold. The mint is the one the proven key names (give a mint address rather
   * than a symbol to not rely on the node's symbol table).
   */
  async verifiedBalance(address: string, token = 'NTV'): Promise<{ balance: bigint; height: number; stateRoot: Uint8Array; mint: Uint8Array; proof: GetProofResult }> {
    const proof = await this.client.call<GetProofResult>('svc_getProof', [address, token]);
    const header = await this.verifiedHeader(proof.height);
    const key = fromHex(proof.key, 65, 'key');
    const mint = key.slice(33, 65);
    return { balance: verifyBalanceProof(proof, address, mint, header.stateRoot), height: proof.height, stateRoot: header.stateRoot, mint, proof };
  }

  /** Any state key's value (undefined: absent) proven against a verified header. */
  async verifiedValue(keyOrAddress: string, token?: string): Promise<{ value: Uint8Array | undefined; height: number }> {
    const proof = await this.client.call<GetProofResult>('svc_getProof', token === undefined ? [keyOrAddress] : [keyOrAddress, token]);
    const header = await this.verifiedHeader(proof.height);
    return { value: verifyProofResult(proof, header.stateRoot), height: proof.height };
  }

  /** The verified header at `height`, syncing to it first. */
  async verifiedHeader(height: number): Promise<BlockHeader> {
    if (height > this.height) await this.sync(height);
    const header = this.headers.get(height);
    if (!header) throw new Error(`height ${height} is behind the verified window (${this.height - KEPT_HEADERS + 1}..${this.height})`);
    return header;
  }

  private keep(header: BlockHeader): void {
    this.headers.set(header.height, header);
    this.headers.delete(header.height - KEPT_HEADERS);
  }
}

function parseHashOrHex(text: string): Uint8Array {
  return text.startsWith('Nxh') ? parseHash(text) : fromHex(text, 32, 'genesis hash');
}

export { toHex };
