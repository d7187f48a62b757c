import { randomBytes } from 'node:crypto';
import type { Receipt } from '../chain/receipts.js';
import type { Logger } from '../logger.js';
import type { Goal, ParsedIntent } from './goals.js';
import { PlanError, type Plan } from './planner.js';
import { JsonRecords, RecordKind, type IntentRecordStore } from './store.js';

/**
 * Recurring and Conditional intents (spec §4.8 grammar; docs/intents.md "Recurring and
 * conditional intents"): the node holds them in its level store and executes them itself when
 * due, each run planned afresh against the state of that moment and sent as a normal bundle with
 * its own receipt. They are node-held testnet conveniences: the bundles are unsigned and carry the
 * node-chosen nonce, exactly like svc_swap, so mainnet refuses them.
 *
 * Due-ness is checked after every committed block (the chain produces one at least every
 * --block-time): a Recurring intent when its next run time has come; a Conditional one when the
 * pool price satisfies its condition (limit buy = Conditional Acquire). One run at a time per
 * schedule: the next is not started before the previous one's bundle is settled.
 */

export type ScheduleState = 'active' | 'completed' | 'expired' | 'failed';

export interface ScheduleRun {
  run: number;
  /** unix seconds */
  at: number;
  bundle_hash?: string;
  status: 'pending' | 'completed' | 'failed';
  error?: string;
  status_name?: string;
  block_height?: number;
  gas_used?: number;
}

export interface ScheduleRecord {
  id: string;
  kind: 'Recurring' | 'Conditional';
  intent: string;
  sender: string;
  summary: string;
  created_at: number;
  state: ScheduleState;
  interval_seconds?: number;
  runs_total?: number;
  /** runs started (Recurring) */
  runs_done: number;
  /** unix seconds of the next run (Recurring) */
  next_due?: number;
  /** unix seconds after which a Conditional intent no longer triggers */
  expires_at?: number;
  condition?: { direction: 'below' | 'above'; price: string; base: string; quote: string };
  /** the last time the condition was checked and the price seen then (Conditional) */
  last_check?: { at: number; price: string };
  last_error?: string;
  runs: ScheduleRun[];
}

/** What the scheduler needs from the intent service. */
export interface ScheduleExecutor {
  /** parse the stored intent string again (tokens resolve the same; intents are node-local text) */
  parse(text: string): ParsedIntent;
  /** plan a goal for a sender against committed state, as one run */
  planRun(goal: Goal, intent: ParsedIntent, sender: Uint8Array): Plan;
  /** send the plan as one unsigned bundle; the promise settles with its receipt */
  send(plan: Plan, sender: Uint8Array): { hash: string; included: Promise<Receipt> };
  /** the spot price of 1 whole base in whole quote as a fraction, or undefined without a route */
  price(base: Uint8Array, quote: Uint8Array): { num: bigint; den: bigint; text: string } | undefined;
  parseSender(text: string): Uint8Array;
  nowSeconds(): number;
}

/** Conditional intents without a deadline stay armed this long (docs/intents.md). */
export const CONDITIONAL_DEFAULT_SECONDS = 7 * 86_400;
/** A Conditional intent gives up after this many failed runs. */
export const CONDITIONAL_MAX_FAILURES = 3;

export class IntentScheduler {
  private readonly records: JsonRecords<ScheduleRecord>;
  private readonly schedules = new Map<string, ScheduleRecord>();
  private ticking = false;
  private again = false;
  /** how `load` reads a receipt by bundle hash (kept to ask again for `unresolved` runs) */
  private receiptOf: ((hash: string) => Promise<Receipt | undefined>) | undefined;
  private readonly unresolved: Array<{ rec: ScheduleRecord; run: ScheduleRun }> = [];

  constructor(
    store: IntentRecordStore,
    private readonly executor: ScheduleExecutor,
    private readonly logger: Logger,
  ) {
    this.records = new JsonRecords(store, RecordKind.SCHEDULE);
  }

  /**
   * Load the schedules from storage. A run still "pending" from before a restart whose bundle never
   * got a receipt was lost with the mempool (it is not in any block), so it is marked failed and,
   * for a Recurring intent, not counted: the run is made again.
   *
   * `receipt` throws when it cannot tell yet: after a catch-up sync the transaction lookup index
   * trails the head (TX_INDEXING, docs/storage.md), and the bundle may be in a block it has not
   * reached. Such a run stays pending, which holds its schedule's next run back, and is asked
   * again at every tick until the answer is known: taking "not indexed yet" for "never included"
   * would run a Recurring payment twice.
   */
  async load(receipt: (hash: string) => Promise<Receipt | undefined>): Promise<number> {
    this.receiptOf = receipt;
    for (const [id, rec] of await this.records.all()) {
      for (const run of rec.runs) {
        if (run.status !== 'pending' || !run.bundle_hash) continue;
        if (!(await this.resolve(rec, run))) this.unresolved.push({ rec, run });
      }
      this.finishIfDone(rec);
      this.schedules.set(id, rec);
      await this.records.put(id, rec);
    }
    return this.schedules.size;
  }

