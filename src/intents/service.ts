import type { ChainApi, DomainReaders } from '../chain/interface.js';
import { ChainError } from '../chain/errors.js';
import { statusOf } from '../chain/status.js';
import { nameProblem, resolveName } from '../domains/names/reader.js';
import { accountOfConsensusKey, readDelegation, readDelegatorValidators, readValidator, readValidatorRecords } from '../chain/validator-set.js';
import { listPrograms as listProgramRecords, lookupProgram, PROGRAM_MAX_BYTES, type ProgramRecord } from '../domains/programs/reader.js';
import { lookupSchedule, scheduleId, scheduleRuns } from '../domains/schedules/reader.js';
import type { Operation } from '../codec/operations.js';
import type { DexReader } from '../domains/dex/reader.js';
import type { Receipt } from '../chain/receipts.js';
import { encodeAccount, encodeHash, parseAddress, parseHash } from '../codec/address.js';
import type { ParsedIntent, TokenRef } from './goals.js';
import { compileCore, type WasmModule } from '../core/loader.js';
import type { AmmMath } from '../core/amm.js';
import type { Logger } from '../logger.js';
import { GasMeter } from './gas.js';
import { HookRegistry } from './hooks.js';
import { NTV_MINT, type MarketSource } from './market.js';
import { planIntents, PlanError, type Plan, type PlannerEnv } from './planner.js';
import { bindParams, ProgramError, sampleValues, substitute, validateProgram, type ProgramDefinition, type StoredProgram, type ValueChecks } from './programs.js';
import { scheduleOperation, scheduleStatus } from './schedules.js';
import { Simulator, type SimulationOutcome } from './simulate.js';
import type { StakingSource } from './validators.js';
import { JsonRecords, RecordKind, type IntentRecordStore } from './store.js';

/**
 * The intent engine of a node (docs/intents.md): parse → plan → simulate → submit, the status of
 * what was submitted, Recurring/Conditional intents as on-chain schedules and the intent programs. Built once in
 * src/node.ts with `(options, dependencies)` and handed to the RPC methods (src/rpc/methods/intents.ts).
 */

export type ParseFn = (text: string) => ParsedIntent;

/** Submitted-intent records kept in memory besides the store. */
const RECENT_RECORDS = 10_000;

export interface IntentServiceDependencies {
  chain: ChainApi;
  /** the domain readers built once in node.ts (pools, tokens, …) */
  readers: DomainReaders;
  store: IntentRecordStore;
  /** this node's validator: the proposer of simulated blocks */
  validator: { address: Uint8Array; publicKey: Uint8Array };
  logger: Logger;
  /** the intent parser bound to the token registry (src/intents/parser.ts parseIntent) */
  parse: ParseFn;
  hooks?: HookRegistry;
}

/** What svc_submitIntent / svc_executeProgram sent, kept for svc_getIntentStatus. */
export interface SubmittedIntent {
  bundle_hash: string;
  kind: 'intent' | 'program' | 'schedule';
  intent?: string;
  program?: string;
  intents?: string[];
  /** the schedule a CreateSchedule bundle creates (docs/schedules.md) */
  schedule_id?: string;
  sender: string;
  summary: string;
  submitted_at: number;
  /** why it never reached a block, when it did not */
  error?: string;
  status_name?: string;
}

export interface SubmitResult {
  /** the bundle hash, or for Recurring/Conditional the schedule id (Nxh…, docs/schedules.md) */
  hash: string;
  scheduled: boolean;
  plan: Plan;
}

export class IntentService {
  readonly hooks: HookRegistry;
  private readonly submitted: JsonRecords<SubmittedIntent>;
  private readonly recent = new Map<string, SubmittedIntent>();
  private readonly dex: DexReader;
  private readonly simulator: Simulator;

