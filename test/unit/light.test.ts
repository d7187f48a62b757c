import { describe, expect, it } from 'vitest';
import { blake3, toHex } from '../../src/codec/hash.js';
import { generateEd25519, signEd25519 } from '../../src/codec/keys.js';
import { proveState } from '../../src/codec/state-proof.js';
import { headerHash, type BlockHeader } from '../../src/chain/block.js';
import { genesisFromFlags } from '../../src/chain/genesis-block.js';
import { readValidatorSet, validatorKey, type ValidatorInfo } from '../../src/chain/validator-set.js';
import { encodeCertificate, voteSigningBytes, VOTE_COMMIT } from '../../src/chain/votes.js';
import { nextHeaderProblem, type TrustedSet } from '../../src/light/follower.js';
import { HeaderTrust, parseCheckpoint } from '../../src/light/header-trust.js';
import { encodeEpochRecord } from '../../src/chain/epoch-record.js';
import { encodeValidatorSetProof, verifyValidatorSetProof, type ProofSource } from '../../src/chain/validator-set-proof.js';
import { peerHeaderProblem } from '../../src/operator/snapshot-peers.js';

/**
 * The light node's verification (docs/operations.md "Light node"): a header is taken only with a
 * certificate of more than 2/3 of the stake of the set it has proven, and a set only with proofs of
 * every record that makes it against a verified header's state root.
 */

type Key = { seed: Uint8Array; info: ValidatorInfo };

function validator(stake: bigint): Key {
  const { seed, publicKey } = generateEd25519();
  return {
    seed,
    info: { consensusKey: publicKey, address: blake3(publicKey), stake, performanceBps: 10_000, jailed: false, jailReleaseTime: 0, missedInRow: 0, commissionBps: 0, active: true },
  };
}

const EPOCH = 100;

function makeHeader(parent: BlockHeader, proposer: Key): BlockHeader {
  const unsigned = {
    chainId: parent.chainId, height: parent.height + 1, parentHash: parent.hash, timestamp: parent.timestamp + 1,
    proposer: proposer.info.address, proposerPubkey: proposer.info.consensusKey, stateRoot: new Uint8Array(32).fill(parent.height + 1),
    transactionsRoot: new Uint8Array(32), gasUsed: 0, gasLimit: 1_000_000, baseFee: 10, bundleCount: 0, round: 0, missed: [],
  };
  const hash = headerHash(unsigned);
  return { ...unsigned, hash, signature: signEd25519(proposer.seed, hash) };
}

function certificate(header: BlockHeader, voters: Key[], forge = false): Uint8Array {
  const epoch = Math.floor(header.height / EPOCH);
  const votes = voters.map((v) => {
    const signature = signEd25519(v.seed, voteSigningBytes(header.hash, VOTE_COMMIT, epoch));
    if (forge) signature[0]! ^= 1;
    return { validator: v.info.consensusKey, signature };
  }).sort((x, y) => Buffer.compare(x.validator, y.validator));
  return encodeCertificate({ height: header.height, blockHash: header.hash, epoch, voteType: VOTE_COMMIT, votes });
}

