// scan_bundles / transactions_root (docs/core-abi.md "Block scan") against the JS they replace in
// block import: bundleHash, transactionsRoot and decodeBundle of src/.
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CoreStatusError } from '../../src/core/core.js';
import type { BundleScan } from '../../src/core/scan.js';
import { Status } from '../../src/core/status.js';
import { bundleHash, decodeBundle, encodeBundle, type Bundle } from '../../src/codec/bundle.js';
import { signBundle, Signer } from '../../src/codec/keys.js';
import { decodeBlock, encodeBlock, transactionsRoot, TX_NODE_KEY, type BlockHeader } from '../../src/chain/block.js';
import { blake3, toHex } from '../../src/codec/hash.js';
import { bundleOf, decodeEvmTransaction, looksLikeEvmTransaction } from '../../src/chain/evm/transaction.js';
import { EvmTokenIndex } from '../../src/chain/evm/tokens.js';
import type { TokenRegistry } from '../../src/chain/token-registry.js';
import { unhex } from '../../src/chain/evm/units.js';
import { genesisConfig, newCore, NTV } from './harness.js';
import { addr, encodeBundle as encodeRaw } from '../../testkit/encode.js';

const VALID_UNTIL = 1_800_000_000n;

function transfer(from: number, to: number, nonce: bigint, extra: Partial<Bundle> = {}): Bundle {
  return {
    userAccount: addr(from),
    operations: [{ type: 'Transfer', to: addr(to), token: NTV, amount: 1_000n + BigInt(to) }],
    maxGas: 100_000n,
    maxPriorityFee: 0n,
    validUntil: VALID_UNTIL,
    nonce,
    signature: new Uint8Array(0),
    ...extra,
  };
}

const seed = (n: number) => new Uint8Array(32).fill(n);
const ed = Signer.fromSeed(seed(1), 'Ed25519');
const edSigned = (b: Bundle) => encodeBundle(signBundle(b, seed(1), 'Ed25519'));

/** The bundle section of the stored block (src/chain/block.ts encodeBlock), and the stored block. */
function stored(bundles: Uint8Array[]): { section: Uint8Array; block: Uint8Array } {
  const header: BlockHeader = {
    chainId: 1, height: 1, parentHash: new Uint8Array(32), timestamp: 1, proposer: new Uint8Array(32),
    proposerPubkey: new Uint8Array(32), stateRoot: new Uint8Array(32), transactionsRoot: new Uint8Array(32),
    gasUsed: 0, gasLimit: 0, baseFee: 0, bundleCount: bundles.length, round: 0, missed: [],
    hash: new Uint8Array(32), signature: new Uint8Array(64),
  };
  const block = encodeBlock({ header, bundles, bundleHashes: [] });
  const jsonLength = new DataView(block.buffer, block.byteOffset).getUint32(0, true);
  return { section: block.subarray(4 + jsonLength), block };
}

/** Section bytes by hand, for malformed sections: count, then (length, bytes) pairs. */
function rawSection(count: number, parts: Array<number | Uint8Array>): Uint8Array {
  const chunks: number[] = [];
  const u32 = (v: number) => chunks.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  u32(count);
  for (const p of parts) {
    if (typeof p === 'number') u32(p);
    else chunks.push(...p);
  }
  return Uint8Array.from(chunks);
}

/** Every field of rows `at` (default: all, in order) against decodeBundle of the same bytes. */
function expectRowsMatch(scan: BundleScan, bundles: Uint8Array[], at = bundles.map((_, i) => i)) {
  bundles.forEach((bytes, k) => {
    const i = at[k]!;
    const b = decodeBundle(bytes);
    expect(scan.hash(i)).toEqual(bundleHash(bytes));
    expect(scan.status(i)).toBe(Status.OK);
    expect(scan.nonce(i)).toBe(b.nonce);
    expect(scan.signatureLength(i)).toBe(b.signature.length);
    expect(scan.signature(i, bytes)).toEqual(b.signature);
    expect(scan.pubkey(i, bytes)).toEqual(b.senderPubkey);
    const expiry = b.expiryTimestamp !== undefined && b.expiryTimestamp < b.validUntil ? b.expiryTimestamp : b.validUntil;
    expect(scan.expiry(i)).toBe(expiry);
  });
}