  private constructor(
    private readonly deps: IntentServiceDependencies,
    readonly amm: AmmMath,
    readonly gas: GasMeter,
    module: WasmModule,
  ) {
    this.hooks = deps.hooks ?? new HookRegistry();
    this.dex = deps.readers.dex;
    this.simulator = new Simulator(module);
    this.submitted = new JsonRecords(deps.store, RecordKind.SUBMITTED);
  }

  static async open(deps: IntentServiceDependencies): Promise<IntentService> {
    const module = await compileCore();
    const service = new IntentService(deps, await deps.readers.dex.amm(), await GasMeter.create(module), module);
    deps.logger.info('intent engine ready');
    return service;
  }

  /** Nothing to stop: schedules run in the core (docs/schedules.md). */
  close(): void {}

  private now(): number {
    return Math.max(Math.floor(Date.now() / 1000), this.deps.chain.headHeader.timestamp);
  }

  get chain(): ChainApi {
    return this.deps.chain;
  }

  // ---- planning -----------------------------------------------------------------------------

  parse(text: string): ParsedIntent {
    return this.deps.parse(text);
  }

  private get ntv(): TokenRef {
    return this.deps.readers.tokens.byMintBytes(NTV_MINT)!;
  }

  /** The planner's view of committed state (src/intents/market.ts MarketSource). */
  readonly source: MarketSource = {
    pool: (a, b) => this.dex.pool(a, b),
    balance: (account, mint) => this.deps.chain.balance(account, mint),
    token: (mint) => this.deps.readers.tokens.byMintBytes(mint),
    tokens: () => this.deps.readers.tokens.list(),
    pools: () => this.dex.pools.values(),
  };

  /** Committed staking state for Stake and Allocate goals (src/intents/validators.ts). */
  readonly staking: StakingSource = {
    validator: (account) => readValidator(this.deps.chain.state, account),
    accountOfKey: (key) => accountOfConsensusKey(this.deps.chain.state, key),
    validators: () => readValidatorRecords(this.deps.chain.state),
    delegated: (validator, delegator) => readDelegation(this.deps.chain.state, validator, delegator)?.amount ?? 0n,
    delegatedTo: (delegator) => readDelegatorValidators(this.deps.chain.state, delegator),
  };

  env(): PlannerEnv {
    return {
      source: this.source,
      amm: this.amm,
      ntv: this.ntv,
      gasPrice: this.deps.chain.gasPrice,
      bundleGas: (ops) => this.gas.bundleGas(ops),
      resolveName: (name) => resolveName(this.deps.chain.state, name),
      nameProblem: (name) => nameProblem(name),
      hooks: this.hooks.hooks,
      staking: this.staking,
      pendingReceives: (recipient) => this.deps.readers.bridge.pending(recipient)
        .map((d) => ({ chain: d.chain, txHash: d.txHash, mint: d.mint, amount: d.amount, reason: statusOf(d.reason).name })),
    };
  }

  /** Parse and plan intent texts into one bundle for `sender`. */
  plan(texts: string[], sender: Uint8Array, where?: (i: number) => string): { intents: ParsedIntent[]; plan: Plan } {
    const intents = texts.map((t) => this.deps.parse(t));
    return { intents, plan: planIntents(intents, sender, this.env(), where) };
  }

  /**
   * The operations of the bundle that carries out a plan, and its max_gas: the plan's own, or for a
   * Recurring/Conditional intent ONE CreateSchedule operation (docs/schedules.md)
   * holding the planned operations, with that operation's gas.
   */
  bundleFor(plan: Plan, intent: ParsedIntent): { operations: Operation[]; maxGas: bigint } {
    if (!plan.schedule) return { operations: plan.operations, maxGas: plan.maxGas };
    const op = scheduleOperation(plan, this.now(), intent.constraints.deadlineSeconds);
    return { operations: [op], maxGas: this.gas.bundleGas([op]) };
  }

