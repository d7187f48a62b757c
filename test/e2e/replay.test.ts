/**
 * Auditors (docs/replay.md): a chain made by a running node (transfers, a token, a DEX pool and a
 * swap, an intent, an NFT collection, staking with epochs) is replayed through the core by
 * `ntv-node replay`, over JSON-RPC and from the data dir, to the same root at every block; the data
 * dir is left byte for byte as it was; a block altered on disk stops the replay at its height with
 * the report (height, bundle, expected and actual roots, differing state keys). svc_getRawBlock and
 * svc_getProof over JSON-RPC, and the client library's verifier, accept true proofs and refuse
 * tampered ones and proofs against another root.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Level } from 'level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { decodeStoredBlock, encodeBlock, headerHash, transactionsRoot } from '../../src/chain/block.js';
import { bundleHash, decodeBundle, encodeBundle } from '../../src/codec/bundle.js';
import { ed25519PublicKey, signEd25519 } from '../../src/codec/keys.js';
import { parseHash } from '../../src/codec/address.js';
import { blockKey, Prefix, prefixed, u64 } from '../../src/storage/keys.js';
import { decodeCertificate, encodeCertificate, signVote } from '../../src/chain/votes.js';
import { decodeLocation, segmentPath } from '../../src/storage/block-files.js';
import { NATIVE_MINT, parseAddress } from '../../src/codec/address.js';
import { ProofError, verifyBalanceProof, verifyProofResult, type GetProofResult } from '../../src/client/proof.js';
import type { Divergence } from '../../src/chain/replay.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');
const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7);
const alice = '0x' + randomBytes(32).toString('hex');
const bob = '0x' + randomBytes(32).toString('hex');

let dir: string;
let params: string;
let node: TestNode;
const scratch: string[] = [];

interface Receipt { status: string; block_height: number; created?: { collection?: string } }
interface Header { height: number; hash: string; stateRoot: string; transactionsRoot: string; transactions?: string[] }
interface RawBlockJson { height: number; hash: string; block: string; certificate: string; result: string | null; genesis?: string | null }

function replay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [MAIN, 'replay', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** Every file under `path` with its size and modification time: the data dir must not change. */
async function listing(path: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const s = await stat(file);
    out.push(`${file} ${s.size} ${s.mtimeMs}`);
  }
  return out.sort();
}

/** Where block `height` is in a copied data dir's block files. */
async function locate(dataDir: string, height: number) {
  const db = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  try {
    const location = decodeLocation((await db.get(blockKey(height)))!);
    return { file: segmentPath(join(dataDir, 'blocks'), location.segment), offset: location.offset, length: location.blockLength };
  } finally {
    await db.close();
  }
}

async function copyDataDir(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'ntv-replay-copy-'));
  scratch.push(copy);
  await cp(dir, copy, { recursive: true });
  return copy;
}

let transferHeight = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-replay-'));
  params = join(await mkdtemp(join(tmpdir(), 'ntv-replay-params-')), 'params.json');
  scratch.push(join(params, '..'));
  // Short epochs, so the replayed chain crosses epoch ends (rewards, the active set) several times.
  await writeFile(params, JSON.stringify({ epoch_length: 5 }));
  node = await TestNode.start({ dataDir: dir, args: ['--block-time', '0.5', '--chain-params', params] });
  const ok = async (method: string, args: unknown[]) => {
    const receipt = await node.result<Receipt>(method, args);
    expect(receipt.status, method).toBe('success');
    return receipt;
  };
  for (const who of [alice, bob]) await ok('svc_transfer', [RICH, who, 'NTV', (50_000n * NTV).toString()]);
  await ok('svc_createToken', ['Auditor Coin', 'AUDC', 9, (1_000_000n * NTV).toString(), alice]);
  await ok('svc_createPool', ['AUDC', 'NTV', (100_000n * NTV).toString(), (10_000n * NTV).toString(), 0, alice]);
  await ok('svc_swap', ['NTV', 'AUDC', (10n * NTV).toString(), '1', bob]);
  await node.result('svc_submitIntent', ['swap 5 NTV for AUDC', bob]);
  const collection = (await ok('svc_createNftCollection', ['Ledgers', 'LDG', 'ipfs://ldg/', 10, 100, alice, 'Audited', '', null])).created!.collection!;
  await ok('svc_mintNft', [collection, 1, 'ipfs://ldg/1.json', alice, alice]);
  await ok('svc_transferNft', [collection, 1, bob, alice]);
  await ok('svc_stake', [alice, (1_000n * NTV).toString(), randomBytes(32).toString('hex')]);
  await ok('svc_transfer', [alice, bob, 'AUDC', '12345']);
  // past two more epoch ends: the new validator enters the active set
  await node.waitForHeight((await node.result<Header[]>('svc_getRecentBlocks', [1]))[0]!.height + 11, 30_000);
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await rm(dir, { recursive: true, force: true });
  for (const path of scratch) await rm(path, { recursive: true, force: true });
});

