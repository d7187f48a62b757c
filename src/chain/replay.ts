import { Core, type BundleInput } from '../core/core.js';
import { BlockResultView } from '../core/block-result.js';
import type { WasmModule } from '../core/loader.js';
import { bytesEqual, fromHex, toHex } from '../codec/hash.js';
import { verifyEd25519 } from '../codec/keys.js';
import { Prefix } from '../abi/constants.js';
import { AccountKeys } from './account-keys.js';
import { blockContextOf, deriveAuth, type KeySource } from './block-checks.js';
import { decodeStoredBlock, type BlockHeader } from './block.js';
import { BlockCheckError, checkBlockAsync, hashProblem, type CheckedBlock } from './pipeline/1-check.js';
import { CHAIN_IDS } from './genesis-data.js';
import { StateView } from './state-view.js';
import { statusOf } from './status.js';

/**
 * Block replay for auditors and light embedders (docs/replay.md): stored blocks re-executed through
 * the same core the validators run, from genesis, each checked as block import checks a block of
 * another validator (block-checks.ts: header hash, parent, transactions root, proposer signature and
 * membership, finality certificate against the validator set of the replayed state) and then
 * against what the source says came of it: every bundle's status (when the source has the stored
 * execution result), the gas and the state root. No storage, no network: the caller feeds the
 * blocks (the `replay` command from a data dir or over JSON-RPC, the browser build over JSON-RPC).
 */

/** A block as stored (svc_getRawBlock, docs/replay.md "Format"). */
export interface RawBlock {
  height: number;
  /** the stored block bytes (src/chain/block.ts encodeBlock) */
  block: Uint8Array;
  /** the finality certificate (docs/consensus.md), empty when the block has none */
  certificate: Uint8Array;
  /** the core's BlockResult bytes the node stored for it (docs/core-abi.md), when it has them */
  result?: Uint8Array;
  /** the bundle hashes the source's index holds for this block, to name an altered bundle */
  bundleHashes?: Uint8Array[];
}

export type DivergenceKind =
  | 'GENESIS_MISMATCH' | 'MALFORMED_BLOCK' | 'WRONG_CHAIN' | 'NOT_NEXT' | 'BAD_HASH' | 'BAD_TRANSACTIONS_ROOT' | 'BAD_SIGNATURE'
  | 'BAD_PROPOSER' | 'BAD_CERTIFICATE' | 'INVALID_BUNDLE' | 'STATUS_MISMATCH' | 'GAS_MISMATCH' | 'STATE_ROOT_MISMATCH';

/** A state key the diverging block wrote: the value replay gave it and, where the source holds it, the expected one. */
export interface DivergentKey {
  /** hex of the state key */
  key: string;
  /** the prefix's name in the ABI table (abi/state.mjs), e.g. BALANCE */
  kind: string;
  /** hex of the value at the parent (the replayed state); null: absent */
  before: string | null;
  /** hex after replay; null when replay deleted it */
  replayed: string | null;
  /** hex of the source's value at this height (null: absent); undefined when the source keeps no state at this height */
  expected?: string | null;
}

export interface Divergence {
  height: number;
  kind: DivergenceKind;
  message: string;
  /** the bundle at fault, by index in the block */
  bundle?: number;
  /** hex: the root (state or transactions), status or gas the source claims */
  expected?: string;
  /** hex: what replay computed */
  actual?: string;
  /** STATE_ROOT_MISMATCH: the keys the block wrote, differing ones first */
  stateKeys?: DivergentKey[];
}

export class ReplayDivergence extends Error {
  constructor(readonly divergence: Divergence) {
    super(`height ${divergence.height}: ${divergence.kind}: ${divergence.message}`);
    this.name = 'ReplayDivergence';
  }
}

/** What one replayed block gave. */
export interface ReplayedBlock {
  height: number;
  hash: Uint8Array;
  stateRoot: Uint8Array;
  transactionsRoot: Uint8Array;
  bundles: number;
  gasUsed: number;
  /** bundles whose status the stored execution result confirmed (0 when the source had none) */
  statusesChecked: number;
}

/**
 * The expected values of state keys at a height whose header has `stateRoot` (for the report of a
 * state root mismatch), or undefined when the source keeps no state at that height.
 */
