// Typed wrapper of the core's ABI (docs/core-abi.md). One Core = one long-lived wasm instance with
// its own cache of state; one JS→wasm call per block (DEPENDENCIES.md: batch work in the module).
// After a CoreAbortError the instance is unusable: every later call throws, and the caller builds a
// new Core over the committed state.

import { compileCore, instantiateCore, CoreAbortError, Wasm, type CoreExports, type StateReader, type WasmModule, type WasmSource } from './loader.js';
import { BlockResultView } from './block-result.js';
import { AUTH_UNSIGNED, AUTH_ED25519, AUTH_ML_DSA_65 } from '../abi/constants.js';
import { Status, statusName } from './status.js';
import { BundleScan } from './scan.js';
import { takeOutputBuffer } from './output-pool.js';

import { BorshWriter } from '../codec/borsh.js';
export type { StateReader } from './loader.js';
export { CoreAbortError } from './loader.js';

type U64 = bigint | number;

export interface BlockContext {
  height: U64;
  /** unix seconds */
  timestamp: U64;
  proposer: Uint8Array;
  gasPrice: U64;
  chainId: U64;
  allowUnsigned: boolean;
  blockGasLimit: U64;
  /**
   * Contract C (docs/staking.md "Misses"): consensus keys (32 bytes) of the leaders whose turn was
   * skipped before this block's proposer, from the header. Default empty.
   */
  missed?: readonly Uint8Array[];
}

/** BundleInput.auth (docs/core-abi.md "Input and output layouts"; abi/constants.mjs AUTH_*). */
export const AuthKind = { UNSIGNED: AUTH_UNSIGNED, ED25519: AUTH_ED25519, ML_DSA_65: AUTH_ML_DSA_65 } as const;

export interface BundleInput {
  /** the Borsh bundle */
  bytes: Uint8Array;
  /** 0 unsigned, 1 Ed25519 verified, 2 ML-DSA-65 verified */
  auth: number;
  /** SHA256 of the verifying key; zeros (or omitted) when unsigned */
  keyHash?: Uint8Array;
  /** the verifying key when it came from sender_pubkey */
  pubkey?: Uint8Array;
}

export type { BlockResult, BundleResult } from './block-result.js';

export interface Write {
  key: Uint8Array;
  /** null = delete */
  value: Uint8Array | null;
}

/**
 * State writes packed: every key and value back to back in `bytes`, and per write its key's length
 * and its value's (-1 deletes). The shape of src/storage/block-batch.ts PackedStateWrites.
 */
export interface PackedWrites {
  bytes: Uint8Array;
  lengths: Int32Array;
}

export interface CommitResult {
  stateRoot: Uint8Array;
  writes: Write[];
}

export interface GenesisToken {
  mint: Uint8Array;
  name: string;
  symbol: string;
  decimals: number;
  kind: number;
  creator: Uint8Array;
  originChain?: string;
  originContract?: string;
}
export interface GenesisBalance {
  account: Uint8Array;
  mint: Uint8Array;
  amount: bigint;
}
/** A genesis validator: self stake moved from `source`'s NTV balance, active from block 1. */
export interface GenesisValidator {
  consensusKey: Uint8Array;
  account: Uint8Array;
  stake: bigint;
  source: Uint8Array;
}
export interface GenesisConfig {
  chainId: U64;
  timestamp: U64;
  tokens: GenesisToken[];
  balances: GenesisBalance[];
  reservedSymbols: string[];
  /**
   * The ChainParams record (src/chain/chain-params.ts encodeChainParams). Absent: a ledger without
   * staking (no block rewards, no epochs), as the core tests' minimal genesis.
   */
  chainParams?: Uint8Array;
  validators?: GenesisValidator[];
  /**
   * The UpgradeConfig record (src/domains/upgrades/reader.ts encodeUpgradeConfig; docs/upgrades.md
   * "Governance configuration"), appended as an optional trailer after the stablecoins list.
   * Absent: the defaults, and the genesis bytes are those of a config without it.
   */
  upgradeConfig?: Uint8Array;
  /** Appended: the profiles of the genesis STD-8 stablecoins (docs/stablecoins.md "Genesis"). */
  stablecoins?: GenesisStable[];
  /**
   * The bridge attester set (docs/bridge.md "Genesis"), an optional trailer after the upgrade
   * config (written empty when absent, so the place is fixed). Absent: no attester set.
   */
  bridge?: { attesters: Uint8Array[]; threshold: number };
}
/** The profile of a genesis stablecoin (a token of kind 2 in `tokens`). */
export interface GenesisStable {
  mint: Uint8Array;
  currency: string;
  issuer: string;
  origins: { chain: string; contract: string }[];
}