describe('svc_getRawBlock and ntv-node replay over JSON-RPC', () => {
  it('serves every block as stored: its hash, the genesis input at 0, NOT_FOUND above the head', async () => {
    const block0 = await node.result<RawBlockJson>('svc_getRawBlock', [0]);
    expect(block0.genesis).toMatch(/^([0-9a-f]{2})+$/);
    expect(block0.result).toBeNull();
    const head = (await node.result<Header[]>('svc_getRecentBlocks', [1]))[0]!;
    const raw = await node.result<RawBlockJson>('svc_getRawBlock', [head.height]);
    expect(raw.hash).toBe(head.hash);
    const { header } = decodeStoredBlock(Buffer.from(raw.block, 'hex'));
    expect(Buffer.from(header.stateRoot)).toEqual(Buffer.from(parseHash(head.stateRoot)));
    expect(Buffer.from(headerHash(header))).toEqual(Buffer.from(parseHash(head.hash)));
    const missing = await node.call('svc_getRawBlock', [head.height + 1000]);
    expect(missing.error).toMatchObject({ code: -32003, message: expect.stringMatching(/no block at height/) });
    expect((await node.call('svc_getRawBlock', [-1])).error?.code).toBe(-32602);
    expect((await node.call('svc_getRawBlock', ['7'])).error?.code).toBe(-32602);
  });

  it('replays every block of the running node to the same roots and statuses', async () => {
    const head = (await node.result<Header[]>('svc_getRecentBlocks', [1]))[0]!.height;
    const run = await replay(['--rpc', node.url, '--to', String(head)]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ ok: true, from: 1, to: head, blocks: head });
    expect(summary.bundles).toBeGreaterThanOrEqual(11);
    expect(summary.statuses_checked).toBe(summary.bundles);
    const block = await node.result<Header>('svc_getBlockByHeight', [head]);
    expect(summary.state_root).toBe(Buffer.from(parseHash(block.stateRoot)).toString('hex'));
    expect(run.stderr).toMatch(new RegExp(`replayed ${head}/${head}: ${head} blocks`));
  }, 60_000);

  it('refuses bad arguments with exit 2 and a message', async () => {
    const [none, high, missing] = await Promise.all([replay([]), replay(['--rpc', node.url, '--from', '100000']), replay(['-d', join(dir, 'nope')])]);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/exactly one of --data-dir and --rpc/) });
    expect(high).toMatchObject({ code: 2, stderr: expect.stringMatching(/above/) });
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/not a node data directory/) });
  }, 90_000);
});

