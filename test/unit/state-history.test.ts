import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_MINT } from '../../src/codec/address.js';
import { verifyStateProof } from '../../src/codec/state-proof.js';
import { accountKey, balanceKey, decodeBalance } from '../../src/core/records.js';
import { Pruner } from '../../src/chain/pruning.js';
import type { ProducedBlock } from '../../src/chain/producer.js';
import { verifyStore } from '../../src/storage/integrity.js';
import { identity, openLocalChain, produceTransferBlocks, quiet, type LocalChain } from '../../testkit/local-chain.js';

// State at past blocks (docs/storage.md "State history"): every block's change set is taken as it
// is queued for writing, while earlier blocks may still be in flight (the writer thread groups
// them), so a value before a block can come from a block not durable yet. Blocks are made back to
// back here, many of them in flight together; the state after each block is recorded as the
// 'block' event sees it (the StateView has just taken the block), and every past read must give it.

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

const SENDERS = [1, 2, 3, 4].map((i) => { const a = new Uint8Array(32); a[31] = i; return a; });

describe('state history', () => {
  it('answers each past block\'s balances, nonces and proofs as they were when it was made, blocks in flight included', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 30 });
    opened.push(local);
    const { chain, state, store } = local;
    const keys = SENDERS.flatMap((a) => [balanceKey(a, NATIVE_MINT), accountKey(a)]);
    const seen = new Map<number, Array<string | undefined>>();
    const record = (height: number) => seen.set(height, keys.map((k) => {
      const v = state.get(k);
      return v && Buffer.from(v).toString('hex');
    }));
    record(0);
    chain.on('block', (produced: ProducedBlock) => record(produced.block.header.height));
    await produceTransferBlocks(local, 40, 30);
    const head = chain.height;
    expect(head).toBeGreaterThanOrEqual(40);
    expect(chain.oldestState).toBe(0);

    for (let height = 0; height < head; height++) {
      const want = seen.get(height)!;
      const got = await chain.stateAt(height, (s) => keys.map((k) => {
        const v = s.get(k);
        return v && Buffer.from(v).toString('hex');
      }));
      expect(got, `state at ${height}`).toEqual(want);
      const balance = await chain.balanceAt(SENDERS[0]!, NATIVE_MINT, height);
      expect(balance).toBe(want[0] === undefined ? 0n : decodeBalance(Buffer.from(want[0], 'hex')));
    }
    // A proof at every fifth height verifies against that block's root (stateProofAt checks it too).
    for (let height = 1; height < head; height += 5) {
      const { header, proof } = await chain.stateProofAt(balanceKey(SENDERS[1]!, NATIVE_MINT), height);
      expect(header.height).toBe(height);
      expect(verifyStateProof(proof, header.stateRoot)).toMatchObject({ ok: true, present: true });
    }
    // The integrity sweep knows the history's records.
    const report = await verifyStore(store);
    expect(report.anomalies).toEqual([]);
  }, 120_000);

  it('pruning keeps the last states and refuses older ones naming the oldest height', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 10 });
    opened.push(local);
    const { chain, store } = local;
    const before = new Map<number, bigint>();
    chain.on('block', (produced: ProducedBlock) => before.set(produced.block.header.height, chain.balance(SENDERS[2]!, NATIVE_MINT)));
    await produceTransferBlocks(local, 30, 10);
    const head = chain.height;
    // Pruning deletes only change sets the writer thread has indexed (docs/storage.md "State
    // history"): the index trails the head by a block or two at most here.
    for (const until = Date.now() + 30_000; (await store.stateHistoryIndexed()) !== head;) {
      if (Date.now() > until) throw new Error('the state history index did not reach the head');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pruner = new Pruner({ keepBlocks: 25, keepState: 10, explorerSeconds: 86_400, every: 1, compactEvery: 1_000 }, {
      store, logger: quiet, onPruned: (oldest) => chain.noteOldest(oldest), onStatePruned: (oldest) => chain.noteOldestState(oldest),
    });
    await pruner.prune(head);
    expect(chain.oldestState).toBe(head - 9);
    expect(await store.stateHistoryFrom()).toBe(head - 9);
    for (let height = head - 9; height < head; height++) expect(await chain.balanceAt(SENDERS[2]!, NATIVE_MINT, height)).toBe(before.get(height));
    await expect(chain.balanceAt(SENDERS[2]!, NATIVE_MINT, head - 10)).rejects.toMatchObject({
      reason: 'PRUNED', data: { height: head - 10, oldest_height: head - 9 }, message: expect.stringMatching(/serves state from block \d+/),
    });
    await expect(chain.stateAt(1, (s) => s.get(accountKey(SENDERS[2]!)))).rejects.toMatchObject({ reason: 'PRUNED' });
    // the change sets at or below the window are gone; the ones above stay
    const stored = await store.stateHistoryBytes();
    expect(stored.records).toBeGreaterThan(0);
    const report = await verifyStore(store);
    expect(report.anomalies).toEqual([]);
  }, 120_000);
});