export type ReferenceState = (height: number, stateRoot: Uint8Array, keys: Uint8Array[]) => Promise<Array<Uint8Array | undefined> | undefined>;

export interface ReplayerOptions {
  /** the compiled core (compileCore); absent, build/core.wasm */
  module?: WasmModule;
  /** the proposer signature check; the browser build passes its @noble/ed25519 verifier */
  verifyEd25519?: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean | Promise<boolean>;
  /** the source's state, for naming the differing keys of a state root mismatch */
  reference?: ReferenceState;
}

const PREFIX_NAMES = new Map<number, string>(Object.entries(Prefix).map(([name, code]) => [code, name]));
const NETWORK_OF_CHAIN = new Map<number, keyof typeof CHAIN_IDS>(Object.entries(CHAIN_IDS).map(([n, id]) => [id, n as keyof typeof CHAIN_IDS]));

export class Replayer {
  private head: BlockHeader | undefined;
  private readonly keySource: KeySource;

  private constructor(
    private readonly core: Core,
    readonly state: StateView,
    private readonly options: ReplayerOptions,
    keys: AccountKeys,
  ) {
    // Each block's writes reach the state before the next one runs: no key is revealed but not yet stored.
    this.keySource = { registered: (account) => keys.of(account), revealed: () => [] };
  }

  static async create(options: ReplayerOptions = {}): Promise<Replayer> {
    const state = new StateView();
    const core = options.module ? await Core.fromModule(options.module, state) : await Core.create(state);
    return new Replayer(core, state, options, new AccountKeys(state));
  }

  /** The last replayed header (genesis after `genesis`). */
  get headHeader(): BlockHeader | undefined {
    return this.head;
  }

  /** The replayed state root (the core's). */
  stateRoot(): Uint8Array {
    return this.core.stateRoot();
  }

  /** The allowUnsigned flag of the block context follows the network (src/chain/chain.ts: testnet only). */
  private get allowUnsigned(): boolean {
    return NETWORK_OF_CHAIN.get(this.head!.chainId) === 'testnet';
  }

  /**
   * Genesis: the encoded GenesisConfig (docs/core-abi.md) through the core, whose state root must be
   * the stored genesis block's. The genesis block is unsigned and the same on every node.
   */
  genesis(config: Uint8Array, block0: RawBlock): ReplayedBlock {
    const header = this.headerOf(block0.block, block0.height ?? 0, 'block does not decode');
    if (header.height !== 0) this.fail({ height: header.height, kind: 'NOT_NEXT', message: `the first block must be the genesis block, got ${header.height}` });
    this.checkHash(header);
    try {
      this.core.genesis(config);
    } catch (error) {
      this.fail({ height: 0, kind: 'GENESIS_MISMATCH', message: `the genesis configuration does not apply: ${(error as Error).message}` });
    }
    const { stateRoot, writes } = this.core.commitBlock();
    if (!bytesEqual(stateRoot, header.stateRoot)) {
      this.fail({
        height: 0, kind: 'GENESIS_MISMATCH', expected: toHex(header.stateRoot), actual: toHex(stateRoot),
        message: 'the genesis configuration gives another state root than the stored genesis block (other genesis validators or chain parameters?)',
      });
    }
    this.state.apply(writes);
    this.head = header;
    return { height: 0, hash: header.hash, stateRoot, transactionsRoot: header.transactionsRoot, bundles: 0, gasUsed: 0, statusesChecked: 0 };
  }

  /**
   * Start from a restored state instead of genesis (issue 25 item 2: a snapshot or a state export):
   * `this.state` already holds the export's records; `block` is its head block, whose state root
   * the records must give. Later blocks then replay as from genesis.
   */
  resume(block: Uint8Array): ReplayedBlock {
    const header = this.headerOf(block, 0, 'the state\'s head block does not decode');
    this.checkHash(header);
    const stateRoot = this.core.stateRoot();
    if (!bytesEqual(stateRoot, header.stateRoot)) {
      this.fail({
        height: header.height, kind: 'STATE_ROOT_MISMATCH', expected: toHex(header.stateRoot), actual: toHex(stateRoot),
        message: 'the restored state does not hash to its head block\'s state root',
      });
    }
    this.head = header;
    return { height: header.height, hash: header.hash, stateRoot, transactionsRoot: header.transactionsRoot, bundles: header.bundleCount, gasUsed: 0, statusesChecked: 0 };
  }