describe('light node: a header follows only with > 2/3 of a proven set\'s stake', () => {
  const keys = [validator(100n), validator(100n), validator(100n), validator(100n)];
  const set: TrustedSet = { height: 0, validators: keys.map((k) => k.info).sort((a, b) => Buffer.compare(a.consensusKey, b.consensusKey)), epochLength: EPOCH };
  const genesis = makeHeader({ chainId: 1618032, height: 0, hash: new Uint8Array(32), timestamp: 0 } as BlockHeader, keys[0]!);

  it('takes a header signed by 3 of 4 equal stakes', () => {
    const h = makeHeader(genesis, keys[1]!);
    expect(nextHeaderProblem(genesis, h, certificate(h, keys.slice(0, 3)), HeaderTrust.fromTrusted(genesis, set))).toBeUndefined();
  });

  it('refuses a header signed by too little stake (exactly 2/3 is not enough)', () => {
    const h = makeHeader(genesis, keys[1]!);
    expect(nextHeaderProblem(genesis, h, certificate(h, keys.slice(0, 2)), HeaderTrust.fromTrusted(genesis, set))).toMatch(/^the finality certificate does not hold: /);
    const weighted = [validator(200n), validator(100n)];
    const twoThirds: TrustedSet = { ...set, validators: weighted.map((k) => k.info).sort((a, b) => Buffer.compare(a.consensusKey, b.consensusKey)) };
    const g = makeHeader(genesis, weighted[0]!);
    expect(nextHeaderProblem(genesis, g, certificate(g, [weighted[0]!]), HeaderTrust.fromTrusted(genesis, twoThirds))).toMatch(/finality certificate does not hold/);
  });

  it('refuses a header certified by another set (keys it has not proven)', () => {
    const others = [validator(100n), validator(100n), validator(100n)];
    const h = makeHeader(genesis, keys[0]!);
    expect(nextHeaderProblem(genesis, h, certificate(h, others), HeaderTrust.fromTrusted(genesis, set))).toMatch(/finality certificate does not hold/);
    const byStranger = makeHeader(genesis, others[0]!);
    expect(nextHeaderProblem(genesis, byStranger, certificate(byStranger, keys), HeaderTrust.fromTrusted(genesis, set))).toMatch(/is not a validator of the validator set proven at height 0/);
  });

  it('refuses a forged certificate, a forged header signature, a header that does not hash, and a wrong parent', () => {
    const h = makeHeader(genesis, keys[1]!);
    expect(nextHeaderProblem(genesis, h, certificate(h, keys, true), HeaderTrust.fromTrusted(genesis, set))).toMatch(/finality certificate does not hold/);
    expect(nextHeaderProblem(genesis, h, new Uint8Array(0), HeaderTrust.fromTrusted(genesis, set))).toMatch(/no finality certificate/);
    const badSig = { ...h, signature: Uint8Array.from(h.signature, (b, i) => (i === 0 ? b ^ 1 : b)) };
    expect(nextHeaderProblem(genesis, badSig, certificate(h, keys), HeaderTrust.fromTrusted(genesis, set))).toBe('the proposer signature of the header does not verify');
    const altered = { ...h, stateRoot: new Uint8Array(32).fill(9) };
    expect(nextHeaderProblem(genesis, altered, certificate(h, keys), HeaderTrust.fromTrusted(genesis, set))).toBe('the header does not hash to its block hash');
    const sibling = makeHeader(h, keys[2]!);
    expect(nextHeaderProblem(genesis, sibling, certificate(sibling, keys), HeaderTrust.fromTrusted(genesis, set))).toMatch(/does not follow/);
    const orphan = makeHeader({ ...genesis, hash: new Uint8Array(32).fill(5) }, keys[2]!);
    expect(nextHeaderProblem(genesis, orphan, certificate(orphan, keys), HeaderTrust.fromTrusted(genesis, set))).toMatch(/its parent hash .* is not block 1's/);
  });
});

describe('light node: the validator set proven against a state root', async () => {
  const genesisKeys = [generateEd25519(), generateEd25519(), generateEd25519()];
  const { header, state } = await genesisFromFlags({ network: 'testnet', validators: genesisKeys.map((k) => k.publicKey), gasPrice: 10n });
  const reader = { get: (key: Uint8Array) => state.get(toHex(key)) };
  const source: ProofSource = { stateProof: (key) => ({ header, proof: proveState(reader, key) }) };

  it('verifies every record against the header and gives the set of the state', () => {
    const proven = verifyValidatorSetProof(encodeValidatorSetProof(source), header);
    expect(proven.height).toBe(0);
    expect(proven.validators).toEqual(readValidatorSet(reader));
    expect(proven.validators).toHaveLength(3);
    expect(proven.epochLength).toBeGreaterThan(0);
  });

  it('refuses an answer against another root, a changed record, and a set with a validator left out or swapped', () => {
    const answer = encodeValidatorSetProof(source);
    expect(() => verifyValidatorSetProof(answer, { ...header, stateRoot: new Uint8Array(32).fill(1) })).toThrow(/is of block 0 .*|leads to another state root/);
    const otherHash = { ...header, hash: new Uint8Array(32).fill(2) };
    expect(() => verifyValidatorSetProof(answer, otherHash)).toThrow(/the validator-set answer is of block 0/);
    // a validator record with its stake raised: the value no longer hashes to its leaf
    const inflated: ProofSource = {
      stateProof: (key) => {
        const out = source.stateProof(key);
        if (key[0] === validatorKey(genesisKeys[0]!.publicKey)[0] && out.proof.value) {
          const value = Uint8Array.from(out.proof.value);
          value[value.length - 1]! ^= 1;
          return { header, proof: { ...out.proof, value } };
        }
        return out;
      },
    };
    expect(() => verifyValidatorSetProof(encodeValidatorSetProof(inflated), header)).toThrow(/value does not hash to the key's leaf/);
    // a listed validator's record replaced by another key's proof (leaving it out of the total stake)
    const [first] = readValidatorSet(reader);
    const swapped: ProofSource = {
      stateProof: (key) => source.stateProof(Buffer.compare(key, validatorKey(first!.address)) === 0 ? validatorKey(blake3(new Uint8Array([1]))) : key),
    };
    expect(() => verifyValidatorSetProof(encodeValidatorSetProof(swapped), header)).toThrow(/proves 5 records, not the staking record, the parameters and the 3 validators it lists/);
    expect(() => verifyValidatorSetProof(answer.subarray(0, answer.length - 5), header)).toThrow(/does not decode/);
  });
});

describe('checkpoint sync: the epoch-to-epoch rule (src/light/header-trust.ts, docs/light-client.md)', async () => {
  const genesisKey = generateEd25519();
  const { header, state } = await genesisFromFlags({ network: 'testnet', validators: [genesisKey.publicKey], gasPrice: 10n });
  const reader = { get: (key: Uint8Array) => state.get(toHex(key)) };
  const keys: Key[] = [{ seed: genesisKey.seed, info: readValidatorSet(reader)[0]! }];
  const source: ProofSource = { stateProof: (key) => ({ header, proof: proveState(reader, key) }) };
  const record = encodeEpochRecord({ header, certificate: new Uint8Array(0), setProof: encodeValidatorSetProof(source) });

  it('starts from a checkpoint whose record hashes to it, with the set its proof proves', () => {
    const trust = HeaderTrust.fromCheckpoint(record, { height: 0, hash: header.hash });
    expect(trust.set.validators).toEqual(readValidatorSet(reader));
    expect(trust.nextBoundary).toBe(trust.set.epochLength);
    expect(() => HeaderTrust.fromCheckpoint(record, { height: 0, hash: new Uint8Array(32).fill(3) })).toThrow(/is not the checkpoint's 0303.*: the node is on another chain or lies/);
    expect(() => HeaderTrust.fromCheckpoint(record, { height: 5, hash: header.hash })).toThrow(/the epoch record served for checkpoint 5 is of block 0/);
    const lying = encodeEpochRecord({ header: { ...header, stateRoot: new Uint8Array(32).fill(4) }, certificate: new Uint8Array(0), setProof: encodeValidatorSetProof(source) });
    expect(() => HeaderTrust.fromCheckpoint(lying, { height: 0, hash: header.hash })).toThrow(/is not the checkpoint's/);
    expect(() => HeaderTrust.fromCheckpoint(record.subarray(0, 10), { height: 0, hash: header.hash })).toThrow(/the epoch record does not decode/);
  });

  it('refuses a header past the next boundary before that boundary\'s record, and a record of another height', () => {
    const trust = HeaderTrust.fromCheckpoint(record, { height: 0, hash: header.hash });
    const boundary = trust.nextBoundary;
    const past = makeHeader({ ...header, height: boundary }, keys[0]!);
    expect(trust.headerProblem(past, new Uint8Array(0))).toBe(`height ${boundary + 1} is past the epoch boundary ${boundary}: the set after it must be proven first (its epoch record)`);
    const within = makeHeader({ ...header, height: boundary - 1 }, keys[0]!);
    expect(trust.headerProblem(within, new Uint8Array(0))).toBeUndefined();
    expect(() => trust.advance(record)).toThrow(new RegExp(`an epoch record of block 0 where the boundary ${boundary} was due`));
    expect(trust.headerProblem({ ...within, chainId: 7 }, new Uint8Array(0))).toMatch(/block of chain 7/);
  });

  it('parses height:hash checkpoints and names what is wrong', () => {
    expect(parseCheckpoint(`1800:${toHex(header.hash)}`)).toEqual({ height: 1800, hash: header.hash });
    expect(() => parseCheckpoint('1800')).toThrow(/is not height:hash/);
    expect(() => parseCheckpoint('x:00')).toThrow(/is not height:hash/);
    expect(() => parseCheckpoint('1800:abcd')).toThrow(/is not a block hash/);
  });
});

describe('snapshot peer check', () => {
  it('names the peer whose header at the snapshot height is another block', () => {
    const a = { peer: 'peerA', header: { height: 10, hash: new Uint8Array(32).fill(1) } as BlockHeader, certificate: new Uint8Array(0) };
    expect(peerHeaderProblem(10, new Uint8Array(32).fill(1), [a])).toBeUndefined();
    expect(peerHeaderProblem(10, new Uint8Array(32).fill(2), [a])).toMatch(/^its head block 10 is 0202.*, peer peerA serves 0101.* at that height \(a fork or a forged chain\)$/);
    expect(peerHeaderProblem(11, new Uint8Array(32).fill(1), [a])).toBe('peer peerA served block 10 for height 11');
  });
});
