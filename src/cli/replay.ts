import { Command, Option } from 'clipanion';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createZstdDecompress } from 'node:zlib';
import * as tar from 'tar';
import { ExportFormatError, readStateExport } from '../storage/state-export.js';
import * as t from 'typanion';
import { encodeGenesisConfig } from '../core/core.js';
import { fromHex, toHex } from '../codec/hash.js';
import { verifyStateProof } from '../codec/state-proof.js';
import { parseHash } from '../codec/address.js';
import { decodeStoredBlock } from '../chain/block.js';
import { loadChainParamsFile, DEFAULT_CHAIN_PARAMS } from '../chain/chain-params.js';
import { CHAIN_IDS, type Network } from '../chain/genesis-data.js';
import { genesisConfig } from '../chain/genesis.js';
import {
  Replayer, ReplayDivergence, replayBlocks, type RawBlock, type RawBlockJson, type ReferenceState, type ReplaySource,
} from '../chain/replay.js';
import { BlockArchive } from '../storage/block-archive.js';
import { RpcClient } from '../client/rpc-client.js';
import { fetchRawBlocks } from '../client/raw-blocks.js';
import { stateProofFromJson, type GetProofResult } from '../client/proof.js';
import { parseGenesisValidators } from './run.js';

const isHeight = t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]);
/** how many differing keys the RPC source asks proofs for (one call each, batched) */
const REFERENCE_KEYS = 256;

/**
 * `ntv-node replay`: re-execute stored blocks through build/core.wasm and check every block as a
 * validator would, against its state root, transactions root and bundle statuses (docs/replay.md).
 * From a data dir (copied, never written) or from any node over JSON-RPC; no running node needed.
 */
export class ReplayCommand extends Command {
  static override paths = [['replay']];

  static override usage = Command.Usage({
    description: 'Replay blocks through the WebAssembly core from genesis and check every root and bundle status; a divergence exits 1 with a JSON report on stdout (docs/replay.md).',
    examples: [
      ['Every block of a stopped or running node\'s data dir', 'ntv-node replay -d ./data'],
      ['Blocks 1,000 to 2,000 of a node over JSON-RPC', 'ntv-node replay --rpc http://127.0.0.1:9933 --from 1000 --to 2000'],
    ],
  });