describe('svc_getProof and the client verifier', () => {
  it('proves a balance, an account record and an absent balance against the head header\'s state root', async () => {
    const proof = await node.result<GetProofResult>('svc_getProof', [bob, 'NTV']);
    const header = await node.result<Header>('svc_getBlockByHeight', [proof.height]);
    const root = parseHash(header.stateRoot);
    expect(proof.state_root).toBe(header.stateRoot);
    expect(verifyBalanceProof(proof, bob, NATIVE_MINT, root)).toBe(BigInt(proof.balance!));
    expect(BigInt(proof.balance!)).toBeGreaterThan(0n);

    const account = await node.result<GetProofResult>('svc_getProof', [alice]);
    expect(verifyProofResult(account, parseHash(account.state_root))).toBeDefined();
    const nobody = '0x' + randomBytes(32).toString('hex');
    const absent = await node.result<GetProofResult>('svc_getProof', [nobody, 'NTV']);
    expect(absent.value).toBeNull();
    expect(absent.balance).toBe('0');
    const absentRoot = parseHash((await node.result<Header>('svc_getBlockByHeight', [absent.height])).stateRoot);
    expect(verifyBalanceProof(absent, nobody, NATIVE_MINT, absentRoot)).toBe(0n);
    // a raw key: the same balance key as hex
    const byKey = await node.result<GetProofResult>('svc_getProof', [`0x${proof.key}`]);
    expect(byKey.key).toBe(proof.key);
  });

  it('rejects a tampered proof, a lying balance, another key and a proof against another root', async () => {
    const proof = await node.result<GetProofResult>('svc_getProof', [bob, 'NTV']);
    const root = parseHash(proof.state_root);
    const flip = (hex: string, at: number) => hex.slice(0, at) + ((parseInt(hex[at]!, 16) ^ 1).toString(16)) + hex.slice(at + 1);
    expect(() => verifyBalanceProof({ ...proof, value: flip(proof.value!, 3) }, bob, NATIVE_MINT, root)).toThrow(ProofError);
    expect(() => verifyBalanceProof({ ...proof, balance: (BigInt(proof.balance!) + 1n).toString() }, bob, NATIVE_MINT, root)).toThrow(/the node says/);
    expect(() => verifyBalanceProof({ ...proof, proof: { ...proof.proof, siblings: proof.proof.siblings.map((s, i) => (i === 15 ? flip(s, 0) : s)) } }, bob, NATIVE_MINT, root)).toThrow(/another state root/);
    expect(() => verifyBalanceProof({ ...proof, proof: { ...proof.proof, entries: flip(proof.proof.entries, 70) } }, bob, NATIVE_MINT, root)).toThrow(ProofError);
    expect(() => verifyBalanceProof(proof, alice, NATIVE_MINT, root)).toThrow(/another key/);
    const olderHeader = await node.result<Header>('svc_getBlockByHeight', [proof.height - 3]);
    const older = parseHash(olderHeader.stateRoot);
    expect(() => verifyBalanceProof(proof, bob, NATIVE_MINT, older)).toThrow(/another state root/);
    // the node's own root, swapped for another, is refused by the proof itself
    expect(() => verifyProofResult({ ...proof, state_root: olderHeader.stateRoot }, older)).toThrow(/another state root/);
  });

  it('answers bad input with clear errors: heights above the head, unknown tokens, malformed keys; a past height is proven', async () => {
    const head = (await node.result<Header[]>('svc_getRecentBlocks', [1]))[0]!.height;
    // a past block's state is served (docs/storage.md "State history"): the proof is against that block's root
    const past = await node.result<GetProofResult>('svc_getProof', [bob, 'NTV', 1]);
    expect(past.height).toBe(1);
    expect(verifyBalanceProof(past, bob, NATIVE_MINT, parseHash((await node.result<Header>('svc_getBlockByHeight', [1])).stateRoot))).toBe(BigInt(past.balance!));
    expect((await node.call('svc_getProof', [bob, 'NTV', head + 1000])).error).toMatchObject({ code: -32003, message: expect.stringMatching(/head is/) });
    expect((await node.call('svc_getProof', [bob, 'NOPE'])).error?.code).toBe(-32009);
    expect((await node.call('svc_getProof', ['0xzz'])).error).toMatchObject({ code: -32602, message: expect.stringMatching(/key_or_address/) });
    expect((await node.call('svc_getProof', ['0xf00001'])).error).toMatchObject({ code: -32602, message: expect.stringMatching(/state tree itself/) });
    expect((await node.call('svc_getProof', ['0x0102', 'NTV'])).error).toMatchObject({ code: -32602, message: expect.stringMatching(/an address when a token/) });
    expect(head).toBeGreaterThan(1);
  });
});