export class CoreStatusError extends Error {
  constructor(
    readonly op: string,
    readonly status: number,
  ) {
    super(`${op} refused by the core: ${statusName(status)} (${status})`);
    this.name = 'CoreStatusError';
  }
}

const ZERO32 = new Uint8Array(32);
const MAX_U64 = (1n << 64n) - 1n;

function u64(name: string, v: U64): bigint {
  const b = BigInt(v);
  if (b < 0n || b > MAX_U64) throw new RangeError(`${name} out of u64 range: ${v}`);
  return b;
}
function fixed32(name: string, b: Uint8Array | undefined): Uint8Array {
  const v = b ?? ZERO32;
  if (v.length !== 32) throw new RangeError(`${name} must be 32 bytes`);
  return v;
}

export function encodeGenesisConfig(c: GenesisConfig): Uint8Array {
  const w = new BorshWriter(4096);
  w.u64(u64('chainId', c.chainId), 'chain_id');
  w.u64(u64('timestamp', c.timestamp), 'timestamp');
  w.u32(c.tokens.length, 'tokens');
  c.tokens.forEach((t, i) => {
    const at = `tokens[${i}]`;
    w.fixedBytes(t.mint, 32, `${at}.mint`);
    w.string(t.name, `${at}.name`);
    w.string(t.symbol, `${at}.symbol`);
    w.u8(t.decimals, `${at}.decimals`);
    w.u8(t.kind, `${at}.kind`);
    w.fixedBytes(t.creator, 32, `${at}.creator`);
    w.string(t.originChain ?? '', `${at}.origin_chain`);
    w.string(t.originContract ?? '', `${at}.origin_contract`);
  });
  w.u32(c.balances.length, 'balances');
  c.balances.forEach((b, i) => {
    w.fixedBytes(b.account, 32, `balances[${i}].account`);
    w.fixedBytes(b.mint, 32, `balances[${i}].mint`);
    w.u128(b.amount, `balances[${i}].amount`);
  });
  w.u32(c.reservedSymbols.length, 'reserved_symbols');
  c.reservedSymbols.forEach((symbol, i) => w.string(symbol, `reserved_symbols[${i}]`));
  w.vecBytes(c.chainParams ?? new Uint8Array(0), 'chain_params');
  const validators = c.validators ?? [];
  w.u32(validators.length, 'validators');
  validators.forEach((v, i) => {
    w.fixedBytes(v.consensusKey, 32, `validators[${i}].consensus_key`);
    w.fixedBytes(v.account, 32, `validators[${i}].account`);
    w.u128(v.stake, `validators[${i}].stake`);
    w.fixedBytes(v.source, 32, `validators[${i}].source`);
  });
  const stables = c.stablecoins ?? [];
  w.u32(stables.length, 'stablecoins');
  stables.forEach((s, i) => {
    w.fixedBytes(s.mint, 32, `stablecoins[${i}].mint`);
    w.string(s.currency, `stablecoins[${i}].currency`);
    w.string(s.issuer, `stablecoins[${i}].issuer`);
    w.u32(s.origins.length, `stablecoins[${i}].origins`);
    s.origins.forEach((o, k) => {
      w.string(o.chain, `stablecoins[${i}].origins[${k}].chain`);
      w.string(o.contract, `stablecoins[${i}].origins[${k}].contract`);
    });
  });
  // after the stablecoins (always written, so the trailer's place is fixed)
  if (c.upgradeConfig) w.vecBytes(c.upgradeConfig, 'upgrade_config');
  else if (c.bridge) w.vecBytes(new Uint8Array(0), 'upgrade_config');
  if (c.bridge) {
    const keys = new Uint8Array(c.bridge.attesters.length * 32);
    c.bridge.attesters.forEach((k, i) => { if (k.length !== 32) throw new RangeError(`bridge.attesters[${i}] must be 32 bytes`); keys.set(k, i * 32); });
    w.vecBytes(keys, 'bridge.attesters');
    w.u8(c.bridge.threshold, 'bridge.threshold');
  }
  return w.finish();
}

export class Core {
  private broken: Error | undefined;

  private constructor(private readonly x: CoreExports) {}

  /** Load the built core (release unless debug) over a state reader. */
  static async create(reader: StateReader, opts: { debug?: boolean; wasm?: WasmSource } = {}): Promise<Core> {
    const module = await compileCore(opts.wasm, { debug: opts.debug });
    return Core.fromModule(module, reader);
  }

  static async fromModule(module: WasmModule, reader: StateReader): Promise<Core> {
    return new Core(await instantiateCore(module, reader));
  }

  /** The raw exports, for tests and tools. */
  get exports(): CoreExports {
    return this.x;
  }