describe('scan_bundles', () => {
  it('hashes and transactions root equal bundleHash / transactionsRoot for 0, 1, 2, 3, 7 and 1,000 bundles', async () => {
    const { core } = await newCore();
    for (const n of [0, 1, 2, 3, 7, 1000]) {
      const bundles = Array.from({ length: n }, (_, i) => encodeBundle(transfer(i, i + 1, BigInt(i))));
      const { section, block } = stored(bundles);
      const scan = core.scanBundles(section);
      const jsHashes = decodeBlock(block, bundleHash).bundleHashes;
      expect(scan.count).toBe(n);
      expect(scan.hashes.length).toBe(n * 32);
      jsHashes.forEach((h, i) => expect(scan.hash(i)).toEqual(h));
      expect(scan.transactionsRoot).toEqual(transactionsRoot(jsHashes));
      if (n === 0) expect(scan.transactionsRoot).toEqual(new Uint8Array(32));
      expectRowsMatch(scan, bundles);
    }
  });

  it('reports signature and sender_pubkey positions for unsigned, Ed25519, ML-DSA-65 and EVM bundles, and the earlier expiry', async () => {
    const { core } = await newCore();
    const ml = Signer.fromSeed(seed(2), 'ML-DSA-65');
    const mlBundle = transfer(2, 3, 9n, { userAccount: ml.account, senderPubkey: ml.publicKey });
    const mlSigned = encodeBundle(signBundle(mlBundle, seed(2), 'ML-DSA-65'));

    // An EVM transaction wrapped as the bundle it maps to (docs/eth.md; test/unit/eth-transaction.test.ts).
    const mint = new Uint8Array(32).map((_, i) => i + 1);
    const registry = { size: 1, list: () => [{ mint, symbol: 'USDC', kind: 2 }] } as unknown as TokenRegistry;
    const account = privateKeyToAccount(generatePrivateKey());
    const raw = unhex(await account.signTransaction({
      chainId: 1618032, nonce: 4, gas: 30_000n, maxFeePerGas: 50n * 10n ** 9n, maxPriorityFeePerGas: 2n * 10n ** 9n,
      type: 'eip1559', to: privateKeyToAccount(generatePrivateKey()).address, value: 3n * 10n ** 9n,
    }));
    expect(looksLikeEvmTransaction(raw)).toBe(true);
    const evm = encodeBundle(bundleOf(await decodeEvmTransaction(raw, 1618032), new EvmTokenIndex(registry)));

    const bundles = [
      encodeBundle(transfer(1, 2, 0n)),
      edSigned(transfer(1, 2, 1n, { userAccount: ed.account, senderPubkey: ed.publicKey })),
      edSigned(transfer(1, 2, 2n, { userAccount: ed.account })),
      mlSigned,
      encodeBundle({ ...transfer(4, 5, 3n), signature: new Uint8Array(3309).fill(9) }), // ML-DSA-65 length, no key
      evm,
      encodeBundle(transfer(6, 7, 5n, { expiryTimestamp: VALID_UNTIL - 100n })), // expiry earlier
      encodeBundle(transfer(6, 7, 6n, { expiryTimestamp: VALID_UNTIL + 100n })), // valid_until earlier
      edSigned(transfer(1, 2, 7n, { userAccount: ed.account, senderPubkey: ed.publicKey, expiryTimestamp: 5n, nonce: 2n ** 64n - 1n })),
    ];
    const scan = core.scanBundles(stored(bundles).section);
    expect(scan.count).toBe(bundles.length);
    expectRowsMatch(scan, bundles);
    expect(scan.signatureLength(1)).toBe(64);
    expect(scan.pubkey(1, bundles[1]!)).toEqual(ed.publicKey);
    expect(scan.pubkey(2, bundles[2]!)).toBeUndefined();
    expect(scan.pubkey(3, bundles[3]!)).toEqual(ml.publicKey);
    expect(scan.signatureLength(3)).toBe(3309);
    expect(scan.signature(5, evm)).toEqual(raw);
    expect(scan.expiry(6)).toBe(VALID_UNTIL - 100n);
    expect(scan.expiry(7)).toBe(VALID_UNTIL);
    expect(scan.nonce(8)).toBe(2n ** 64n - 1n);
    expect(scan.expiry(8)).toBe(5n);
  });

  it('reports a bundle that does not decode in its row and keeps the others right', async () => {
    const { core } = await newCore();
    const good = [encodeBundle(transfer(1, 2, 0n)), edSigned(transfer(1, 2, 1n, { userAccount: ed.account, senderPubkey: ed.publicKey }))];
    const plain = { user: addr(9), ops: [{ kind: 'transfer' as const, to: addr(1), token: NTV, amount: 1n }], maxGas: 50_000n, maxPriorityFee: 0n, validUntil: VALID_UNTIL, nonce: 3n };
    const valid = encodeRaw(plain);
    const bad: Array<[Uint8Array, number]> = [
      [valid.subarray(0, valid.length - 1), Status.MALFORMED_BUNDLE], // truncated
      [Uint8Array.from([...valid, 0]), Status.MALFORMED_BUNDLE], // trailing byte
      [new Uint8Array(0), Status.MALFORMED_BUNDLE],
      [encodeRaw({ ...plain, senderPubkey: new Uint8Array(33) }), Status.MALFORMED_BUNDLE], // pubkey neither 32 nor 1,952
      [encodeRaw({ ...plain, signature: new Uint8Array(4097) }), Status.MALFORMED_BUNDLE],
      [encodeRaw({ ...plain, ops: [] }), Status.EMPTY_BUNDLE],
      [encodeRaw({ ...plain, ops: new Array(65).fill(plain.ops[0]) }), Status.TOO_MANY_OPS],
      [encodeRaw({ ...plain, ops: [{ kind: 'raw', disc: 84 }] }), Status.OP_NOT_ENABLED],
    ];
    // Option tag 2 for expiry_timestamp: the last two bytes of an unsigned bundle are the two tags.
    const badTag = valid.slice();
    badTag[badTag.length - 2] = 2;
    bad.push([badTag, Status.MALFORMED_BUNDLE]);

    const bundles = [good[0]!, ...bad.map(([b]) => b), good[1]!];
    const scan = core.scanBundles(stored(bundles).section);
    expect(scan.count).toBe(bundles.length);
    bad.forEach(([bytes, status], k) => {
      const i = k + 1;
      expect(scan.status(i), `bad bundle ${k}`).toBe(status);
      expect(scan.hash(i)).toEqual(bundleHash(bytes));
      expect(scan.nonce(i)).toBe(0n);
      expect(scan.signatureLength(i)).toBe(0);
      expect(scan.pubkey(i, bytes)).toBeUndefined();
      expect(scan.expiry(i)).toBe(0n);
    });
    expectRowsMatch(scan, good, [0, bundles.length - 1]);
    expect(scan.transactionsRoot).toEqual(transactionsRoot(bundles.map(bundleHash)));
  });

  it('hashes four abreast like the one-at-a-time Blake3: every length to two chunks, lanes of unequal lengths in each group', async () => {
    // scan_bundles hashes every bundle before decoding it (assembly/blake3x4.ts), so raw byte
    // strings drive the four-lane hash through the ABI: lengths 0..2,100 in an order that puts
    // one-block, many-block and multi-chunk inputs (hashed alone) side by side in a group.
    const { core } = await newCore();
    const lengths = Array.from({ length: 2101 }, (_, i) => (i * 613) % 2101);
    const inputs = lengths.map((n, k) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + k) & 0xff));
    const scan = core.scanBundles(stored(inputs).section);
    expect(scan.count).toBe(inputs.length);
    inputs.forEach((bytes, i) => expect(toHex(scan.hash(i)), `length ${bytes.length}`).toBe(toHex(blake3(bytes))));
    expect(scan.transactionsRoot).toEqual(transactionsRoot(inputs.map(blake3)));
  });

  it('refuses a truncated or inconsistent section with INVALID_INPUT and stays usable', async () => {
    const { core } = await newCore();
    const b = encodeBundle(transfer(1, 2, 0n));
    const ok = stored([b, b]).section;
    const sections: Array<[string, Uint8Array]> = [
      ['empty input', new Uint8Array(0)],
      ['a partial count', Uint8Array.from([1, 0, 0])],
      ['a count beyond the input', rawSection(0xffffffff, [])],
      ['a count of 2 with one bundle', rawSection(2, [b.length, b])],
      ['a length beyond the input', rawSection(1, [b.length + 1, b])],
      ['a partial length prefix', Uint8Array.from([...rawSection(2, [b.length, b]), 5, 0])],
      ['truncated in a bundle', ok.subarray(0, ok.length - 1)],
      ['trailing bytes', Uint8Array.from([...ok, 0])],
      ['trailing bytes after count 0', rawSection(0, [new Uint8Array(1)])],
    ];
    for (const [what, section] of sections) {
      let error: unknown;
      try {
        core.scanBundles(section);
      } catch (e) {
        error = e;
      }
      expect(error, what).toBeInstanceOf(CoreStatusError);
      expect((error as CoreStatusError).status, what).toBe(Status.INVALID_INPUT);
    }
    expect(core.scanBundles(ok).count).toBe(2);
    expect(core.scanBundles(rawSection(0, [])).transactionsRoot).toEqual(new Uint8Array(32));
  });

  it('does not change the open block: scanning between applyBlock and commitBlock leaves root and writes alone', async () => {
    const ctx = { height: 1n, timestamp: 1_700_000_010n, proposer: addr(999), gasPrice: 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 40n };
    const setup = async () => {
      const { core, store } = await newCore();
      core.genesis(genesisConfig(8));
      store.apply(core.commitBlock().writes);
      return core;
    };
    const a = await setup();
    const b = await setup();
    const bundles = Array.from({ length: 8 }, (_, i) => encodeBundle(transfer(i, (i + 3) % 8, 0n)));
    const inputs = bundles.map((bytes) => ({ bytes, auth: 0 }));
    const ra = a.applyBlock(ctx, inputs);
    expect(ra.results.map((r) => r.status)).toEqual(bundles.map(() => Status.OK));
    // The section is smaller than the BlockInput, so it overwrites the input region apply_block read.
    const scan = a.scanBundles(stored(bundles).section);
    expect(a.transactionsRoot(bundles.map(bundleHash))).toEqual(scan.transactionsRoot);
    b.applyBlock(ctx, inputs);
    const ca = a.commitBlock();
    const cb = b.commitBlock();
    expect(ca.stateRoot).toEqual(cb.stateRoot);
    expect(ca.writes).toEqual(cb.writes);
  });
});