  /** Run the plan's bundle through a scratch core over committed state (src/intents/simulate.ts). */
  simulate(plan: Plan): Promise<SimulationOutcome> {
    const chain = this.deps.chain;
    const head = chain.headHeader;
    return this.simulator.run(
      {
        state: chain.state, headKey: Buffer.from(head.hash).toString('hex'), height: head.height + 1,
        timestamp: Math.max(Math.floor(Date.now() / 1000), head.timestamp), proposer: this.deps.validator.address,
        gasPrice: chain.gasPrice, chainId: chain.chainId,
      },
      plan.sender, plan.operations, plan.maxGas,
    );
  }

  /** Spot price of 1 whole `base` in whole `quote`, direct or through NTV (svc_getPrice's route). */
  price(base: Uint8Array, quote: Uint8Array): { num: bigint; den: bigint; text: string } | undefined {
    const tokens = this.deps.readers.tokens;
    const b = tokens.byMintBytes(base);
    const q = tokens.byMintBytes(quote);
    if (!b || !q) return undefined;
    const hops: Array<[Uint8Array, Uint8Array]> = this.dex.pool(base, quote) ? [[base, quote]]
      : this.dex.pool(base, NTV_MINT) && this.dex.pool(NTV_MINT, quote) ? [[base, NTV_MINT], [NTV_MINT, quote]] : [];
    if (hops.length === 0) return undefined;
    let num = 10n ** BigInt(b.decimals);
    let den = 10n ** BigInt(q.decimals);
    for (const [f, t] of hops) {
      const p = this.dex.pool(f, t)!;
      const [rIn, rOut] = Buffer.compare(p.token0, f) === 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
      num *= rOut;
      den *= rIn;
    }
    if (den === 0n) return undefined;
    const scaled = (num * 10n ** 9n) / den;
    const frac = (scaled % 10n ** 9n).toString().padStart(9, '0').replace(/0+$/, '');
    return { num, den, text: `${scaled / 10n ** 9n}${frac ? `.${frac}` : ''}` };
  }

  // ---- submission ---------------------------------------------------------------------------

  /** The plan as one unsigned bundle in the mempool (testnet; mainnet refuses in the chain). */
  private send(plan: Plan, sender: Uint8Array, bundle: { operations: Operation[]; maxGas: bigint } = plan): { hash: string; nonce: bigint; included: Promise<Receipt> } {
    const validUntil = BigInt(this.now() + plan.deadlineSeconds);
    const sent = this.deps.chain.enqueueOperations(sender, bundle.operations, { maxGas: bundle.maxGas, validUntil });
    return { hash: encodeHash(sent.hash), nonce: sent.nonce, included: sent.included };
  }

  private refuseIfRejected(plan: Plan): void {
    if (plan.rejection) throw plan.rejection;
    this.refuseUnsigned();
  }

  private refuseUnsigned(): void {
    if (!this.deps.chain.allowUnsigned) {
      throw Object.assign(new Error('svc_submitIntent sends an unsigned bundle, which is disabled on mainnet; build the bundle with svc_getExecutionPlan, sign it and send it with svc_submitBundle'), {
        reason: 'UNAVAILABLE_ON_NETWORK',
      });
    }
  }