  private guard<T>(f: () => T): T {
    if (this.broken) throw new Error(`core instance is unusable after an abort: ${this.broken.message}`);
    try {
      return f();
    } catch (e) {
      // An abort or any trap leaves the instance in an unknown state (docs/core-abi.md "abort").
      this.broken = e instanceof Error ? e : new Error(String(e));
      if (e instanceof CoreAbortError) throw e;
      if (e instanceof Wasm.RuntimeError) throw new CoreAbortError((e as Error).message, '', 0, 0);
      throw e;
    }
  }

  private writeInput(bytes: Uint8Array): number {
    const ptr = this.x.input(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return bytes.length;
  }

  private output(): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, this.x.output_ptr(), this.x.output_len());
  }

  /**
   * Apply a genesis configuration inside the open block; follow with commitBlock(). Also takes the
   * encoded GenesisConfig (a replay gets it from svc_getRawBlock at height 0, docs/replay.md).
   */
  genesis(config: GenesisConfig | Uint8Array): void {
    const bytes = config instanceof Uint8Array ? config : encodeGenesisConfig(config);
    const st = this.guard(() => this.x.genesis(this.writeInput(bytes)));
    if (st !== Status.OK) throw new CoreStatusError('genesis', st);
  }

  /** Apply one block's bundles (opens the block checkpoint). */
  applyBlock(ctx: BlockContext, bundles: readonly BundleInput[]): BlockResultView {
    const size = blockInputSize(bundles, ctx.missed?.length ?? 0);
    // Encoding errors (a value out of range) are thrown before the core is touched.
    const ptr = this.guard(() => this.x.input(size));
    writeBlockInput(ctx, bundles, new Uint8Array(this.x.memory.buffer), new DataView(this.x.memory.buffer), ptr);
    const st = this.guard(() => this.x.apply_block(size));
    // INVALID_INPUT: the core refused the input and undid the block; the instance stays usable.
    if (st !== Status.OK) throw new CoreStatusError('apply_block', st);
    return new BlockResultView(this.output().slice());
  }

  /** Close the open block: the new root and the writes to persist, sorted by key. */
  commitBlock(): CommitResult {
    return this.guard(() => {
      this.x.commit_block();
      return decodeCommitResult(this.output().slice());
    });
  }

  /**
   * commitBlock with the writes left packed (src/storage/block-batch.ts PackedStateWrites): keys and
   * values back to back in the output's own bytes and their lengths, no object or view per write.
   * What a block executed by the node takes (docs/performance.md "Changes measured"): a
   * 10,000-transfer block writes ~61,000 records, and an object with two views each was ~45 ms.
   */
  commitBlockPacked(): { stateRoot: Uint8Array; writes: PackedWrites } {
    return this.guard(() => {
      this.x.commit_block();
      // into a reused buffer, given back once the block is applied (src/core/output-pool.ts)
      const output = this.output();
      const copy = takeOutputBuffer(output.length);
      copy.set(output);
      return packCommitResult(copy);
    });
  }

  /** Undo everything since the open block began. */
  revertBlock(): void {
    this.guard(() => this.x.revert_block());
  }

  /** The committed state root (32 bytes). */
  stateRoot(): Uint8Array {
    return this.guard(() => new Uint8Array(this.x.memory.buffer, this.x.state_root(), 32).slice());
  }

  /** Read a key through the core's cache (sees the open block's writes). */
  get(key: Uint8Array): Uint8Array | undefined {
    return this.guard(() => {
      const n = this.x.get(this.writeInput(key));
      return n < 0 ? undefined : this.output().slice();
    });
  }

  /** Keys held in the core's cache. */
  cacheSize(): number {
    return this.x.cache_size();
  }

  /**
   * Hash, decode summary and transactions root of a block's bundle section (`[u32 count]` then
   * `[u32 length][bundle]` each, the tail of src/chain/block.ts encodeBlock) in one wasm call
   * (docs/core-abi.md "Block scan"). Pure: may run while a block is open. A bundle that does not
   * decode has its status in its row; a section that is not well formed is INVALID_INPUT.
   */
  scanBundles(section: Uint8Array): BundleScan {
    const st = this.guard(() => this.x.scan_bundles(this.writeInput(section)));
    if (st !== Status.OK) throw new CoreStatusError('scan_bundles', st);
    return new BundleScan(this.output().slice());
  }

  /** The transactions root (src/chain/block.ts transactionsRoot) of 32-byte bundle hashes, in the core. */
  transactionsRoot(hashes: readonly Uint8Array[]): Uint8Array {
    for (const h of hashes) if (h.length !== 32) throw new RangeError('a bundle hash must be 32 bytes');
    const len = hashes.length * 32;
    const st = this.guard(() => {
      const mem = new Uint8Array(this.x.memory.buffer, this.x.input(len), len);
      hashes.forEach((h, i) => mem.set(h, i * 32));
      return this.x.transactions_root(len);
    });
    if (st !== Status.OK) throw new CoreStatusError('transactions_root', st);
    return this.output().slice();
  }
}