  dataDir = Option.String('-d,--data-dir', { description: 'Data directory to read (copied to a temporary folder; nothing is written to it)' });
  rpc = Option.String('--rpc', { description: 'JSON-RPC URL of a node to fetch blocks from (svc_getRawBlock)' });
  from = Option.String('--from', '1', { description: 'First height reported; lower blocks are replayed and checked too, to build its state (default: 1)', validator: isHeight });
  to = Option.String('--to', { description: 'Last height (default: the head)', validator: isHeight });
  network = Option.String('--network', { description: 'Network of the chain (default: the one of the genesis block\'s chain id)', validator: t.isEnum(['testnet', 'mainnet'] as const) });
  genesisValidators = Option.String('--genesis-validators', {
    description: 'The node\'s --genesis-validators (default: the node\'s own genesis over --rpc; from a data dir, block 1\'s proposer alone, as `ntv-node run` without the flag)',
  });
  chainParams = Option.String('--chain-params', { description: 'The node\'s --chain-params file (default: the spec defaults)' });
  batch = Option.String('--batch', '32', { description: 'Blocks fetched per read (default: 32)', validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 1000)]) });
  fromState = Option.String('--from-state', {
    description: 'Start from a state export (ntv-node export, .ntvx) or a snapshot (.tar.zst) instead of genesis: its records are verified, must give its head block\'s state root, and the blocks after it are replayed (default: genesis)',
  });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'No progress lines (default: off)' });

  async execute(): Promise<number> {
    const err = (text: string) => this.context.stderr.write(`${text}\n`);
    if ((this.dataDir === undefined) === (this.rpc === undefined)) {
      err('replay: give exactly one of --data-dir and --rpc');
      return 2;
    }
    let source: OpenSource;
    try {
      source = this.dataDir !== undefined ? await dataDirSource(this.dataDir) : await rpcSource(this.rpc!);
    } catch (error) {
      err(`replay: ${(error as Error).message}`);
      return 2;
    }
    try {
      const to = this.to ?? source.head;
      if (to > source.head) throw new UsageError(`--to ${to} is above the source's head ${source.head}`);
      if (this.from > to) throw new UsageError(`--from ${this.from} is above --to ${to}`);
      const replayer = await Replayer.create({ reference: source.reference });
      if (this.fromState !== undefined) {
        const start = await loadState(this.fromState, replayer);
        if (start.chainId !== undefined && start.chainId !== decodeStoredBlock((await source.blocks([0]))[0]!.block).header.chainId) {
          throw new UsageError(`${this.fromState} is of chain ${start.chainId}, the source's genesis of another`);
        }
        if (start.height > to) throw new UsageError(`${this.fromState} is at height ${start.height}, above --to ${to}`);
        err(`replay: starting from ${this.fromState} at height ${start.height}, state root ${toHex(replayer.stateRoot())}`);
      } else {
        const [block0] = await source.blocks([0]);
        const genesis = source.genesis ?? this.genesisFromFlags(block0!, source.head >= 1 ? (await source.blocks([1]))[0] : undefined);
        replayer.genesis(genesis, block0!);
      }
      let lastLine = 0;
      const summary = await replayBlocks(replayer, source, { from: Math.max(1, this.from), to }, {
        batch: this.batch,
        onProgress: (p) => {
          const now = performance.now();
          if (this.quiet || (now - lastLine < 1000 && p.block.height !== to)) return;
          lastLine = now;
          err(`replayed ${p.block.height}/${to}: ${p.blocks} blocks, ${p.bundles} bundles, ${rate(p.blocks, p.elapsedMs)} blocks/s, state root ${toHex(p.block.stateRoot)}`);
        },
      });
      this.context.stdout.write(`${JSON.stringify({
        ok: true, from: summary.from, to: summary.to, blocks: summary.blocks, bundles: summary.bundles, statuses_checked: summary.statusesChecked,
        state_root: toHex(summary.stateRoot), seconds: Number((summary.elapsedMs / 1000).toFixed(3)), blocks_per_second: rate(summary.blocks, summary.elapsedMs),
      }, null, 2)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ReplayDivergence) {
        err(`replay diverged: ${error.message}`);
        this.context.stdout.write(`${JSON.stringify({ ok: false, divergence: error.divergence }, null, 2)}\n`);
        return 1;
      }
      err(`replay: ${(error as Error).message}`);
      return 2;
    } finally {
      await source.close();
    }
  }

  /** The encoded GenesisConfig from the node's genesis flags, as `ntv-node run` builds it. */
  private genesisFromFlags(block0: RawBlock, block1: RawBlock | undefined): Uint8Array {
    const header0 = decodeStoredBlock(block0.block).header;
    const network = this.network ?? (Object.keys(CHAIN_IDS) as Network[]).find((n) => CHAIN_IDS[n] === header0.chainId);
    if (!network) throw new UsageError(`the genesis block is of chain ${header0.chainId}, no known network: pass --network`);
    let validators: Uint8Array[];
    if (this.genesisValidators !== undefined) validators = parseGenesisValidators(this.genesisValidators);
    else if (block1) validators = [decodeStoredBlock(block1.block).header.proposerPubkey];
    else throw new UsageError('the chain has no block 1 to take the genesis validator from: pass --genesis-validators');
    const params = this.chainParams === undefined ? DEFAULT_CHAIN_PARAMS : loadChainParamsFile(this.chainParams);
    return encodeGenesisConfig(genesisConfig(network, { validators, params }));
  }
}

class UsageError extends Error {}

/**
 * Load a state export, or the export inside a snapshot (src/operator/snapshots.ts: a .tar.zst holding
 * state.ntvx), into the replayer's state: every check of an import (framing, key order, checksum,
 * the root recomputed from the records), then `resume` from its head block.
 */
async function loadState(file: string, replayer: Replayer): Promise<{ height: number; chainId: number | undefined }> {
  let path = file;
  let work: string | undefined;
  try {
    if (file.endsWith('.tar.zst')) {
      work = await mkdtemp(join(tmpdir(), 'ntv-replay-'));
      try {
        await pipeline(createReadStream(file), createZstdDecompress(), tar.x({ cwd: work, strict: true }) as unknown as NodeJS.WritableStream);
      } catch (error) {
        throw new UsageError(`${file} is not a sound .tar.zst snapshot (${(error as Error).message})`);
      }
      if (!(await readdir(work)).includes('state.ntvx')) throw new UsageError(`${file} holds no state.ntvx`);
      path = join(work, 'state.ntvx');
    }
    let head: Uint8Array | undefined;
    let chainId: number | undefined;
    try {
      await readStateExport(path, {
        onHead: (manifest, h) => { head = h.block; chainId = manifest.chainId; },
        onRecords: (records) => { for (const [key, value] of records) replayer.state.load(key, value); },
      });
    } catch (error) {
      if (error instanceof ExportFormatError) throw new UsageError(`${file} is refused: ${error.message}`);
      throw error;
    }
    const start = replayer.resume(head!);
    return { height: start.height, chainId };
  } finally {
    if (work) await rm(work, { recursive: true, force: true });
  }
}

function rate(blocks: number, ms: number): number {
  return ms > 0 ? Math.round((blocks * 1000 * 10) / ms) / 10 : 0;
}

interface OpenSource extends ReplaySource {
  head: number;
  /** the encoded GenesisConfig, when the source serves it */
  genesis?: Uint8Array;
  reference?: ReferenceState;
  close(): Promise<void>;
}

/** A data dir, copied (storage/block-archive.ts); its state is the head's, so it names the differing keys of a head block. */
async function dataDirSource(dataDir: string): Promise<OpenSource> {
  const archive = await BlockArchive.open(dataDir);
  return {
    head: archive.head,
    blocks: async (heights) => (await archive.blocks(heights)).map((b, i) => {
      if (!b) throw new Error(`the data dir holds no block ${heights[i]} (below its head ${archive.head})`);
      return { height: b.height, block: b.block, certificate: b.certificate, ...(b.result ? { result: b.result } : {}), bundleHashes: b.bundleHashes };
    }),
    reference: async (height, _root, keys) => (height === archive.head ? archive.state(keys) : undefined),
    close: () => archive.close(),
  };
}

/** A node over JSON-RPC: blocks by svc_getRawBlock in one batch per read; state at its head by verified svc_getProof. */
async function rpcSource(url: string): Promise<OpenSource> {
  const client = new RpcClient(url);
  const [head] = await client.call<Array<{ height: number }>>('svc_getRecentBlocks', [1]);
  const block0 = await client.call<RawBlockJson>('svc_getRawBlock', [0]);
  return {
    head: head!.height,
    ...(block0.genesis ? { genesis: fromHex(block0.genesis, undefined, 'genesis') } : {}),
    blocks: (heights) => fetchRawBlocks(client, heights),
    reference: async (height, stateRoot, keys) => {
      const asked = keys.slice(0, REFERENCE_KEYS);
      const replies = await client.batch(asked.map((k) => ({ method: 'svc_getProof', params: [`0x${toHex(k)}`, null, height] })));
      const values: Array<Uint8Array | undefined> = [];
      for (const r of replies) {
        if (!r.ok) return undefined; // the node has moved past this height: no state to compare with
        const result = r.result as GetProofResult;
        // The node's answer counts only with a proof against the diverging header's own root.
        if (toHex(parseHash(result.state_root)) !== toHex(stateRoot)) return undefined;
        const check = verifyStateProof(stateProofFromJson(result), stateRoot);
        if (!check.ok) return undefined;
        values.push(check.value);
      }
      return values.length === keys.length ? values : undefined;
    },
    close: async () => undefined,
  };
}