  /** Verify and re-execute the next block; throws ReplayDivergence at the first thing that does not hold. */
  async apply(raw: RawBlock): Promise<ReplayedBlock> {
    const parent = this.head;
    if (!parent) throw new Error('replay the genesis block first');
    // Step 1 of the block path, as block import runs it (./pipeline/1-check.ts).
    let checked: CheckedBlock;
    try {
      checked = await checkBlockAsync(raw.block, raw.certificate, parent, this.core, {
        chainId: parent.chainId, verify: this.options.verifyEd25519 ?? verifyEd25519, ...(raw.bundleHashes ? { indexedHashes: raw.bundleHashes } : {}),
      });
    } catch (error) {
      if (error instanceof BlockCheckError) this.fail({ height: error.height ?? raw.height ?? parent.height + 1, kind: error.kind, message: error.message, ...error.detail });
      throw error;
    }
    const { header, bundles, scan } = checked;
    const height = header.height;
    const inputs: BundleInput[] = bundles.map((bytes, i) => {
      const status = scan.status(i);
      if (status !== 0) this.fail({ height, kind: 'INVALID_BUNDLE', bundle: i, message: `bundle ${i} does not decode (${statusOf(status).name})` });
      const auth = deriveAuth(bytes, i, scan, this.keySource);
      return { bytes, auth: auth.kind, keyHash: auth.keyHash, pubkey: auth.pubkey };
    });
    const result = this.core.applyBlock(blockContextOf(header, this.allowUnsigned), inputs);
    for (let i = 0; i < result.count; i++) {
      const status = statusOf(result.status(i));
      if (status.class === 'invalid') {
        this.fail({ height, kind: 'INVALID_BUNDLE', bundle: i, actual: status.name, message: `bundle ${i} is invalid here (${status.name}); the proposer should have left it out` });
      }
    }
    let statusesChecked = 0;
    if (raw.result) {
      const stored = new BlockResultView(raw.result);
      if (stored.count !== result.count) {
        this.fail({ height, kind: 'STATUS_MISMATCH', expected: String(stored.count), actual: String(result.count), message: `the stored execution result has ${stored.count} bundles, the block ${result.count}` });
      }
      for (let i = 0; i < result.count; i++) {
        if (stored.status(i) !== result.status(i)) {
          const expected = statusOf(stored.status(i)).name, actual = statusOf(result.status(i)).name;
          this.fail({ height, kind: 'STATUS_MISMATCH', bundle: i, expected, actual, message: `bundle ${i}: the stored result says ${expected}, replay gives ${actual}` });
        }
      }
      statusesChecked = result.count;
    }
    if (Number(result.gasUsed) !== header.gasUsed) {
      this.fail({ height, kind: 'GAS_MISMATCH', expected: String(header.gasUsed), actual: String(result.gasUsed), message: `replay used ${result.gasUsed} gas, the header says ${header.gasUsed}` });
    }
    const { stateRoot, writes } = this.core.commitBlock();
    if (!bytesEqual(stateRoot, header.stateRoot)) {
      const written = writes.filter((w) => w.key[0]! < Prefix.ROOT_BUCKET);
      const before = written.map((w) => this.state.get(w.key));
      const expected = await this.options.reference?.(height, header.stateRoot, written.map((w) => w.key)).catch(() => undefined);
      const stateKeys: DivergentKey[] = written.map((w, i) => ({
        key: toHex(w.key),
        before: before[i] === undefined ? null : toHex(before[i]!),
        kind: PREFIX_NAMES.get(w.key[0]!) ?? `0x${w.key[0]!.toString(16).padStart(2, '0')}`,
        replayed: w.value === null ? null : toHex(w.value),
        ...(expected ? { expected: expected[i] === undefined ? null : toHex(expected[i]!) } : {}),
      }));
      if (expected) stateKeys.sort((a, b) => Number(a.replayed === a.expected) - Number(b.replayed === b.expected));
      this.fail({
        height, kind: 'STATE_ROOT_MISMATCH', expected: toHex(header.stateRoot), actual: toHex(stateRoot), stateKeys,
        message: `re-execution gives state root ${toHex(stateRoot)}, the header says ${toHex(header.stateRoot)}`,
      });
    }
    this.state.apply(writes);
    this.head = header;
    return { height, hash: header.hash, stateRoot, transactionsRoot: header.transactionsRoot, bundles: scan.count, gasUsed: header.gasUsed, statusesChecked };
  }

