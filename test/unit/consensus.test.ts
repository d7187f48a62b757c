import { describe, expect, it } from 'vitest';
import { blake3 } from '../../src/codec/hash.js';
import { generateEd25519, signEd25519 } from '../../src/codec/keys.js';
import { decodeHeaderBytes, headerHash, headerSigningBytes, type BlockHeader } from '../../src/chain/block.js';
import { eligibleLeaders, leaderOf, leaderSchedule, leaderSeed, slotOf, type ConsensusValidator } from '../../src/consensus/leader.js';
import {
  decodeCertificate, decodeVote, encodeCertificate, encodeVote, isSupermajority, signVote, verifyCertificate, verifyVote,
  voteSigningBytes, VOTE_COMMIT, VoteTally,
} from '../../src/consensus/votes.js';
import { DoubleSignDetector } from '../../src/consensus/double-sign.js';

function validator(stake: bigint, extra: Partial<ConsensusValidator> = {}): ConsensusValidator & { seed: Uint8Array } {
  const { seed, publicKey } = generateEd25519();
  return {
    seed, consensusKey: publicKey, address: blake3(publicKey), stake, performanceBps: 10_000, jailed: false, missedInRow: 0, active: true,
    ...extra,
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('leader schedule', () => {
  it('seeds round 0 with Blake3(slot u64 LE ‖ "leader_selection_v1") and backups with a round suffix', () => {
    const expected = new Uint8Array(8 + 19);
    new DataView(expected.buffer).setBigUint64(0, 7n, true);
    expected.set(new TextEncoder().encode('leader_selection_v1'), 8);
    expect(hex(leaderSeed(7, 0))).toBe(hex(blake3(expected)));
    const backup = new Uint8Array(expected.length + 4);
    backup.set(expected);
    new DataView(backup.buffer).setUint32(expected.length, 2, true);
    expect(hex(leaderSeed(7, 2))).toBe(hex(blake3(backup)));
  });

  it('is deterministic, the same for every height of a slot, and independent of input order', () => {
    const set = [validator(100n), validator(200n), validator(300n), validator(400n)];
    expect(slotOf(0, 5)).toBe(0);
    expect(slotOf(4, 5)).toBe(0);
    expect(slotOf(5, 5)).toBe(1);
    const a = leaderOf(set, 10, 0, 5)!.leader;
    const b = leaderOf([...set].reverse(), 14, 0, 5)!.leader;
    expect(hex(a.consensusKey)).toBe(hex(b.consensusKey));
  });

  it('draws leaders roughly in proportion to stake × performance', () => {
    const set = [validator(1000n), validator(2000n), validator(3000n), validator(2000n, { performanceBps: 5_000 })];
    // weights 1000, 2000, 3000, 1000 (half performance): shares 1/7, 2/7, 3/7, 1/7
    const counts = new Map<string, number>();
    const slots = 7000;
    for (let slot = 0; slot < slots; slot++) {
      const leader = leaderSchedule(set, slot, 1)[0]!;
      counts.set(hex(leader.consensusKey), (counts.get(hex(leader.consensusKey)) ?? 0) + 1);
    }
    const share = (v: ConsensusValidator) => (counts.get(hex(v.consensusKey)) ?? 0) / slots;
    expect(share(set[0]!)).toBeCloseTo(1 / 7, 1);
    expect(share(set[1]!)).toBeCloseTo(2 / 7, 1);
    expect(share(set[2]!)).toBeCloseTo(3 / 7, 1);
    expect(share(set[3]!)).toBeCloseTo(1 / 7, 1);
    expect(Math.abs(share(set[2]!) - 3 / 7)).toBeLessThan(0.03);
  });

  it('skips validators with 3+ misses in a row, jailed or inactive ones, and falls back when none is left', () => {
    const ok = validator(100n);
    const missed3 = validator(10_000n, { missedInRow: 3 });
    const missed2 = validator(100n, { missedInRow: 2 });
    const jailed = validator(10_000n, { jailed: true });
    const inactive = validator(10_000n, { active: false });
    const eligible = eligibleLeaders([ok, missed3, missed2, jailed, inactive]).map((v) => hex(v.consensusKey));
    expect(eligible.sort()).toEqual([hex(ok.consensusKey), hex(missed2.consensusKey)].sort());
    for (let slot = 0; slot < 200; slot++) {
      const leader = hex(leaderSchedule([ok, missed3, missed2, jailed, inactive], slot, 1)[0]!.consensusKey);
      expect([hex(ok.consensusKey), hex(missed2.consensusKey)]).toContain(leader);
    }
    // every active validator missed 3 times: fall back to the non-jailed ones rather than halt
    const fallback = eligibleLeaders([missed3, jailed, validator(5n, { missedInRow: 7 })]);
    expect(fallback.length).toBe(2);
    expect(fallback.every((v) => !v.jailed)).toBe(true);
  });

  it('orders backups as a weighted permutation: distinct leaders, then it repeats; missed names the skipped ones', () => {
    const set = [validator(1n), validator(2n), validator(3n), validator(4n)];
    const order = leaderSchedule(set, 42, 6);
    const firstFour = order.slice(0, 4).map((v) => hex(v.consensusKey));
    expect(new Set(firstFour).size).toBe(4);
    expect(hex(order[4]!.consensusKey)).toBe(firstFour[0]);
    expect(hex(order[5]!.consensusKey)).toBe(firstFour[1]);
    const r2 = leaderOf(set, 42 * 5, 2, 5)!;
    expect(hex(r2.leader.consensusKey)).toBe(firstFour[2]);
    expect(r2.missed.map((v) => hex(v.consensusKey))).toEqual(firstFour.slice(0, 2));
    // wrapped: each skipped leader once, never the proposer itself
    const r5 = leaderOf(set, 42 * 5, 5, 5)!;
    expect(hex(r5.leader.consensusKey)).toBe(firstFour[1]);
    expect(r5.missed.map((v) => hex(v.consensusKey)).sort()).toEqual([firstFour[0], firstFour[2], firstFour[3]].sort());
  });
});

describe('votes and finality', () => {
  it('signs block_hash ‖ vote_type (u8) ‖ epoch (u64 LE)', () => {
    const hash = blake3(Uint8Array.of(1, 2, 3));
    const bytes = voteSigningBytes(hash, VOTE_COMMIT, 258);
    expect(bytes.length).toBe(41);
    expect(hex(bytes.subarray(0, 32))).toBe(hex(hash));
    expect(bytes[32]).toBe(1);
    expect(hex(bytes.subarray(33))).toBe('0201000000000000');
    const v = validator(1n);
    const vote = signVote(v.seed, v.consensusKey, { height: 7, round: 1, blockHash: hash, epoch: 258, stateRoot: new Uint8Array(32) });
    expect(hex(vote.signature)).toBe(hex(signEd25519(v.seed, bytes)));
    expect(verifyVote(vote)).toBe(true);
    expect(verifyVote({ ...vote, epoch: 259 })).toBe(false);
    expect(verifyVote({ ...vote, voteType: 2 })).toBe(false);
    const decoded = decodeVote(encodeVote(vote));
    expect(decoded).toEqual(vote);
  });

  it('needs strictly more than 2/3 of the stake: exactly 2/3 is not enough', () => {
    expect(isSupermajority(2n, 3n)).toBe(false);
    expect(isSupermajority(3n, 3n)).toBe(true);
    expect(isSupermajority(200n, 300n)).toBe(false);
    expect(isSupermajority(201n, 300n)).toBe(true);
    expect(isSupermajority(0n, 0n)).toBe(false);

    const set = [validator(100n), validator(100n), validator(100n)];
    const hash = blake3(Uint8Array.of(9));
    const tally = new VoteTally(5, set);
    const voteOf = (v: (typeof set)[number]) => signVote(v.seed, v.consensusKey, { height: 5, round: 0, blockHash: hash, epoch: 0, stateRoot: new Uint8Array(32) });
    expect(tally.add(voteOf(set[0]!))).toBe(true);
    expect(tally.add(voteOf(set[0]!))).toBe(false); // one vote per validator
    expect(tally.add(voteOf(set[1]!))).toBe(true);
    expect(tally.finalized()).toBeUndefined(); // 200 of 300 = exactly 2/3
    expect(tally.add(voteOf(set[2]!))).toBe(true);
    expect(hex(tally.finalized()!)).toBe(hex(hash));

    // weights count, not heads: one validator with 3/4 of the stake finalizes alone
    const big = [validator(300n), validator(50n), validator(50n)];
    const t2 = new VoteTally(5, big);
    t2.add(signVote(big[0]!.seed, big[0]!.consensusKey, { height: 5, round: 0, blockHash: hash, epoch: 0, stateRoot: new Uint8Array(32) }));
    expect(t2.finalized()).toBeDefined();
  });

  it('does not count jailed or inactive validators, nor votes from outside the set', () => {
    const set = [validator(100n), validator(100n), validator(100n, { jailed: true }), validator(100n, { active: false })];
    const tally = new VoteTally(3, set);
    expect(tally.totalStake).toBe(200n);
    const outsider = validator(1000n);
    const hash = blake3(Uint8Array.of(3));
    expect(tally.add(signVote(outsider.seed, outsider.consensusKey, { height: 3, round: 0, blockHash: hash, epoch: 0, stateRoot: hash }))).toBe(false);
    expect(tally.add(signVote(set[2]!.seed, set[2]!.consensusKey, { height: 3, round: 0, blockHash: hash, epoch: 0, stateRoot: hash }))).toBe(false);
  });

  it('builds a certificate that verifies, and refuses tampered or short ones', () => {
    const set = [validator(100n), validator(100n), validator(100n), validator(100n)];
    const hash = blake3(Uint8Array.of(4));
    const tally = new VoteTally(1800, set);
    for (const v of set.slice(0, 3)) {
      tally.add(signVote(v.seed, v.consensusKey, { height: 1800, round: 0, blockHash: hash, epoch: 1, stateRoot: hash }));
    }
    const cert = tally.certificate(hash);
    const roundTrip = decodeCertificate(encodeCertificate(cert));
    expect(roundTrip).toEqual(cert);
    const block = { height: 1800, hash };
    expect(verifyCertificate(roundTrip, block, set, 1800)).toMatchObject({ ok: true, votedStake: 300n, totalStake: 400n });
    expect(verifyCertificate({ ...cert, votes: cert.votes.slice(0, 2) }, block, set, 1800)).toMatchObject({ ok: false });
    expect(verifyCertificate({ ...cert, votes: [...cert.votes.slice(0, 2), cert.votes[0]!] }, block, set, 1800)).toMatchObject({ ok: false, reason: expect.stringContaining('twice') });
    const forged = { ...cert, votes: cert.votes.map((v, i) => (i === 0 ? { ...v, signature: new Uint8Array(64) } : v)) };
    expect(verifyCertificate(forged, block, set, 1800)).toMatchObject({ ok: false, reason: expect.stringContaining('signature') });
    expect(verifyCertificate(cert, { height: 1800, hash: blake3(Uint8Array.of(5)) }, set, 1800)).toMatchObject({ ok: false });
    expect(verifyCertificate({ ...cert, epoch: 0 }, block, set, 1800)).toMatchObject({ ok: false, reason: expect.stringContaining('epoch') });
  });
});

describe('headers and double-sign evidence', () => {
  function header(seed: Uint8Array, publicKey: Uint8Array, height: number, root: number, round = 0, missed: Uint8Array[] = []): BlockHeader {
    const unsigned = {
      chainId: 1618032, height, parentHash: new Uint8Array(32).fill(1), timestamp: 1_700_000_000, proposer: blake3(publicKey),
      proposerPubkey: publicKey, stateRoot: new Uint8Array(32).fill(root), transactionsRoot: new Uint8Array(32), gasUsed: 0, gasLimit: 1,
      baseFee: 10, bundleCount: 0, round, missed,
    };
    const hash = headerHash(unsigned);
    return { ...unsigned, hash, signature: signEd25519(seed, hash) };
  }

  it('hashes round and missed into the header; the binary header round-trips', () => {
    const v = validator(1n);
    const other = validator(1n);
    const h0 = header(v.seed, v.consensusKey, 9, 1);
    const h1 = header(v.seed, v.consensusKey, 9, 1, 1, [other.consensusKey]);
    expect(hex(h0.hash)).not.toBe(hex(h1.hash));
    const decoded = decodeHeaderBytes(headerSigningBytes(h1));
    expect(decoded.round).toBe(1);
    expect(hex(decoded.missed[0]!)).toBe(hex(other.consensusKey));
    expect(hex(headerHash(decoded))).toBe(hex(h1.hash));
  });

  it('reports two different headers signed by one key at one height, once', () => {
    const v = validator(1n);
    const detector = new DoubleSignDetector();
    const a = header(v.seed, v.consensusKey, 12, 1);
    const b = header(v.seed, v.consensusKey, 12, 2);
    expect(detector.observe(a)).toBeUndefined();
    expect(detector.observe(a)).toBeUndefined(); // the same block again is no offence
    expect(detector.observe(header(v.seed, v.consensusKey, 13, 2))).toBeUndefined(); // another height
    const evidence = detector.observe(b)!;
    expect(evidence.height).toBe(12);
    expect(hex(evidence.validator)).toBe(hex(v.consensusKey));
    expect(hex(blake3(evidence.headerA))).toBe(hex(a.hash));
    expect(hex(blake3(evidence.headerB))).toBe(hex(b.hash));
    expect(hex(evidence.sigB)).toBe(hex(b.signature));
    expect(detector.observe(header(v.seed, v.consensusKey, 12, 3))).toBeUndefined(); // one report per (validator, height)
  });
});
