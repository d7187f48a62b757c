import { afterAll, describe, expect, it } from 'vitest';
import { encodeBlock } from '../../src/chain/block.js';
import { importBlock } from '../../src/chain/import.js';
import { encodeHash } from '../../src/codec/address.js';
import { lookupSchedule, scheduleId, scheduleRuns } from '../../src/domains/schedules/reader.js';
import { identity, openLocalChain, type LocalChain } from '../../testkit/local-chain.js';

// A recurring schedule runs on every node at the same height (docs/intents.md "Schedules on
// chain"): node A produces the blocks (its clock moved a minute ahead between them), node B imports
// the same blocks; both run each due run in the same block and have the same state root after each.

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

describe('a recurring schedule on two nodes', () => {
  it('runs at the same heights with the same state roots on the node that made the blocks and on one that imported them', async () => {
    const validator = identity();
    const a = await openLocalChain({ validator, genesisValidators: [validator.publicKey] });
    opened.push(a);
    const b = await openLocalChain({ validator, genesisValidators: [validator.publicKey] });
    opened.push(b);
    expect(encodeHash(b.chain.headHeader.hash)).toBe(encodeHash(a.chain.headHeader.hash));
    const owner = new Uint8Array(32);
    owner[31] = 1;
    const payee = new Uint8Array(32).fill(9);
    a.chain.start();
    const tick = (n: number) => a.chain.submitOperations(owner, [{ type: 'Transfer', to: payee, token: new Uint8Array(32), amount: BigInt(n) }]);
    let receipt;
    // The producer stamps blocks with Date.now() (src/chain/chain.ts): the clock is moved ahead, still ticking.
    const realNow = Date.now;
    let offset = 0;
    Date.now = () => realNow() + offset;
    try {
      receipt = await a.chain.submitOperations(owner, [{
        type: 'CreateSchedule', trigger: { kind: 'Recurring', intervalSeconds: 60n, runs: 3, firstRun: 0n },
        operations: [{ type: 'Transfer', to: payee, token: new Uint8Array(32), amount: 5n }],
      }]);
      await tick(1);
      offset = 61_000;
      await tick(2);
      offset = 122_000;
      await tick(3);
      await tick(4);
    } finally {
      await a.chain.stop();
      Date.now = realNow;
    }
    expect(receipt.status).toBe('success');
    const id = scheduleId(owner, BigInt(receipt.nonce), 0);
    const runsA = scheduleRuns(a.state, lookupSchedule(a.state, id)!);
    expect(runsA.map((r) => r.status)).toEqual([0, 0, 0]);
    expect(lookupSchedule(a.state, id)).toMatchObject({ state: 'completed', runsDone: 3 });

    // importBlock re-executes each block and refuses it unless its gas and state root are the header's.
    for (let h = 1; h <= a.chain.height; h++) {
      const block = (await a.chain.blockByHeight(h))!;
      const imported = await importBlock(b.chain, encodeBlock(block), new Uint8Array(0));
      await imported.durable;
      expect(encodeHash(imported.block.header.stateRoot), `state root at ${h}`).toBe(encodeHash(block.header.stateRoot));
    }
    expect(b.chain.height).toBe(a.chain.height);
    const runsB = scheduleRuns(b.state, lookupSchedule(b.state, id)!);
    expect(runsB.map((r) => [r.run, r.height, r.status])).toEqual(runsA.map((r) => [r.run, r.height, r.status]));
    expect(new Set(runsA.map((r) => r.height)).size).toBe(3);
    expect(runsA[0]!.height).toBe(BigInt(receipt.block_height));
  }, 60_000);
});