  /** The header of a stored block that is not replayed as the next (genesis, a restored head). */
  private headerOf(block: Uint8Array, height: number, what: string): BlockHeader {
    try {
      return decodeStoredBlock(block).header;
    } catch (error) {
      this.fail({ height, kind: 'MALFORMED_BLOCK', message: `${what}: ${(error as Error).message}` });
    }
  }

  private checkHash(header: BlockHeader): void {
    const problem = hashProblem(header);
    if (problem) this.fail({ height: header.height, kind: problem.kind, message: problem.message, ...problem.detail });
  }

  private fail(divergence: Divergence): never {
    throw new ReplayDivergence(divergence);
  }
}

/** Where a replay's blocks come from: a data dir, a node over JSON-RPC, or the browser's fetch. */
export interface ReplaySource {
  /** blocks by height, in the order asked; a missing one is an error of the source */
  blocks(heights: readonly number[]): Promise<RawBlock[]>;
}

export interface ReplayProgress {
  /** the block just replayed */
  block: ReplayedBlock;
  /** blocks and bundles replayed since `from` */
  blocks: number;
  bundles: number;
  /** milliseconds since the replay of `from` began */
  elapsedMs: number;
}

export interface ReplaySummary {
  from: number;
  to: number;
  /** blocks replayed in from..to (blocks below `from` were replayed too, to build their state, and checked alike) */
  blocks: number;
  bundles: number;
  statusesChecked: number;
  stateRoot: Uint8Array;
  /** milliseconds of from..to, fetching included */
  elapsedMs: number;
}

/**
 * Replay blocks 1..to after genesis, fetching the next batch while the current one executes.
 * Blocks below `from` are replayed and checked as well (their state is what `from` runs on; no
 * snapshot format exists to start from, docs/replay.md); progress and the summary count from..to.
 */
export async function replayBlocks(
  replayer: Replayer, source: ReplaySource, range: { from: number; to: number },
  options: { batch?: number; onProgress?: (p: ReplayProgress) => void } = {},
): Promise<ReplaySummary> {
  const batch = options.batch ?? 32;
  const start = replayer.headHeader!.height + 1;
  const heights = (at: number) => Array.from({ length: Math.max(0, Math.min(batch, range.to - at + 1)) }, (_, i) => at + i);
  let began = performance.now();
  let blocks = 0, bundles = 0, statusesChecked = 0;
  let next = start <= range.to ? source.blocks(heights(start)) : undefined;
  for (let at = start; next; ) {
    const current = await next;
    at += current.length;
    next = at <= range.to ? source.blocks(heights(at)) : undefined;
    // a rejected prefetch is reported when awaited, not as an unhandled rejection meanwhile
    next?.catch(() => undefined);
    for (const raw of current) {
      if (raw.height === range.from) began = performance.now();
      const block = await replayer.apply(raw);
      if (block.height < range.from) continue;
      blocks++;
      bundles += block.bundles;
      statusesChecked += block.statusesChecked;
      options.onProgress?.({ block, blocks, bundles, elapsedMs: performance.now() - began });
    }
  }
  return { from: range.from, to: range.to, blocks, bundles, statusesChecked, stateRoot: replayer.stateRoot(), elapsedMs: performance.now() - began };
}

/** svc_getRawBlock's result (docs/replay.md "Format") as a RawBlock. */
export interface RawBlockJson {
  height: number;
  hash: string;
  block: string;
  certificate: string;
  result: string | null;
  genesis?: string | null;
}

export function rawBlockFromJson(json: RawBlockJson): RawBlock {
  return {
    height: json.height,
    block: fromHex(json.block, undefined, 'block'),
    certificate: fromHex(json.certificate, undefined, 'certificate'),
    ...(json.result ? { result: fromHex(json.result, undefined, 'result') } : {}),
  };
}