  /** Runs pending from before a restart that `load` could not settle yet (see there). */
  get unresolvedRuns(): number {
    return this.unresolved.length;
  }

  /** Settle a run pending from before a restart from its receipt, or as lost; false when the receipt cannot be told yet. */
  private async resolve(rec: ScheduleRecord, run: ScheduleRun): Promise<boolean> {
    let r: Receipt | undefined;
    try {
      r = await this.receiptOf!(run.bundle_hash!);
    } catch {
      return false;
    }
    if (r) this.settleRun(run, r);
    else {
      run.status = 'failed';
      run.error = 'the node restarted before the bundle was included; it was never executed';
      if (rec.kind === 'Recurring') rec.runs_done = Math.max(0, rec.runs_done - 1);
    }
    return true;
  }

  /** Ask again for the runs `load` left pending; each one settled is stored. */
  private async resolveUnresolved(): Promise<void> {
    for (const item of [...this.unresolved]) {
      if (!(await this.resolve(item.rec, item.run))) continue;
      this.unresolved.splice(this.unresolved.indexOf(item), 1);
      this.finishIfDone(item.rec);
      await this.records.put(item.rec.id, item.rec);
    }
  }

  get(id: string): ScheduleRecord | undefined {
    return this.schedules.get(id);
  }

  get size(): number {
    return this.schedules.size;
  }

  /** Register a Recurring or Conditional intent; the first check happens at once. */
  async add(text: string, intent: ParsedIntent, plan: Plan, sender: string): Promise<ScheduleRecord> {
    const now = this.executor.nowSeconds();
    const id = Buffer.from(randomBytes(32)).toString('hex');
    const goal = intent.goal;
    let rec: ScheduleRecord;
    if (goal.type === 'Recurring') {
      rec = {
        id, kind: 'Recurring', intent: text, sender, summary: plan.summary, created_at: now, state: 'active',
        interval_seconds: goal.intervalSeconds, runs_total: goal.runs, runs_done: 0, next_due: now, runs: [],
      };
    } else if (goal.type === 'Conditional') {
      const c = goal.condition;
      rec = {
        id, kind: 'Conditional', intent: text, sender, summary: plan.summary, created_at: now, state: 'active', runs_done: 0,
        expires_at: now + (intent.constraints.deadlineSeconds ?? CONDITIONAL_DEFAULT_SECONDS),
        condition: { direction: c.direction, price: c.price.text, base: c.base.symbol, quote: c.quote.symbol }, runs: [],
      };
    } else {
      throw new Error(`not a scheduled goal: ${goal.type}`);
    }
    this.schedules.set(id, rec);
    await this.records.put(id, rec);
    void this.tick();
    return rec;
  }