  /**
   * svc_submitIntent: the whole plan as ONE bundle (spec §7.5: a failing step reverts the intent
   * whole). A Recurring or Conditional intent is ONE CreateSchedule bundle (docs/intents.md
   * "Schedules on chain"): the core then runs it on every node; the answer is its schedule id,
   * Blake3("schedule" ‖ sender ‖ nonce ‖ 0), known as soon as the bundle has its nonce. Answers
   * once the bundle is in the mempool.
   */
  async submit(text: string, sender: Uint8Array): Promise<SubmitResult> {
    // The unsigned convenience is refused on mainnet whatever the intent (docs/intents.md).
    this.refuseUnsigned();
    const { intents, plan } = this.plan([text], sender);
    const intent = intents[0]!;
    this.refuseIfRejected(plan);
    if (plan.schedule) {
      const sent = this.send(plan, sender, this.bundleFor(plan, intent));
      const id = encodeHash(scheduleId(sender, sent.nonce, 0));
      const record: SubmittedIntent = { bundle_hash: sent.hash, kind: 'schedule', schedule_id: id, intent: text, sender: encodeAccount(sender), summary: plan.summary, submitted_at: this.now() };
      // Under both keys: the schedule id shows the schedule, the bundle hash the CreateSchedule bundle.
      await this.remember(record, sent.included);
      await this.remember(record, sent.included, id);
      return { hash: id, scheduled: true, plan };
    }
    const sent = this.send(plan, sender);
    await this.remember({ bundle_hash: sent.hash, kind: 'intent', intent: text, sender: encodeAccount(sender), summary: plan.summary, submitted_at: this.now() }, sent.included);
    return { hash: sent.hash, scheduled: false, plan };
  }

  /** Keep what was submitted, under its bundle hash, or under `key` (a schedule id) when given. */
  private async remember(record: SubmittedIntent, included: Promise<Receipt>, key = record.bundle_hash): Promise<void> {
    this.recent.set(key, record);
    // The store holds every record; memory keeps only the latest for fast status reads.
    if (this.recent.size > RECENT_RECORDS) this.recent.delete(this.recent.keys().next().value!);
    included.catch(async (error: Error & { reason?: string; data?: { status?: string; receipt?: Receipt } }) => {
      // A failed bundle has its receipt; a refused or timed-out one is recorded here.
      if (error.data?.receipt || error.reason === 'INCLUSION_TIMEOUT') return;
      record.error = error.message;
      if (error.data?.status) record.status_name = error.data.status;
      await this.submitted.put(key, record).catch(() => undefined);
    });
    await this.submitted.put(key, record);
  }

  /** svc_getIntentStatus: a schedule by its id, else a bundle by its hash (in flight, then its receipt). */
  async status(hashText: string): Promise<Record<string, unknown> | undefined> {
    const hash = parseHash(hashText);
    const hex = Buffer.from(hash).toString('hex');
    const shown = encodeHash(hash);
    const record = this.recent.get(shown) ?? (await this.submitted.get(shown));
    const schedule = lookupSchedule(this.deps.chain.state, hash);
    if (schedule) return { schedule_id: shown, ...this.scheduleView(schedule, record) };
    // A schedule id whose CreateSchedule bundle is not in a block yet (or failed): that bundle's status.
    if (record?.kind === 'schedule' && record.bundle_hash !== shown) {
      const creating = (await this.status(record.bundle_hash)) ?? {
        status: 'failed', bundle_hash: record.bundle_hash, status_name: record.status_name ?? 'DROPPED',
        error: record.error ?? 'the CreateSchedule bundle is neither in the mempool nor in a block',
      };
      return { schedule_id: shown, kind: 'schedule', ...creating, ...(creating?.status === 'completed' ? { status: 'pending' } : {}) };
    }
    const intentInfo = record
      ? { kind: record.kind, summary: record.summary, sender: record.sender, ...(record.intent ? { intent: record.intent } : {}),
          ...(record.program ? { program: record.program, intents: record.intents } : {}),
          ...(record.schedule_id ? { schedule_id: record.schedule_id } : {}), submitted_at: record.submitted_at }
      : {};
    // In flight first, then the receipt: a bundle is in one of the two at every moment (Chain.isInFlight).
    const inFlight = this.deps.chain.isInFlight(hex);
    const receipt = await this.deps.chain.receipt(hash);
    if (receipt) {
      return {
        status: receipt.status === 'success' ? 'completed' : 'failed', bundle_hash: shown, gas_used: receipt.gas_used, block_height: receipt.block_height,
        fee: receipt.fee, status_name: receipt.status_name, error: receipt.error ?? null, ...intentInfo, receipt,
      };
    }
    if (inFlight || this.deps.chain.isInFlight(hex)) return { status: 'pending', bundle_hash: shown, gas_used: 0, block_height: null, ...intentInfo };
    // Neither in flight nor found: "unknown" or "dropped" only once the lookup index is at the head
    // (this throws TX_INDEXING while it trails, docs/storage.md "The transaction lookup index").
    await this.deps.chain.receiptByHash(hash);
    if (!record) return undefined;
    return {
      status: 'failed', bundle_hash: shown, gas_used: 0, block_height: null, status_name: record.status_name ?? 'DROPPED',
      error: record.error ?? 'the bundle is neither in the mempool nor in a block (the node restarted before it was included)', ...intentInfo,
    };
  }

