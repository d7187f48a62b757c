import { blake3, keyedBlake3 } from '../codec/hash.js';
import { bundleViews } from '../codec/block-bundles.js';

export { storedBundles } from '../codec/block-bundles.js';

/**
 * A block header (issue: "Ed25519-signed block headers"; spec §6 newHeads fields). Hashes and
 * addresses are raw bytes here; the RPC layer shows them in native formats (spec §6.3).
 */
export interface BlockHeader {
  chainId: number;
  height: number;
  parentHash: Uint8Array;
  /** unix seconds (spec §6) */
  timestamp: number;
  proposer: Uint8Array;
  proposerPubkey: Uint8Array;
  stateRoot: Uint8Array;
  transactionsRoot: Uint8Array;
  gasUsed: number;
  gasLimit: number;
  /** nanoNTV per gas unit in force for this block */
  baseFee: number;
  bundleCount: number;
  /**
   * Failover round of this height (0 = the slot leader proposed; docs/consensus.md "Rounds"). The
   * proposer must be the leader of this round at the parent's validator set.
   */
  round: number;
  /** consensus keys of the leaders of rounds 0..round−1, whose turn was skipped */
  missed: Uint8Array[];
  hash: Uint8Array;
  signature: Uint8Array;
}

export type UnsignedHeader = Omit<BlockHeader, 'hash' | 'signature'>;

export interface Block {
  header: BlockHeader;
  /** Borsh bundles in execution order */
  bundles: Uint8Array[];
  bundleHashes: Uint8Array[];
}

/**
 * The bytes a header's hash covers: every field but the hash and the signature, fixed-width
 * little-endian, so that any implementation can recompute it.
 */
export function headerSigningBytes(h: UnsignedHeader): Uint8Array {
  const missed = h.missed ?? [];
  const out = new Uint8Array(8 + 8 + 32 + 8 + 32 + 32 + 32 + 32 + 8 + 8 + 8 + 4 + 4 + 4 + 32 * missed.length);
  const view = new DataView(out.buffer);
  let o = 0;
  view.setBigUint64(o, BigInt(h.chainId), true); o += 8;
  view.setBigUint64(o, BigInt(h.height), true); o += 8;
  out.set(h.parentHash, o); o += 32;
  view.setBigUint64(o, BigInt(h.timestamp), true); o += 8;
  out.set(h.proposer, o); o += 32;
  out.set(h.proposerPubkey, o); o += 32;
  out.set(h.stateRoot, o); o += 32;
  out.set(h.transactionsRoot, o); o += 32;
  view.setBigUint64(o, BigInt(h.gasUsed), true); o += 8;
  view.setBigUint64(o, BigInt(h.gasLimit), true); o += 8;
  view.setBigUint64(o, BigInt(h.baseFee), true); o += 8;
  view.setUint32(o, h.bundleCount, true); o += 4;
  // Consensus fields (docs/consensus.md): round u32, then the missed leaders' keys, u32 count first.
  view.setUint32(o, h.round ?? 0, true); o += 4;
  view.setUint32(o, missed.length, true); o += 4;
  for (const key of missed) {
    if (key.length !== 32) throw new RangeError('a missed leader key must be 32 bytes');
    out.set(key, o); o += 32;
  }
  return out;
}

export function headerHash(h: UnsignedHeader): Uint8Array {
  return blake3(headerSigningBytes(h));
}

/**
 * The inverse of `headerSigningBytes`: the canonical binary header that double-sign evidence
 * carries (ReportDoubleSign header_a/header_b, docs/consensus.md "Double-sign evidence"). Its
 * Blake3 is the block hash, so a signature over that hash binds the proposer to these bytes.
 */