  /** Check every active schedule; called after each committed block. */
  async tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.again = false;
        if (this.unresolved.length > 0) await this.resolveUnresolved();
        for (const rec of this.schedules.values()) {
          if (rec.state !== 'active') continue;
          try {
            await this.check(rec);
          } catch (error) {
            this.logger.warn('scheduled intent check failed', { id: rec.id, error: String(error) });
          }
        }
      } while (this.again);
    } finally {
      this.ticking = false;
    }
  }

  private async check(rec: ScheduleRecord): Promise<void> {
    if (rec.runs.some((r) => r.status === 'pending')) return;
    const now = this.executor.nowSeconds();
    const intent = this.executor.parse(rec.intent);
    const goal = intent.goal;
    if (goal.type === 'Recurring') {
      if (rec.runs_done >= rec.runs_total! || now < rec.next_due!) return;
      rec.runs_done++;
      rec.next_due = rec.next_due! + rec.interval_seconds! <= now ? now + rec.interval_seconds! : rec.next_due! + rec.interval_seconds!;
      await this.run(rec, goal.goal, intent, now);
      return;
    }
    if (goal.type !== 'Conditional') return;
    if (now > rec.expires_at!) {
      rec.state = 'expired';
      await this.records.put(rec.id, rec);
      return;
    }
    const c = goal.condition;
    const price = this.executor.price(c.base.mint, c.quote.mint);
    if (!price) {
      rec.last_error = `no pool and no route prices ${c.base.symbol} in ${c.quote.symbol}`;
      return;
    }
    rec.last_check = { at: now, price: price.text };
    // price = num/den vs target p.num/p.den, cross-multiplied (exact)
    const lhs = price.num * c.price.den;
    const rhs = c.price.num * price.den;
    const met = c.direction === 'below' ? lhs < rhs : lhs > rhs;
    if (!met) return;
    rec.runs_done++;
    await this.run(rec, goal.goal, intent, now);
  }

  private async run(rec: ScheduleRecord, goal: Goal, intent: ParsedIntent, now: number): Promise<void> {
    const run: ScheduleRun = { run: rec.runs.length + 1, at: now, status: 'pending' };
    rec.runs.push(run);
    const sender = this.executor.parseSender(rec.sender);
    try {
      const plan = this.executor.planRun(goal, intent, sender);
      if (plan.rejection) throw plan.rejection;
      const sent = this.executor.send(plan, sender);
      run.bundle_hash = sent.hash;
      sent.included.then(
        (receipt) => void this.settled(rec, run, receipt),
        (error: Error & { data?: { receipt?: Receipt; status?: string } }) => void this.settled(rec, run, error.data?.receipt, error),
      );
    } catch (error) {
      run.status = 'failed';
      run.error = error instanceof Error ? error.message : String(error);
      if (error instanceof PlanError) run.status_name = error.reason;
      rec.last_error = run.error;
      this.finishIfDone(rec);
    }
    await this.records.put(rec.id, rec);
  }

  private async settled(rec: ScheduleRecord, run: ScheduleRun, receipt?: Receipt, error?: Error & { data?: { status?: string } }): Promise<void> {
    if (receipt) this.settleRun(run, receipt);
    else if (error && (error as { reason?: string }).reason === 'INCLUSION_TIMEOUT') return; // still in the mempool
    else {
      run.status = 'failed';
      run.error = error?.message ?? 'not included';
      if (error?.data?.status) run.status_name = error.data.status;
    }
    if (run.status === 'failed') rec.last_error = run.error;
    this.finishIfDone(rec);
    await this.records.put(rec.id, rec);
    void this.tick();
  }

  private settleRun(run: ScheduleRun, receipt: Receipt): void {
    run.status = receipt.status === 'success' ? 'completed' : 'failed';
    run.block_height = receipt.block_height;
    run.gas_used = receipt.gas_used;
    run.status_name = receipt.status_name;
    if (receipt.error) run.error = receipt.error;
  }

  /** Recurring: done when every run is settled; Conditional: done on its first successful run. */
  private finishIfDone(rec: ScheduleRecord): void {
    if (rec.state !== 'active') return;
    if (rec.runs.some((r) => r.status === 'pending')) return;
    if (rec.kind === 'Recurring' && rec.runs_done >= rec.runs_total!) {
      rec.state = rec.runs.some((r) => r.status === 'completed') ? 'completed' : 'failed';
      delete rec.next_due;
    }
    if (rec.kind === 'Conditional' && rec.runs.some((r) => r.status === 'completed')) rec.state = 'completed';
    // A condition that holds while its run keeps failing (no balance, no route) would retry every block.
    else if (rec.kind === 'Conditional' && rec.runs.filter((r) => r.status === 'failed').length >= CONDITIONAL_MAX_FAILURES) rec.state = 'failed';
  }
}

/** Settled runs of a schedule with their receipts, for svc_getIntentStatus. */
export function scheduleView(rec: ScheduleRecord) {
  const gas = rec.runs.reduce((acc, r) => acc + (r.gas_used ?? 0), 0);
  const status = rec.state === 'active' ? 'pending' : rec.state === 'completed' ? 'completed' : 'failed';
  return {
    status,
    kind: rec.kind,
    schedule_state: rec.state,
    intent: rec.intent,
    sender: rec.sender,
    summary: rec.summary,
    gas_used: gas,
    block_height: rec.runs.reduce<number | null>((h, r) => (r.block_height !== undefined && (h === null || r.block_height > h) ? r.block_height : h), null),
    created_at: rec.created_at,
    runs_done: rec.runs_done,
    runs_left: rec.kind === 'Recurring' ? Math.max(0, rec.runs_total! - rec.runs_done) : rec.state === 'active' ? 1 : 0,
    ...(rec.kind === 'Recurring' ? { runs_total: rec.runs_total!, interval_seconds: rec.interval_seconds!, next_due: rec.next_due ?? null } : {}),
    ...(rec.kind === 'Conditional' ? { condition: rec.condition!, expires_at: rec.expires_at!, last_check: rec.last_check ?? null } : {}),
    last_error: rec.last_error ?? null,
    runs: rec.runs,
  };
}