  /** A schedule record of chain state with its runs (0x36) as svc_getIntentStatus shows it. */
  private scheduleView(rec: NonNullable<ReturnType<typeof lookupSchedule>>, record: SubmittedIntent | undefined) {
    const tokens = this.deps.readers.tokens;
    const p = rec.kind === 'Conditional' && rec.state === 'active' ? this.price(rec.base, rec.quote) : undefined;
    return scheduleStatus(rec, scheduleRuns(this.deps.chain.state, rec), record ? { intent: record.intent, summary: record.summary, bundle_hash: record.bundle_hash } : undefined,
      (mint) => tokens.byMintBytes(mint), p ? { at: this.deps.chain.headHeader.timestamp, text: p.text } : undefined);
  }

  // ---- programs (spec §4.9) -----------------------------------------------------------------

  private checks(): ValueChecks {
    return {
      tokenExists: (t) => this.deps.readers.tokens.resolve(t) !== undefined,
      addressValid: (text) => {
        try {
          parseAddress(text);
          return true;
        } catch {
          return nameProblem(text) === undefined;
        }
      },
    };
  }

  /**
   * Register (or, for its owner, replace) a program: the RegisterProgram operation (bundle-format
   * disc. 48) sent as an unsigned bundle for `owner` (testnet convenience; mainnet refuses it, where
   * a wallet signs the same operation and sends it with svc_submitBundle). Programs are chain
   * state (docs/intents.md "Programs on chain"), so every node serves and runs the same record.
   * Each step must parse with stand-in values; the owner check is made here for a clear error and
   * again by the core, which decides.
   */
  async registerProgram(json: unknown, owner: Uint8Array): Promise<StoredProgram> {
    if (!this.deps.chain.allowUnsigned) {
      throw new ChainError('UNAVAILABLE_ON_NETWORK', 'svc_registerProgram sends an unsigned bundle, which is disabled on mainnet; sign a RegisterProgram operation '
        + '(bundle-format discriminant 48, docs/intents.md "Programs on chain") and send it with svc_submitBundle');
    }
    const def = this.checkProgram(json, owner);
    const existing = lookupProgram(this.deps.chain.state, def.name);
    if (existing && Buffer.compare(existing.owner, owner) !== 0) {
      throw new ProgramError('name', `the program "${def.name}" is registered by ${encodeAccount(existing.owner)}; only its owner can replace it`);
    }
    const text = JSON.stringify(def);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > PROGRAM_MAX_BYTES) throw new ProgramError('program_json', `is ${bytes} bytes as stored; a program holds at most ${PROGRAM_MAX_BYTES}`);
    await this.deps.chain.submitOperations(owner, [{ type: 'RegisterProgram', name: def.name, program: text }]);
    return this.getProgram(def.name)!;
  }

  /** A program definition validated, its steps parsed with stand-in values (registration and reading). */
  private checkProgram(json: unknown, owner: Uint8Array): ProgramDefinition {
    const def = validateProgram(json, this.checks());
    const symbols = this.deps.readers.tokens.list().filter((t) => this.dex.pool(t.mint, NTV_MINT) || Buffer.compare(t.mint, NTV_MINT) === 0).map((t) => t.symbol);
    const samples = sampleValues(def, symbols.length >= 2 ? symbols : ['NTV', 'USDC', 'SOL'], encodeAccount(owner));
    def.steps.forEach((step, i) => {
      let parsed: ParsedIntent;
      try {
        parsed = this.deps.parse(substitute(step.intent, samples));
      } catch (error) {
        throw new ProgramError(`steps[${i}].intent`, `does not parse: ${(error as Error).message}`);
      }
      if (parsed.goal.type === 'Recurring' || parsed.goal.type === 'Conditional') {
        throw new ProgramError(`steps[${i}].intent`, `is a ${parsed.goal.type} goal; programs execute their steps at once in one bundle`);
      }
    });
    return def;
  }

  /**
   * A program record of chain state as svc_getProgram shows it. The core stores any JSON text of
   * the right size under a valid name (a signed bundle may carry anything), so the definition is
   * validated as it is read: one that does not validate, or whose `name` is not its record's, is
   * shown with `valid: false` and the reason, and cannot be simulated or executed.
   */
  private programView(record: ProgramRecord): StoredProgram {
    let def: ProgramDefinition = { name: record.name, description: '', params: [], steps: [] };
    let invalid: string | undefined;
    try {
      def = validateProgram(record.json, this.checks());
      if (def.name !== record.name) invalid = `the JSON names the program "${def.name}", not "${record.name}"`;
    } catch (error) {
      invalid = (error as Error).message;
    }
    return {
      ...def, name: record.name, owner: encodeAccount(record.owner), version: record.revision,
      registered_at: Number(record.registeredAt), updated_at: Number(record.updatedAt),
      registered_height: Number(record.registeredHeight), updated_height: Number(record.updatedHeight),
      program_hash: '0x' + Buffer.from(record.hash).toString('hex'), valid: invalid === undefined, ...(invalid ? { invalid_reason: invalid } : {}),
    };
  }

  getProgram(name: string): StoredProgram | undefined {
    const record = lookupProgram(this.deps.chain.state, name);
    return record ? this.programView(record) : undefined;
  }

  /** Programs in registration order (the core's list index, 0x31/0x32). */
  listPrograms(limit: number): StoredProgram[] {
    return listProgramRecords(this.deps.chain.state, limit).map((r) => this.programView(r));
  }

  /** A program's steps with the call's values, planned as one bundle. */
  planProgram(name: string, values: unknown, sender: Uint8Array): { program: StoredProgram; texts: string[]; plan: Plan } {
    const program = this.getProgram(name);
    if (!program) throw new PlanError('NOT_FOUND', `no program named "${name}" is registered`, { name });
    if (!program.valid) throw new PlanError('INTENT_REJECTED', `the program "${name}" stored on chain does not validate: ${program.invalid_reason}`, { name });
    const bound = bindParams(program, values, this.checks());
    const texts = program.steps.map((s) => substitute(s.intent, bound));
    const intents = texts.map((t, i) => {
      try {
        return this.deps.parse(t);
      } catch (error) {
        throw new ProgramError(`steps[${i}].intent`, `"${t}" does not parse: ${(error as Error).message}`);
      }
    });
    const plan = planIntents(intents, sender, this.env(), (i) => `steps[${i}].intent`);
    return { program, texts, plan };
  }

  /** svc_executeProgram: every step in ONE bundle (atomic); answers with the bundle hash. */
  async executeProgram(name: string, values: unknown, sender: Uint8Array): Promise<{ hash: string; texts: string[]; plan: Plan }> {
    const { program, texts, plan } = this.planProgram(name, values, sender);
    this.refuseIfRejected(plan);
    const sent = this.send(plan, sender);
    await this.remember({
      bundle_hash: sent.hash, kind: 'program', program: program.name, intents: texts, sender: encodeAccount(sender), summary: plan.summary, submitted_at: this.now(),
    }, sent.included);
    return { hash: sent.hash, texts, plan };
  }
}