export function decodeHeaderBytes(bytes: Uint8Array): UnsignedHeader {
  const fixed = 8 + 8 + 32 + 8 + 32 + 32 + 32 + 32 + 8 + 8 + 8 + 4 + 4 + 4;
  if (bytes.length < fixed) throw new RangeError(`header bytes too short: ${bytes.length} < ${fixed}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  const u64 = () => { const v = Number(view.getBigUint64(o, true)); o += 8; return v; };
  const b32 = () => { const v = bytes.slice(o, o + 32); o += 32; return v; };
  const chainId = u64();
  const height = u64();
  const parentHash = b32();
  const timestamp = u64();
  const proposer = b32();
  const proposerPubkey = b32();
  const stateRoot = b32();
  const txRoot = b32();
  const gasUsed = u64();
  const gasLimit = u64();
  const baseFee = u64();
  const bundleCount = view.getUint32(o, true); o += 4;
  const round = view.getUint32(o, true); o += 4;
  const count = view.getUint32(o, true); o += 4;
  if (bytes.length !== fixed + 32 * count) throw new RangeError(`header bytes: ${bytes.length} bytes for ${count} missed leaders`);
  const missed: Uint8Array[] = [];
  for (let i = 0; i < count; i++) missed.push(b32());
  return {
    chainId, height, parentHash, timestamp, proposer, proposerPubkey, stateRoot, transactionsRoot: txRoot,
    gasUsed, gasLimit, baseFee, bundleCount, round, missed,
  };
}

/**
 * The key of every inner node of the transactions tree: Blake3("ntv.transactions-root.node")
 * (ASCII), written out because it is part of the block format; assembly/scan.ts K_TX_NODE holds the
 * same bytes (docs/core-abi.md "Block scan").
 */
export const TX_NODE_KEY = Uint8Array.of(
  152, 210, 156, 2, 245, 28, 42, 63, 85, 180, 99, 247, 30, 136, 83, 235,
  100, 98, 72, 202, 156, 79, 241, 168, 64, 2, 42, 35, 48, 208, 42, 46,
);

/**
 * Binary Merkle root over the bundle hashes in block order (docs/core-abi.md "Block scan"; the
 * core's transactions_root computes the same). The leaves are the bundle hashes themselves; an
 * inner node is Blake3 keyed_hash(TX_NODE_KEY, left ‖ right), 64 bytes and so one compression; an
 * odd last node is carried up unchanged; one bundle's root is its hash, and an empty block has 32
 * zero bytes. A keyed hash is another function than the plain Blake3 that made the bundle hashes,
 * so no domain byte is needed to keep a node from passing for a bundle hash.
 */
export function transactionsRoot(bundleHashes: Uint8Array[]): Uint8Array {
  if (bundleHashes.length === 0) return new Uint8Array(32);
  // A fresh array, never the caller's hash, also for one bundle.
  if (bundleHashes.length === 1) return bundleHashes[0]!.slice();
  let level = bundleHashes;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      if (i + 1 === level.length) {
        next.push(level[i]!);
        continue;
      }
      // ~1,000 nodes for a block of 1,000 bundles, made or imported: left ‖ right is assembled in
      // one reused buffer rather than allocated per node (the hasher is synchronous and copies it).
      nodeInput.set(level[i]!, 0);
      nodeInput.set(level[i + 1]!, 32);
      next.push(hashNode(nodeInput));
    }
    level = next;
  }
  return level[0]!;
}

/** left ‖ right: an inner node's input */
const nodeInput = new Uint8Array(64);
const hashNode = await keyedBlake3(TX_NODE_KEY);

/** Stored form: [u32 header JSON length][header JSON][u32 count]([u32 length][bundle])*. */
export function encodeBlock(block: Block): Uint8Array {
  const h = block.header;
  const json = Buffer.from(JSON.stringify({
    chainId: h.chainId, height: h.height, parentHash: hex(h.parentHash), timestamp: h.timestamp,
    proposer: hex(h.proposer), proposerPubkey: hex(h.proposerPubkey), stateRoot: hex(h.stateRoot),
    transactionsRoot: hex(h.transactionsRoot), gasUsed: h.gasUsed, gasLimit: h.gasLimit,
    baseFee: h.baseFee, bundleCount: h.bundleCount, round: h.round ?? 0, missed: (h.missed ?? []).map(hex),
    hash: hex(h.hash), signature: hex(h.signature),
  }));
  let size = 4 + json.length + 4;
  for (const b of block.bundles) size += 4 + b.length;
  const out = Buffer.allocUnsafe(size);
  let o = out.writeUInt32LE(json.length, 0);
  o += json.copy(out, o);
  o = out.writeUInt32LE(block.bundles.length, o);
  for (const b of block.bundles) {
    o = out.writeUInt32LE(b.length, o);
    out.set(b, o);
    o += b.length;
  }
  return out;
}

export function decodeBlock(bytes: Uint8Array, hashBundle: (b: Uint8Array) => Uint8Array): Block {
  const { header, bundles } = decodeStoredBlock(bytes);
  return { header, bundles, bundleHashes: bundles.map(hashBundle) };
}

/** The header and the bundles (views into `bytes`) of a stored block, without hashing the bundles. */
export function decodeStoredBlock(bytes: Uint8Array): { header: BlockHeader; bundles: Uint8Array[]; bundlesAt: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = buf.readUInt32LE(0);
  const raw = JSON.parse(buf.subarray(4, 4 + jsonLength).toString()) as Record<string, string | number | string[]>;
  const header = {
    chainId: raw.chainId as number, height: raw.height as number, parentHash: unhex(raw.parentHash as string),
    timestamp: raw.timestamp as number, proposer: unhex(raw.proposer as string),
    proposerPubkey: unhex(raw.proposerPubkey as string), stateRoot: unhex(raw.stateRoot as string),
    transactionsRoot: unhex(raw.transactionsRoot as string), gasUsed: raw.gasUsed as number,
    gasLimit: raw.gasLimit as number, baseFee: raw.baseFee as number, bundleCount: raw.bundleCount as number,
    round: (raw.round as number | undefined) ?? 0, missed: ((raw.missed as string[] | undefined) ?? []).map(unhex),
    hash: unhex(raw.hash as string), signature: unhex(raw.signature as string),
  };
  const bundlesAt = 4 + jsonLength;
  const bundles = bundleViews(bytes, bundlesAt);
  return { header, bundles, bundlesAt };
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function unhex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}