describe('transactions_root', () => {
  it('equals transactionsRoot of src/chain/block.ts for 0 to 17, 1,000 and 1,001 hashes', async () => {
    const { core } = await newCore();
    for (const n of [...Array.from({ length: 18 }, (_, i) => i), 1000, 1001]) {
      const hashes = Array.from({ length: n }, (_, i) => bundleHash(Uint8Array.of(i & 0xff, i >> 8)));
      expect(core.transactionsRoot(hashes), `${n} hashes`).toEqual(transactionsRoot(hashes));
    }
  });

  it('pins K_TX_NODE and the roots of 1, 2, 3 and 5 fixed hashes (docs/core-abi.md "Block scan")', async () => {
    // Worked out from the definition with hash-wasm's one-shot keyed blake3, not with either
    // implementation: a change to the tree, the key or the carry rule changes these. h_i = Blake3(i).
    expect(toHex(TX_NODE_KEY)).toBe(toHex(blake3(new TextEncoder().encode('ntv.transactions-root.node'))));
    expect(toHex(TX_NODE_KEY)).toBe('98d29c02f51c2a3f55b463f71e8853eb646248ca9c4ff1a840022a2330d02a2e');
    const hashes = [0, 1, 2, 3, 4].map((i) => blake3(Uint8Array.of(i)));
    const pinned: Array<[number, string]> = [
      [1, '2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213'], // h0 itself
      [2, 'a411ead6ab1d61c763835184fde10ee7683ff73d15c2e1247ac5cbfd2b5a63c3'], // N(h0, h1)
      [3, '4de093122e206d85637a4cfbb73c5703d83c5047ac80368f32fae113b1af5b22'], // N(N(h0, h1), h2)
      [5, '4a3cc1a51f2da725aed8c6c12184d8ec79468dbe27de6d4bdc1f38fdd4c32fa3'], // N(N(N(h0, h1), N(h2, h3)), h4)
    ];
    const { core } = await newCore();
    for (const [n, root] of pinned) {
      expect(toHex(core.transactionsRoot(hashes.slice(0, n))), `core, ${n} hashes`).toBe(root);
      expect(toHex(transactionsRoot(hashes.slice(0, n))), `JS, ${n} hashes`).toBe(root);
    }
    // A node is keyed: not the plain Blake3 that a bundle hash is of the same 64 bytes.
    expect(toHex(blake3(Uint8Array.from([...hashes[0]!, ...hashes[1]!])))).not.toBe(pinned[1]![1]);
    // One bundle's root is its hash, as a fresh array.
    const one = transactionsRoot([hashes[0]!]);
    expect(one).not.toBe(hashes[0]);
  });

  it('refuses input that is not whole 32-byte hashes', async () => {
    const { core } = await newCore();
    expect(() => core.transactionsRoot([new Uint8Array(31)])).toThrow(RangeError);
    const x = core.exports;
    x.input(33);
    expect(x.transactions_root(33)).toBe(Status.INVALID_INPUT);
    expect(core.transactionsRoot([])).toEqual(new Uint8Array(32));
  });
});
