import { describe, expect, it } from 'vitest';
import type { Receipt } from '../../src/chain/receipts.js';
import { ChainError } from '../../src/chain/errors.js';
import type { ParsedIntent } from '../../src/intents/goals.js';
import { IntentScheduler, type ScheduleExecutor, type ScheduleRecord } from '../../src/intents/scheduler.js';
import { JsonRecords, RecordKind, type IntentRecordStore } from '../../src/intents/store.js';
import type { Logger } from '../../src/logger.js';

// A schedule's run pending from before a restart (src/intents/scheduler.ts `load`): its bundle's
// receipt decides it, and "the lookup index has not reached it yet" must not count as "never
// included" (that would run a Recurring payment twice).

class MemoryStore implements IntentRecordStore {
  readonly records = new Map<string, Uint8Array>();
  async getIntentRecord(key: Uint8Array) {
    return this.records.get(Buffer.from(key).toString('hex'));
  }
  async putIntentRecord(key: Uint8Array, value: Uint8Array) {
    this.records.set(Buffer.from(key).toString('hex'), value);
  }
  async scanIntentRecords(kind: number, onRecord: (key: Uint8Array, value: Uint8Array) => void) {
    for (const [k, v] of this.records) if (Buffer.from(k, 'hex')[0] === kind) onRecord(Buffer.from(k, 'hex'), v);
  }
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const NOW = 1_800_000_000;

function schedule(): ScheduleRecord {
  return {
    id: 'sched-1', kind: 'Recurring', intent: 'send 1 NTV to alice every day for 3 days', sender: 'sender', summary: 'pay alice',
    created_at: NOW - 100, state: 'active', interval_seconds: 86_400, runs_total: 3, runs_done: 1, next_due: NOW + 86_400,
    runs: [{ run: 1, at: NOW - 100, bundle_hash: 'aa'.repeat(32), status: 'pending' }],
  };
}

async function scheduler(receipt: () => Promise<Receipt | undefined>) {
  const store = new MemoryStore();
  await new JsonRecords<ScheduleRecord>(store, RecordKind.SCHEDULE).put('sched-1', schedule());
  let sent = 0;
  const executor: ScheduleExecutor = {
    parse: () => ({ goal: { type: 'Recurring' } }) as unknown as ParsedIntent,
    planRun: () => { throw new Error('not planned in this test'); },
    send: () => { sent++; throw new Error('not sent in this test'); },
    price: () => undefined,
    parseSender: () => new Uint8Array(32),
    nowSeconds: () => NOW,
  };
  const s = new IntentScheduler(store, executor, quiet);
  await s.load(receipt);
  const stored = async () => (await new JsonRecords<ScheduleRecord>(store, RecordKind.SCHEDULE).get('sched-1'))!;
  return { s, stored, sent: () => sent };
}

const indexing = () => new ChainError('TX_INDEXING', 'transaction indexing is in progress', { indexed_to: 3, head: 9 });
const included: Receipt = { status: 'success', block_height: 7, gas_used: 21_000, status_name: 'OK' } as unknown as Receipt;

describe('IntentScheduler after a restart', () => {
  it('keeps a run pending while its receipt cannot be told, then settles it from the receipt', async () => {
    let answer: 'indexing' | 'included' = 'indexing';
    const { s, stored, sent } = await scheduler(async () => {
      if (answer === 'indexing') throw indexing();
      return included;
    });
    expect(s.unresolvedRuns).toBe(1);
    expect((await stored()).runs[0]!.status).toBe('pending');
    expect((await stored()).runs_done).toBe(1);
    await s.tick(); // still indexing: nothing settles, nothing is sent
    expect(s.unresolvedRuns).toBe(1);
    expect(s.get('sched-1')!.runs[0]!.status).toBe('pending');
    answer = 'included';
    await s.tick();
    expect(s.unresolvedRuns).toBe(0);
    const rec = await stored();
    expect(rec.runs[0]).toMatchObject({ status: 'completed', block_height: 7, gas_used: 21_000 });
    expect(rec.runs_done).toBe(1);
    expect(sent()).toBe(0);
  });

  it('marks a run lost once the index answers that no block holds it, and counts it to run again', async () => {
    let answer: 'indexing' | 'none' = 'indexing';
    const { s, stored } = await scheduler(async () => {
      if (answer === 'indexing') throw indexing();
      return undefined;
    });
    answer = 'none';
    await s.tick();
    const rec = await stored();
    expect(rec.runs[0]!.status).toBe('failed');
    expect(rec.runs[0]!.error).toMatch(/restarted before the bundle was included/);
    expect(rec.runs_done).toBe(0);
  });
});