describe('ntv-node replay from the data dir', () => {
  it('replays the stopped node\'s data dir to the same roots and writes nothing to it', async () => {
    await node.stop();
    // The last block: one transfer, under a 12 s idle interval so the node stops with it as its head.
    node = await TestNode.start({ dataDir: dir, args: ['--block-time', '12', '--chain-params', params] });
    transferHeight = (await node.result<Receipt>('svc_transfer', [bob, alice, 'NTV', '777'])).block_height;
    await node.stop();
    const before = await listing(dir);
    const run = await replay(['-d', dir, '--chain-params', params, '-q']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, to: transferHeight, blocks: transferHeight });
    expect(await listing(dir)).toEqual(before);
    // without the chain parameters the genesis differs: a clear report at height 0
    const wrong = await replay(['-d', dir, '-q']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout).divergence).toMatchObject({ height: 0, kind: 'GENESIS_MISMATCH' });
  }, 90_000);

  it('stops at a block whose bundle bytes were altered on disk, naming the height, the bundle and both roots', async () => {
    const copy = await copyDataDir();
    const height = transferHeight; // a block with a bundle
    const { file, offset, length } = await locate(copy, height);
    const handle = await open(file, 'r+');
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, offset);
    const stored = decodeStoredBlock(bytes);
    const at = stored.bundlesAt + 4 + 4 + 40; // inside the first bundle: its nonce
    bytes[at] = bytes[at]! ^ 0x01;
    await handle.write(bytes, at, 1, offset + at);
    await handle.close();
    const run = await replay(['-d', copy, '--chain-params', params, '-q']);
    expect(run.code).toBe(1);
    const { divergence } = JSON.parse(run.stdout) as { divergence: Divergence };
    expect(divergence).toMatchObject({
      height, kind: 'BAD_TRANSACTIONS_ROOT', bundle: 0,
      expected: Buffer.from(stored.header.transactionsRoot).toString('hex'),
      actual: expect.not.stringMatching(Buffer.from(stored.header.transactionsRoot).toString('hex')),
    });
    expect(run.stderr).toMatch(new RegExp(`height ${height}: BAD_TRANSACTIONS_ROOT`));
  }, 60_000);

  it('stops at a re-signed block whose transfer amount was changed, with the roots and the differing state keys', async () => {
    const copy = await copyDataDir();
    const { file, offset, length } = await locate(copy, transferHeight);
    const original = await readFile(file).then((b) => b.subarray(offset, offset + length));
    const stored = decodeStoredBlock(original);
    const index = stored.bundles.findIndex((b) => decodeBundle(b).operations.some((op) => op.type === 'Transfer'));
    const bundle = decodeBundle(stored.bundles[index]!);
    const op = bundle.operations.find((o) => o.type === 'Transfer')! as { amount: bigint };
    op.amount += 1n;
    const bundles = stored.bundles.map((b, i) => (i === index ? encodeBundle(bundle) : b));
    const hashes = bundles.map(bundleHash);
    // The proposer's own key re-signs it (the one forgery a certificate of one validator cannot tell):
    // the header is consistent, only re-execution finds the state root wrong.
    const { hash: _h, signature: _s, ...unsigned } = { ...stored.header, transactionsRoot: transactionsRoot(hashes) };
    const hash = headerHash(unsigned);
    const seed = Buffer.from((await readFile(join(copy, 'validator.key'), 'utf8')).trim(), 'hex');
    const forged = encodeBlock({ header: { ...unsigned, hash, signature: signEd25519(seed, hash) }, bundles, bundleHashes: hashes });
    expect(forged.length).toBe(length);
    const handle = await open(file, 'r+');
    await handle.write(forged, 0, length, offset);
    await handle.close();
    // and its certificate: the same validator's vote, on the forged hash
    const db = new Level<Uint8Array, Uint8Array>(join(copy, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    const certificateKey = prefixed(Prefix.Certificate, u64(transferHeight));
    const certificate = decodeCertificate((await db.get(certificateKey))!);
    const publicKey = ed25519PublicKey(seed);
    const vote = signVote(seed, publicKey, { height: transferHeight, round: 0, blockHash: hash, epoch: certificate.epoch, stateRoot: stored.header.stateRoot });
    await db.put(certificateKey, encodeCertificate({ ...certificate, blockHash: hash, votes: [{ validator: publicKey, signature: vote.signature }] }));
    await db.close();
    const run = await replay(['-d', copy, '--chain-params', params, '-q']);
    expect(run.code).toBe(1);
    const { divergence } = JSON.parse(run.stdout) as { divergence: Divergence };
    expect(divergence).toMatchObject({ height: transferHeight, kind: 'STATE_ROOT_MISMATCH', expected: Buffer.from(stored.header.stateRoot).toString('hex') });
    expect(divergence.actual).not.toBe(divergence.expected);
    // the block is the data dir's head: its state names the keys whose values differ
    const differing = divergence.stateKeys!.filter((k) => k.replayed !== k.expected);
    const aliceKey = `02${Buffer.from(parseAddress(alice)).toString('hex')}${Buffer.from(NATIVE_MINT).toString('hex')}`;
    const bobKey = `02${Buffer.from(parseAddress(bob)).toString('hex')}${Buffer.from(NATIVE_MINT).toString('hex')}`;
    expect(differing.map((k) => k.key).sort()).toEqual([aliceKey, bobKey].sort());
    expect(differing.every((k) => k.kind === 'BALANCE' && typeof k.expected === 'string')).toBe(true);
    expect(divergence.stateKeys!.slice(0, 2).map((k) => k.key).sort()).toEqual([aliceKey, bobKey].sort());
  }, 60_000);
});
