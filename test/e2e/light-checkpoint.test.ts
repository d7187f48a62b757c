/**
 * Checkpoint sync of a `--light` node (issue 43 item 1; docs/light-client.md): a validator that
 * prunes aggressively (it keeps 10 blocks) still serves a light node that starts from a
 * `--checkpoint` or from genesis, by its epoch records (svc_getEpochProofs, `/ntv/epochs/1`):
 * epoch to epoch across a validator-set change, then the headers it holds. A checkpoint of
 * another hash is refused and the node stays where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey, Signer } from '../../src/codec/keys.js';
import { sleep, TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const EPOCH = 5;

interface EpochProofs { epoch_length: number; head: number; records: Array<{ height: number; hash: string; checkpoint: string; record: string }> }

let dir: string;
let a: TestNode;
let genesisArgs: string[];
let bootnode: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-light-cp-'));
  const seed = Buffer.alloc(32, 7);
  await writeFile(join(dir, 'a.key'), seed.toString('hex'));
  await writeFile(join(dir, 'params.json'), JSON.stringify({ epoch_length: EPOCH }));
  genesisArgs = ['--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex'), '--chain-params', join(dir, 'params.json')];
  a = await TestNode.start({
    args: ['--validator-key', join(dir, 'a.key'), '--block-time', '0.5', '--pruning', 'aggressive', '--pruning-keep-blocks', '10', '--pruning-every', '5', ...genesisArgs],
  });
  // A set change: a second validator (not running, a small stake) joins at the next boundary.
  const staker = Signer.generate().address;
  await a.result('svc_transfer', [systemAddressHex(1), staker, 'NTV', (2000n * 10n ** 9n).toString()]);
  expect((await a.result<{ status: string }>('svc_stake', [staker, (1000n * 10n ** 9n).toString(), Buffer.alloc(32, 11).toString('hex')])).status).toBe('success');
  await a.waitForHeight(8 * EPOCH, 90_000);
  const deadline = Date.now() + 20_000;
  while (!a.logs.includes('"msg":"pruned"') && Date.now() < deadline) await sleep(100);
  bootnode = (await a.result<{ addresses: string[] }>('svc_validatorHealth')).addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
}, 150_000);

afterAll(async () => {
  await a?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc_getEpochProofs', () => {
  it('serves the records of every boundary from genesis on, past the pruned blocks, and refuses bad params', async () => {
    expect((await a.call('svc_getBlockByHeight', [EPOCH])).error?.code).toBe(-32013);
    const all = await a.result<EpochProofs>('svc_getEpochProofs', []);
    expect(all.epoch_length).toBe(EPOCH);
    expect(all.records.map((r) => r.height).slice(0, 5)).toEqual([0, 5, 10, 15, 20]);
    const genesis = await a.result<{ hash: string }>('svc_getBlockByHeight', [0]);
    expect(all.records[0]).toMatchObject({ hash: genesis.hash, checkpoint: `0:${genesis.hash}` });
    const some = await a.result<EpochProofs>('svc_getEpochProofs', [6, 2]);
    expect(some.records.map((r) => r.height)).toEqual([10, 15]);
    expect(some.records[0]!.record).toBe(all.records[2]!.record);
    const bad = await a.call('svc_getEpochProofs', [0, 0]);
    expect(bad.error?.code).toBe(-32602);
    expect((await a.call('svc_getEpochProofs', [-1])).error?.code).toBe(-32602);
  });
});

describe('--light from a pruning peer', () => {
  /** Waits until the light node's head is at `height` or above; resolves with that head. */
  async function reached(light: TestNode, height: number): Promise<number> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const head = Number.parseInt(await light.result<string>('eth_blockNumber'), 16);
      if (head >= height) return head;
      await sleep(200);
    }
    throw new Error(`the light node did not reach ${height}:\n${light.logs.slice(-3000)}`);
  }

  it('with --checkpoint and from genesis: epoch to epoch across the set change, then the held headers; a wrong checkpoint is refused', async () => {
    const { records } = await a.result<EpochProofs>('svc_getEpochProofs', [EPOCH, 1]);
    const checkpoint = records[0]!.checkpoint;
    const forged = `${EPOCH}:${'ab'.repeat(32)}`;
    const base = ['--light', '--bootnodes', bootnode, ...genesisArgs];
    const cpDir = await mkdtemp(join(tmpdir(), 'ntv-light-cp-node-'));
    const cpArgs = [...base, '--checkpoint', checkpoint];
    let fromCheckpoint: TestNode;
    const [first, fromGenesis, wrong] = await Promise.all([
      TestNode.start({ dataDir: cpDir, args: cpArgs }),
      TestNode.start({ args: base }),
      TestNode.start({ args: [...base, '--checkpoint', forged] }),
    ]);
    fromCheckpoint = first;
    try {
      const target = (await a.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      const heads = await Promise.all([reached(fromCheckpoint, target), reached(fromGenesis, target)]);
      for (const [i, light] of [fromCheckpoint, fromGenesis].entries()) {
        // Compared at the light node's own head, a header it holds: an epoch record can carry it past
        // `target` to the next boundary, and the headers between boundaries crossed that way are
        // never fetched (a loaded run asked for `target` there and got -32003).
        const [full, header] = await Promise.all([
          a.result<{ hash: string; stateRoot: string }>('svc_getBlockByHeight', [heads[i]]),
          light.result<{ hash: string; stateRoot: string; light: boolean }>('svc_getBlockByHeight', [heads[i]]),
        ]);
        expect(header).toMatchObject({ hash: full.hash, stateRoot: full.stateRoot, light: true });
        const health = await light.result<{ votingValidators: number; headersRefused: number; validatorSetHeight: number }>('svc_validatorHealth');
        expect(health, light.logs.slice(-3000)).toMatchObject({ votingValidators: 2, headersRefused: 0 });
        expect(light.logs).not.toContain('served nothing');
      }
      expect(fromCheckpoint.logs).toContain('light node started from checkpoint');
      // Below the checkpoint, and between the boundaries crossed by their records, it holds no header.
      expect((await fromCheckpoint.call('svc_getBlockByHeight', [EPOCH - 2])).error?.code).toBe(-32003);
      expect((await fromCheckpoint.result<{ hash: string }>('svc_getBlockByHeight', [EPOCH])).hash).toBe(records[0]!.hash);
      // The forged checkpoint: refused, named, and the node stays at genesis.
      const deadline = Date.now() + 20_000;
      while (!wrong.logs.includes('is not the checkpoint') && Date.now() < deadline) await sleep(200);
      expect(wrong.logs).toMatch(new RegExp(`"error":"block ${EPOCH} as served \\([0-9a-f]{64}\\) is not the checkpoint's (ab){32}: the node is on another chain or lies","msg":"header from peer refused"`));
      expect(Number.parseInt(await wrong.result<string>('eth_blockNumber'), 16)).toBe(0);
      // A restart with the same --checkpoint resumes from the stored head and the stored set proof.
      const before = Number.parseInt(await fromCheckpoint.result<string>('eth_blockNumber'), 16);
      await fromCheckpoint.stop();
      fromCheckpoint = await TestNode.start({ dataDir: cpDir, args: cpArgs });
      const opened = fromCheckpoint.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number; validatorSetHeight?: number }).filter((l) => l.msg === 'light node opened').at(-1);
      expect(opened?.height, fromCheckpoint.logs.slice(-3000)).toBeGreaterThanOrEqual(before);
      expect(opened?.validatorSetHeight).toBeGreaterThan(EPOCH);
      await reached(fromCheckpoint, before + 2);
      expect((await fromCheckpoint.result<{ headersRefused: number }>('svc_validatorHealth')).headersRefused).toBe(0);
    } finally {
      await Promise.all([fromCheckpoint.stop(), fromGenesis.stop(), wrong.stop()]);
      await rm(cpDir, { recursive: true, force: true });
    }
  }, 120_000);
});