/** Byte size of a BlockInput (docs/core-abi.md). */
export function blockInputSize(bundles: readonly BundleInput[], missed = 0): number {
  let size = 8 + 8 + 32 + 8 + 8 + 1 + 8 + 4 + 32 * missed + 4;
  for (const b of bundles) size += 4 + b.bytes.length + 1 + 32 + 4 + (b.pubkey?.length ?? 0);
  return size;
}

/** Borsh-encode a BlockInput at ptr (straight into the core's memory, no intermediate copy). */
export function writeBlockInput(ctx: BlockContext, bundles: readonly BundleInput[], mem: Uint8Array, dv: DataView, ptr: number): void {
  let o = ptr;
  dv.setBigUint64(o, u64('height', ctx.height), true);
  dv.setBigUint64(o + 8, u64('timestamp', ctx.timestamp), true);
  mem.set(fixed32('proposer', ctx.proposer), o + 16);
  dv.setBigUint64(o + 48, u64('gasPrice', ctx.gasPrice), true);
  dv.setBigUint64(o + 56, u64('chainId', ctx.chainId), true);
  mem[o + 64] = ctx.allowUnsigned ? 1 : 0;
  dv.setBigUint64(o + 65, u64('blockGasLimit', ctx.blockGasLimit), true);
  const missed = ctx.missed ?? [];
  dv.setUint32(o + 73, missed.length, true);
  o += 77;
  for (const key of missed) {
    mem.set(fixed32('missed', key), o);
    o += 32;
  }
  dv.setUint32(o, bundles.length, true);
  o += 4;
  for (const b of bundles) {
    if (!Number.isInteger(b.auth) || b.auth < 0 || b.auth > 255) throw new RangeError(`auth out of u8 range: ${b.auth}`);
    dv.setUint32(o, b.bytes.length, true);
    mem.set(b.bytes, o + 4);
    o += 4 + b.bytes.length;
    mem[o] = b.auth;
    mem.set(fixed32('keyHash', b.keyHash), o + 1);
    const pk = b.pubkey;
    const pkLen = pk?.length ?? 0;
    dv.setUint32(o + 33, pkLen, true);
    if (pk && pkLen) mem.set(pk, o + 37);
    o += 37 + pkLen;
  }
}

/** A BlockInput as bytes (tools and benchmarks; applyBlock writes straight into the core). */
export function encodeBlockInput(ctx: BlockContext, bundles: readonly BundleInput[]): Uint8Array {
  const out = new Uint8Array(blockInputSize(bundles, ctx.missed?.length ?? 0));
  writeBlockInput(ctx, bundles, out, new DataView(out.buffer), 0);
  return out;
}

/**
 * The commit output `root[32] u32 n, n × (u32 key_len, key, u8 present, [u32 value_len, value])`
 * packed in place: every key and value moved down over the length fields before it (never past
 * bytes still to be read), so `b` itself becomes the packed bytes. `b` must be a copy of its own.
 */
export function packCommitResult(b: Uint8Array): { stateRoot: Uint8Array; writes: PackedWrites } {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = dv.getUint32(32, true);
  const lengths = new Int32Array(2 * n);
  let o = 36;
  let to = 36;
  for (let i = 0; i < n; i++) {
    const kl = dv.getUint32(o, true);
    b.copyWithin(to, o + 4, o + 4 + kl);
    to += kl;
    o += 4 + kl;
    lengths[2 * i] = kl;
    if (b[o] === 1) {
      const vl = dv.getUint32(o + 1, true);
      b.copyWithin(to, o + 5, o + 5 + vl);
      to += vl;
      o += 5 + vl;
      lengths[2 * i + 1] = vl;
    } else {
      lengths[2 * i + 1] = -1;
      o += 1;
    }
  }
  if (o !== b.length) throw new RangeError(`commit output: ${b.length - o} bytes after ${n} writes`);
  // the root is a copy: it outlives `b`, which may be a reused buffer (src/core/output-pool.ts)
  return { stateRoot: b.slice(0, 32), writes: { bytes: b.subarray(36, to), lengths } };
}

function decodeCommitResult(b: Uint8Array): CommitResult {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const stateRoot = b.subarray(0, 32);
  const n = dv.getUint32(32, true);
  let o = 36;
  const writes: Write[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const kl = dv.getUint32(o, true);
    const key = b.subarray(o + 4, o + 4 + kl);
    o += 4 + kl;
    if (b[o] === 1) {
      const vl = dv.getUint32(o + 1, true);
      writes[i] = { key, value: b.subarray(o + 5, o + 5 + vl) };
      o += 5 + vl;
    } else {
      writes[i] = { key, value: null };
      o += 1;
    }
  }
  return { stateRoot, writes };
}
