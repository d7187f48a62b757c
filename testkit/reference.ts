// The bigint reference model of the core (docs/core-abi.md): the same rules, the same state root,
// written plainly in TypeScript with bigint arithmetic and hash-wasm's Blake3. It is the oracle of
// the randomized tests and the baseline of bench/core.ts, so it stays straightforward and honest:
// string-keyed Maps, per-bundle overlays, no wasm.

import { createBLAKE3 } from 'hash-wasm';
import { decodeBridgeOp, execBridgeRef, genesisBridgeRef, isBridgeOp, isBridgeOpKind, type BridgeOp } from './bridge-reference.js';
import { decodeSettleOp, execSettleOp, isSettleOp, SETTLE_GAS, SETTLE_STATUS, type SettleIo, type SettleOp } from './settle-reference.js';
import { createHash } from 'node:crypto';
import { decodeStableOp, execStableRef, genesisStableRecord, guard, profileRecord, type Host } from './stable-reference.js';

type Hasher = Awaited<ReturnType<typeof createBLAKE3>>;

export const S = {
  OK: 0, MALFORMED_BUNDLE: 1, EMPTY_BUNDLE: 2, TOO_MANY_OPS: 3, OP_NOT_ENABLED: 4, UNSIGNED_NOT_ALLOWED: 5,
  KEY_NOT_AUTHORIZED: 6, PUBKEY_MISMATCH: 7, EXPIRED: 8, NONCE_TOO_LOW: 9, NONCE_TOO_HIGH: 10,
  MAX_GAS_TOO_LOW: 11, INSUFFICIENT_FEE_BALANCE: 12, BLOCK_GAS_LIMIT: 13, INVALID_GENESIS: 14, INVALID_INPUT: 15, ALREADY_INCLUDED: 16,
  OUT_OF_GAS: 64, INSUFFICIENT_BALANCE: 65, UNKNOWN_TOKEN: 66, ZERO_AMOUNT: 67, AMOUNT_OVERFLOW: 68,
  SYMBOL_RESERVED: 69, SYMBOL_TAKEN: 70, INVALID_SYMBOL: 71, INVALID_NAME: 72, INVALID_DECIMALS: 73, ZERO_SUPPLY: 74,
  IDENTICAL_TOKENS: 75, POOL_EXISTS: 76, POOL_NOT_FOUND: 77, INSUFFICIENT_LIQUIDITY: 78, INSUFFICIENT_LIQUIDITY_MINTED: 79,
  INSUFFICIENT_OUTPUT_AMOUNT: 80, SLIPPAGE_EXCEEDED: 81, INSUFFICIENT_LP_BALANCE: 82, LP_LOCKED: 83, INVALID_LOCK_DURATION: 84,
  NOT_TOKEN_CREATOR: 85, METADATA_LOCKED: 86, INVALID_METADATA: 87, NOT_VALIDATOR: 92,
  INVALID_PROGRAM_NAME: 122, INVALID_PROGRAM: 123, NOT_PROGRAM_OWNER: 124,
  INVALID_SCHEDULE_TRIGGER: 125, INVALID_SCHEDULE_OPERATIONS: 126, SCHEDULE_NOT_FOUND: 127, NOT_SCHEDULE_OWNER: 128,
  SCHEDULE_NOT_ACTIVE: 129, INSUFFICIENT_ALLOWANCE: 140, NATIVE_NOT_APPROVABLE: 141, TRANSFER_TO_ZERO_ADDRESS: 142,
  // protocol proposals (docs/governance.md "Statuses")
  INVALID_PROPOSAL_TEXT: 230, INVALID_PARAMETER_VALUE: 231, TREASURY_INSUFFICIENT: 232, INVALID_SAFETY_TARGET: 233, INVALID_PROPOSAL_OPERATIONS: 234,
  NO_VOTING_POWER: 235, PROPOSAL_NOT_FOUND: 236, VOTING_CLOSED: 237, ALREADY_VOTED: 238, VOTING_NOT_ENDED: 239, PROPOSAL_REJECTED: 240,
  PROPOSAL_NOT_EXECUTABLE: 241, NOT_PROPOSER: 242, PROPOSAL_NOT_CANCELLABLE: 243, NO_CHAIN_PARAMS: 244,
  // DAOs (docs/dao.md)
  INVALID_DAO_CONFIG: 245, DAO_NOT_FOUND: 246, BELOW_PROPOSAL_THRESHOLD: 247, EXECUTION_DELAY_PENDING: 248, NO_LOCKED_VOTE: 249, VOTE_STILL_LOCKED: 250,
  // presales and staking pools (docs/presales.md, docs/staking-pools.md)
  PRESALE_NOT_FOUND: 280, INVALID_PRESALE_CAPS: 281, INVALID_PRESALE_WINDOW: 282, INVALID_LIQUIDITY_SHARE: 283, INVALID_PRESALE_LOCK: 284,
  INVALID_PRESALE_RATE: 285, PRESALE_LIQUIDITY_TOO_LOW: 286, PRESALE_NOT_ACTIVE: 287, PRESALE_HARD_CAP_EXCEEDED: 288,
  CONTRIBUTION_OUT_OF_RANGE: 289, PRESALE_NOT_ENDED: 290, SOFT_CAP_NOT_MET: 291, PRESALE_FINALIZED: 292, PRESALE_NOT_FAILED: 293,
  NOTHING_TO_REFUND: 294, PRESALE_NOT_FINALIZED: 295, PRESALE_NOTHING_TO_CLAIM: 296, STAKING_POOL_NOT_FOUND: 297,
  INVALID_STAKING_POOL: 298, POOL_CAPACITY_EXCEEDED: 299, POOL_USER_CAP_EXCEEDED: 300, POOL_STAKE_LOCKED: 301,
  INSUFFICIENT_POOL_STAKE: 302, NO_POOL_REWARDS: 303,
  ...SETTLE_STATUS,
  // docs/accounts.md "Statuses"
  KEY_ROLE_NOT_ALLOWED: 19, INVALID_KEY: 200, INVALID_KEY_ROLE: 201, KEY_EXISTS: 202, TOO_MANY_KEYS: 203, KEY_NOT_FOUND: 204,
  LAST_OWNER_KEY: 205, INVALID_GUARDIANS: 206, INVALID_THRESHOLD: 207, INVALID_TIMELOCK: 208, RECOVERY_NOT_CONFIGURED: 209,
  NOT_GUARDIAN: 210, RECOVERY_PENDING: 211, NO_PENDING_RECOVERY: 212, RECOVERY_ALREADY_APPROVED: 213, RECOVERY_KEY_MISMATCH: 214,
  RECOVERY_TIMELOCK_ACTIVE: 215, RECOVERY_TIMELOCK_ELAPSED: 216, RECOVERY_THRESHOLD_NOT_MET: 217, INVALID_SIGNERS: 218,
  INVALID_MULTISIG_FIELD: 219, MULTISIG_NOT_FOUND: 220, NOT_MULTISIG_SIGNER: 221, MULTISIG_TX_NOT_FOUND: 222,
  MULTISIG_TX_NOT_PENDING: 223, MULTISIG_TX_EXPIRED: 224, ALREADY_APPROVED: 225, NOT_APPROVED: 226, INVALID_MULTISIG_OPERATIONS: 227,
  INVALID_UPGRADE_NAME: 260, INVALID_UPGRADE_URL: 261, UPGRADE_HEIGHT_PASSED: 262, INVALID_UPGRADE_CHECKSUM: 263, UPGRADE_NAME_TAKEN: 264,
  UPGRADE_PLAN_ACTIVE: 265, NOT_UPGRADE_VOTER: 266, UPGRADE_NOT_FOUND: 267, UPGRADE_NOT_PENDING: 268, UPGRADE_VOTING_CLOSED: 269,
  ALREADY_VOTED_UPGRADE: 270, UPGRADE_NOT_ACTIVE: 271, NOT_UPGRADE_AUTHORITY: 272,
} as const;

const U128 = (1n << 128n) - 1n;
const GAS_BASE = 5000n, GAS_TRANSFER = 16000n, GAS_CREATE_TOKEN = 45000n;
// docs/dex.md "Gas"
// docs/allowances.md "Gas": Approve 16,000, TransferFrom 21,000
const GAS_OP: Record<number, bigint> = { 85: 60000n, 87: 35000n, 88: 80000n, 89: 20000n, 90: 25000n, 19: 25000n, 20: 80000n, 21: 20000n, 0: GAS_TRANSFER, 33: GAS_CREATE_TOKEN, 28: 80000n, 29: 50000n, 30: 50000n, 31: 40000n, 34: 30000n, 35: 20000n, 119: 30000n, 50: 20000n, 51: 16000n, 52: 21000n,
  // docs/presales.md, docs/staking-pools.md "Gas"
  95: 60000n, 96: 30000n, 97: 90000n, 98: 30000n, 99: 30000n, 100: 40000n, 101: 30000n, 102: 30000n, 103: 30000n, 104: 30000n,
  // docs/upgrades.md "Gas": ScheduleUpgrade 60,000, CancelUpgrade 30,000, VoteUpgrade 60,000
  15: 60000n, 16: 30000n, 17: 60000n };
// docs/stablecoins.md "Gas": CreateStableToken 80,000; StableMint, StableBurn, StableApproveMint 30,000; the rest 25,000
for (let d = 53; d <= 70; d++) GAS_OP[d] = d === 53 ? 80000n : d === 54 || d === 55 || d === 67 ? 30000n : 25000n;
// docs/bridge.md "Gas": BridgeDeposit, ClaimBridgeDeposit 60,000; BridgeWithdraw 45,000; the rest 30,000
Object.assign(GAS_OP, { 26: 60000n, 74: 60000n, 71: 45000n, 72: 30000n, 73: 30000n, 75: 30000n, 76: 30000n });
/** Gas of one operation: the table, RegisterProgram 30,000 + 3/JSON byte, CreateSchedule 40,000 + 3/held byte. */
function opGas(op: Op): bigint {
  if (op.kind === 48) return 30000n + 3n * BigInt(op.json.length);
  if (op.kind === 49) return 40000n + 3n * BigInt(op.held.length);
  if (op.kind === 18) return 30000n + 3n * BigInt(op.title.length + op.description.length + op.action.length);
  // docs/accounts.md "Gas": keys 20,000 + 3 per new key byte, recovery 25,000 (+ 3 per key byte to
  // initiate), multi-sig 40,000 to create, 30,000 + 3 per held byte + the held operations' gas to
  // propose, 20,000 to approve or revoke
  if (op.kind === 1 || op.kind === 3) return 20000n + 3n * BigInt(op.pk.length);
  if (op.kind === 2) return 20000n;
  if (op.kind === 78) return 25000n + 3n * BigInt(op.pk.length);
  if (op.kind === 77 || op.kind === 79 || op.kind === 80 || op.kind === 81) return 25000n;
  if (op.kind === 22) return 40000n;
  if (op.kind === 23) return 30000n + 3n * BigInt(op.held.length) + op.ops.reduce((a, o) => a + opGas(o), 0n);
  if (op.kind === 24 || op.kind === 25) return 20000n;
  if (op.kind === 86) return 30000n + 3n * BigInt(op.title.length + op.description.length + op.action.length);
  return GAS_OP[op.kind] ?? SETTLE_GAS[op.kind]!;
}
const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const keyLen = (kt: number) => (kt === 0 ? 32 : kt === 1 ? 1952 : 0);
const ADMIN_OPS = new Set([1, 2, 3, 77, 80]);
const NOT_NESTED = new Set([1, 2, 3, 77, 80, 22, 23, 24, 25]);
// Schedules (docs/schedules.md)
const SLOT = 60n;
const MAX_SLOTS_PER_BLOCK = 64;
const MAX_DUE_PER_BLOCK = 32;
const HORIZON = 315_360_000n;
const MAX_HELD_OPS = 16;
const MAX_HELD_BYTES = 4096;
const MAX_CONDITIONAL_FAILURES = 3;
const RUN_INDEX = 0xffffffff;
const POOL_FEE = 100_000_000_000n;
const MIN_LIQ = 1000n;
const MAX_LOCK = 315_360_000n;
const META_MAX = [256, 256, 1024, 256, 128, 128, 128, 128];
const U256 = (1n << 256n) - 1n;
const NTV = new Uint8Array(32);
const TREASURY = new Uint8Array(32);
TREASURY[31] = 3;
/** The governance authority 0x00…09: passed proposals' operations run as it (docs/governance.md). */
const GOVERNANCE = new Uint8Array(32);
GOVERNANCE[31] = 9;

export interface RefCtx {
  height: bigint; timestamp: bigint; proposer: Uint8Array; gasPrice: bigint; chainId: bigint;
  allowUnsigned: boolean; blockGasLimit: bigint;
}
export interface RefBundleInput { bytes: Uint8Array; auth: number; keyHash?: Uint8Array; pubkey?: Uint8Array }
export interface RefResult { status: number; gasUsed: bigint; fee: bigint; nonce: bigint }
export interface RefEvent { bundleIndex: number; opIndex: number; kind: number; data: Uint8Array }
export interface RefGenesis {
  chainId: bigint; timestamp: bigint;
  tokens: Array<{ mint: Uint8Array; name: string; symbol: string; decimals: number; kind: number; creator: Uint8Array; originChain?: string; originContract?: string }>;
  balances: Array<{ account: Uint8Array; mint: Uint8Array; amount: bigint }>;
  reservedSymbols: string[];
  /** the UpgradeConfig record (docs/upgrades.md "Governance configuration"); absent: the defaults */
  upgradeConfig?: Uint8Array;
  stablecoins?: Array<{ mint: Uint8Array; currency: string; issuer: string; origins: Array<{ chain: string; contract: string }> }>;
  /** the bridge attester set (docs/bridge.md "Genesis") */
  bridge?: { attesters: Uint8Array[]; threshold: number };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const cat = (...p: Uint8Array[]) => {
  const out = new Uint8Array(p.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of p) { out.set(x, o); o += x.length; }
  return out;
};
const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
function le(v: bigint, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) { out[i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}
function rdLe(b: Uint8Array, o: number, n: number): bigint {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!);
  return v;
}
const upper = (b: Uint8Array) => b.map((c) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c));
const utf8 = new TextEncoder();
function validUtf8(b: Uint8Array): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; }
}

class Malformed extends Error {}
class Reader {
  o = 0;
  constructor(readonly b: Uint8Array) {}
  take(n: number) { if (this.o + n > this.b.length) throw new Malformed(); const v = this.b.subarray(this.o, this.o + n); this.o += n; return v; }
  u8() { return this.take(1)[0]!; }
  u32() { return Number(rdLe(this.take(4), 0, 4)); }
  u64() { return rdLe(this.take(8), 0, 8); }
  u128() { return rdLe(this.take(16), 0, 16); }
  vec() { return this.take(this.u32()); }
  tag() { const t = this.u8(); if (t > 1) throw new Malformed(); return t === 1; }
}

type AmountOp<K extends number> = { kind: K; target: Uint8Array; amount: bigint };
type TargetOp<K extends number> = { kind: K; target: Uint8Array };
type Op = { kind: 0; to: Uint8Array; token: Uint8Array; amount: bigint }
  | { kind: 33; name: Uint8Array; symbol: Uint8Array; decimals: number; supply: bigint; owner: Uint8Array }
  | { kind: 28; a: Uint8Array; b: Uint8Array; x: bigint; y: bigint; lock: bigint }
  | { kind: 29; a: Uint8Array; b: Uint8Array; x: bigint; y: bigint; min: bigint }
  | { kind: 30; a: Uint8Array; b: Uint8Array; lp: bigint; minA: bigint; minB: bigint }
  | { kind: 31; a: Uint8Array; b: Uint8Array; x: bigint; min: bigint }
  | { kind: 34; mint: Uint8Array; fields: Array<Uint8Array | null> }
  | { kind: 35; mint: Uint8Array }
  // RotateConsensusKey (docs/staking.md). The staking rules have their own reference
  // (testkit/staking-reference.ts); this model's ledger has no validators, so it always fails.
  | { kind: 119; key: Uint8Array }
  // RegisterProgram (docs/intents.md "Programs on chain")
  | { kind: 48; name: Uint8Array; json: Uint8Array }
  // CreateSchedule: the trigger's raw bytes (tag 0: 20 B, 1: 105 B) and the held Vec<Operation>,
  // both as bytes (stored as they are) and decoded; CancelSchedule (docs/schedules.md)
  | { kind: 49; tag: number; trigger: Uint8Array; held: Uint8Array; ops: Op[] }
  | { kind: 50; id: Uint8Array }
  // ERC-20 allowances (docs/allowances.md): Approve, TransferFrom
  | { kind: 51; token: Uint8Array; spender: Uint8Array; amount: bigint }
  | { kind: 52; token: Uint8Array; from: Uint8Array; to: Uint8Array; amount: bigint }
  // Protocol proposals (docs/governance.md): CreateProposal keeps its action's raw bytes (tag and
  // fields, stored as they are) and, for the operation-carrying types, the decoded operations.
  | { kind: 18; title: Uint8Array; description: Uint8Array; action: Uint8Array; held: Op[] | null }
  | { kind: 19; id: bigint; approve: boolean }
  | { kind: 20; id: bigint }
  | { kind: 21; id: bigint }
  // DAOs (docs/dao.md): CreateDao keeps its fixed fields' raw bytes (stored as they are)
  | { kind: 85; name: Uint8Array; fixed: Uint8Array }
  | { kind: 86; dao: Uint8Array; title: Uint8Array; description: Uint8Array; action: Uint8Array }
  | { kind: 87; dao: Uint8Array; id: bigint; approve: boolean }
  | { kind: 88 | 89 | 90; dao: Uint8Array; id: bigint }
  // Presales (docs/presales.md) and token staking pools (docs/staking-pools.md)
  | { kind: 95; token: Uint8Array; pay: Uint8Array; rate: bigint; soft: bigint; hard: bigint; min: bigint; max: bigint; start: bigint; end: bigint; bps: bigint; lock: bigint }
  | AmountOp<96> | AmountOp<101> | AmountOp<102> | AmountOp<104>
  | TargetOp<97> | TargetOp<98> | TargetOp<99> | TargetOp<103>
  | { kind: 100; stake: Uint8Array; reward: Uint8Array; rate: bigint; lock: bigint; cap: bigint; perUser: bigint }
  // Settlement, anchoring, passports (105–114): testkit/settle-reference.ts
  | SettleOp
  // The bridge (26, 71–75): testkit/bridge-reference.ts
  | BridgeOp
  // accounts (docs/accounts.md)
  | { kind: 1; pk: Uint8Array; kt: number; role: number }
  | { kind: 2; hash: Uint8Array }
  | { kind: 3; old: Uint8Array; pk: Uint8Array; kt: number }
  | { kind: 77; guardians: Uint8Array[]; threshold: number; timelock: bigint }
  | { kind: 78; account: Uint8Array; pk: Uint8Array; kt: number }
  | { kind: 79; account: Uint8Array; hash: Uint8Array }
  | { kind: 80 }
  | { kind: 81; account: Uint8Array }
  | { kind: 22; signers: Uint8Array[]; threshold: number; label: Uint8Array }
  | { kind: 23; ms: Uint8Array; held: Uint8Array; ops: Op[]; desc: Uint8Array }
  | { kind: 24 | 25; ms: Uint8Array; txId: bigint }
  // Upgrade governance (docs/upgrades.md): ScheduleUpgrade, CancelUpgrade, VoteUpgrade
  | { kind: 15; name: Uint8Array; height: bigint; bin: Uint8Array; checksum: Uint8Array; info: Uint8Array }
  | { kind: 16; name: Uint8Array }
  | { kind: 17; name: Uint8Array; approve: boolean }
  // STD-8 stablecoins (docs/stablecoins.md): the fields' bytes, read at execution (testkit/stable-reference.ts)
  | { kind: StableKind; f: Uint8Array };
type StableKind = 53 | 54 | 55 | 56 | 57 | 58 | 59 | 60 | 61 | 62 | 63 | 64 | 65 | 66 | 67 | 68 | 69 | 70;
const isStableOp = (op: Op): op is Extract<Op, { kind: StableKind }> => op.kind >= 53 && op.kind <= 70;

/** Integer square root (floor), the reference for the core's LP math. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
const cmp32 = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);

/** PoolRecord (docs/dex.md "State layout") as plain values. */
interface Pool { t0: Uint8Array; t1: Uint8Array; r0: bigint; r1: bigint; s: bigint; creator: Uint8Array; createdAt: bigint;
  height: bigint; lockUntil: bigint; locked: bigint; c0: bigint; c1: bigint; last: bigint }
function encodePool(p: Pool): Uint8Array {
  return cat(new Uint8Array([1]), p.t0, p.t1, le(p.r0, 16), le(p.r1, 16), le(p.s, 16), p.creator, le(p.createdAt, 8), le(p.height, 8),
    le(p.lockUntil, 8), le(p.locked, 16), le(p.c0, 32), le(p.c1, 32), le(p.last, 8));
}
function decodePool(v: Uint8Array): Pool {
  return { t0: v.slice(1, 33), t1: v.slice(33, 65), r0: rdLe(v, 65, 16), r1: rdLe(v, 81, 16), s: rdLe(v, 97, 16), creator: v.slice(113, 145),
    createdAt: rdLe(v, 145, 8), height: rdLe(v, 153, 8), lockUntil: rdLe(v, 161, 8), locked: rdLe(v, 169, 16),
    c0: rdLe(v, 185, 32), c1: rdLe(v, 217, 32), last: rdLe(v, 249, 8) };
}
function twap(p: Pool, now: bigint) {
  if (now <= p.last) return;
  const el = now - p.last;
  const price = (n: bigint, d: bigint) => { const q = (n << 64n) / d; return q > U128 ? U128 : q; };
  p.c0 = (p.c0 + price(p.r1, p.r0) * el) & U256;
  p.c1 = (p.c1 + price(p.r0, p.r1) * el) & U256;
  p.last = now;
}
/** ScheduleRecord (docs/core-abi.md "State layout") as plain values. */
interface Sched { owner: Uint8Array; kind: number; state: number; createdHeight: bigint; createdAt: bigint; nextDue: bigint; queuedSlot: bigint;
  runsDone: number; runsOk: number; lastHeight: bigint; lastStatus: number; interval: bigint; runsTotal: number; expiry: bigint;
  direction: number; base: Uint8Array; quote: Uint8Array; num: bigint; den: bigint; held: Uint8Array }
function encodeSched(r: Sched): Uint8Array {
  return cat(new Uint8Array([1]), r.owner, new Uint8Array([r.kind, r.state]), le(r.createdHeight, 8), le(r.createdAt, 8), le(r.nextDue, 8),
    le(r.queuedSlot, 8), le(BigInt(r.runsDone), 4), le(BigInt(r.runsOk), 4), le(r.lastHeight, 8), le(BigInt(r.lastStatus), 2), le(r.interval, 8),
    le(BigInt(r.runsTotal), 4), le(r.expiry, 8), new Uint8Array([r.direction]), r.base, r.quote, le(r.num, 16), le(r.den, 16),
    le(BigInt(r.held.length), 4), r.held);
}
function decodeSched(v: Uint8Array): Sched {
  const n = (o: number, w: number) => rdLe(v, o, w);
  return { owner: v.slice(1, 33), kind: v[33]!, state: v[34]!, createdHeight: n(35, 8), createdAt: n(43, 8), nextDue: n(51, 8), queuedSlot: n(59, 8),
    runsDone: Number(n(67, 4)), runsOk: Number(n(71, 4)), lastHeight: n(75, 8), lastStatus: Number(n(83, 2)), interval: n(85, 8),
    runsTotal: Number(n(93, 4)), expiry: n(97, 8), direction: v[105]!, base: v.slice(106, 138), quote: v.slice(138, 170),
    num: n(170, 16), den: n(186, 16), held: v.slice(206, 206 + Number(n(202, 4))) };
}
interface Decoded { user: Uint8Array; ops: Op[]; maxGas: bigint; prio: bigint; validUntil: bigint; nonce: bigint; sigLen: number; expiry: bigint | null; pubkey: Uint8Array | null }

/**
 * A Borsh Vec<Operation>. `nested`: a CreateSchedule's held list, where 49/50 are not part of the
 * grammar and the caller turns EMPTY_BUNDLE/TOO_MANY_OPS into MALFORMED_BUNDLE.
 */
function decodeOps(r: Reader, max: number, nested: boolean): Op[] | number {
    const n = r.u32();
    if (n === 0) return S.EMPTY_BUNDLE;
    if (n > max) return S.TOO_MANY_OPS;
    const ops: Op[] = [];
    for (let i = 0; i < n; i++) {
      const d = r.u8();
      if (d === 0) ops.push({ kind: 0, to: r.take(32), token: r.take(32), amount: r.u128() });
      else if (d === 33) {
        const name = r.vec();
        if (!validUtf8(name)) return S.MALFORMED_BUNDLE;
        const symbol = r.vec();
        if (!validUtf8(symbol)) return S.MALFORMED_BUNDLE;
        ops.push({ kind: 33, name, symbol, decimals: r.u8(), supply: r.u128(), owner: r.take(32) });
      } else if (d === 28) ops.push({ kind: 28, a: r.take(32), b: r.take(32), x: r.u128(), y: r.u128(), lock: r.u64() });
      else if (d === 29) ops.push({ kind: 29, a: r.take(32), b: r.take(32), x: r.u128(), y: r.u128(), min: r.u128() });
      else if (d === 30) ops.push({ kind: 30, a: r.take(32), b: r.take(32), lp: r.u128(), minA: r.u128(), minB: r.u128() });
      else if (d === 31) ops.push({ kind: 31, a: r.take(32), b: r.take(32), x: r.u128(), min: r.u128() });
      else if (d === 34) {
        const mint = r.take(32);
        const fields: Array<Uint8Array | null> = [];
        for (let f = 0; f < 8; f++) {
          if (r.tag()) {
            const v = r.vec();
            if (!validUtf8(v)) return S.MALFORMED_BUNDLE;
            fields.push(v);
          } else fields.push(null);
        }
        ops.push({ kind: 34, mint, fields });
      } else if (d === 35) ops.push({ kind: 35, mint: r.take(32) });
      else if (d === 119) ops.push({ kind: 119, key: r.take(32) });
      else if (d === 48) {
        const name = r.vec();
        if (!validUtf8(name)) return S.MALFORMED_BUNDLE;
        const json = r.vec();
        if (!validUtf8(json)) return S.MALFORMED_BUNDLE;
        ops.push({ kind: 48, name, json });
      } else if ((d === 49 || d === 50 || (d >= 18 && d <= 21) || (d >= 85 && d <= 90)) && nested) return S.MALFORMED_BUNDLE;
      else if (d === 85) {
        const name = r.vec();
        if (!validUtf8(name)) return S.MALFORMED_BUNDLE;
        ops.push({ kind: 85, name, fixed: r.take(68) });
      } else if (d === 86) {
        const dao = r.take(32);
        const title = r.vec();
        if (!validUtf8(title)) return S.MALFORMED_BUNDLE;
        const description = r.vec();
        if (!validUtf8(description)) return S.MALFORMED_BUNDLE;
        const start = r.o;
        const tag = r.u8();
        if (tag > 1) return S.MALFORMED_BUNDLE;
        if (tag === 1) {
          const h = decodeOps(r, 8, true);
          if (typeof h === 'number') return h === S.EMPTY_BUNDLE || h === S.TOO_MANY_OPS ? S.MALFORMED_BUNDLE : h;
        }
        ops.push({ kind: 86, dao, title, description, action: r.b.slice(start, r.o) });
      } else if (d === 87) ops.push({ kind: 87, dao: r.take(32), id: r.u64(), approve: r.tag() });
      else if (d >= 88 && d <= 90) ops.push({ kind: d as 88, dao: r.take(32), id: r.u64() });
      else if (d === 18) {
        const title = r.vec();
        if (!validUtf8(title)) return S.MALFORMED_BUNDLE;
        const description = r.vec();
        if (!validUtf8(description)) return S.MALFORMED_BUNDLE;
        const start = r.o;
        const tag = r.u8();
        let held: Op[] | null = null;
        if (tag > 8) return S.MALFORMED_BUNDLE;
        if (tag === 1) {
          if (r.u8() > 8) return S.MALFORMED_BUNDLE;
          r.take(16);
        } else if (tag === 2) r.take(48);
        else if (tag === 3) {
          if (!validUtf8(r.vec()) || !validUtf8(r.vec())) return S.MALFORMED_BUNDLE;
          r.u8();
        } else if (tag === 4) r.take(33);
        else if (tag >= 5) {
          const h = decodeOps(r, 8, true);
          if (typeof h === 'number') return h === S.EMPTY_BUNDLE || h === S.TOO_MANY_OPS ? S.MALFORMED_BUNDLE : h;
          held = h;
        }
        ops.push({ kind: 18, title, description, action: r.b.slice(start, r.o), held });
      } else if (d === 19) ops.push({ kind: 19, id: r.u64(), approve: r.tag() });
      else if (d === 20) ops.push({ kind: 20, id: r.u64() });
      else if (d === 21) ops.push({ kind: 21, id: r.u64() });
      else if (d === 49) {
        const tag = r.u8();
        if (tag > 1) return S.MALFORMED_BUNDLE;
        const trigger = r.take(tag === 0 ? 20 : 105);
        const start = r.o;
        const held = decodeOps(r, MAX_HELD_OPS, true);
        if (typeof held === 'number') return held === S.EMPTY_BUNDLE || held === S.TOO_MANY_OPS ? S.MALFORMED_BUNDLE : held;
        ops.push({ kind: 49, tag, trigger, held: r.b.slice(start, r.o), ops: held });
      } else if (d === 50) ops.push({ kind: 50, id: r.take(32) });
      else if (d === 51) ops.push({ kind: 51, token: r.take(32), spender: r.take(32), amount: r.u128() });
      else if (d === 52) ops.push({ kind: 52, token: r.take(32), from: r.take(32), to: r.take(32), amount: r.u128() });
      else if (d === 95) ops.push({ kind: 95, token: r.take(32), pay: r.take(32), rate: r.u128(), soft: r.u128(), hard: r.u128(), min: r.u128(), max: r.u128(),
        start: r.u64(), end: r.u64(), bps: rdLe(r.take(2), 0, 2), lock: r.u64() });
      else if (d === 96 || d === 101 || d === 102 || d === 104) ops.push({ kind: d as 96, target: r.take(32), amount: r.u128() });
      else if (d === 97 || d === 98 || d === 99 || d === 103) ops.push({ kind: d as 97, target: r.take(32) });
      else if (d === 100) ops.push({ kind: 100, stake: r.take(32), reward: r.take(32), rate: r.u128(), lock: r.u64(), cap: r.u128(), perUser: r.u128() });
      else if (isBridgeOpKind(d)) {
        const op = decodeBridgeOp(r, d, i === 0, nested, validUtf8);
        if (!op) return S.MALFORMED_BUNDLE;
        ops.push(op);
      }
      else if (d >= 105 && d <= 114) {
        const op = decodeSettleOp(r, d, validUtf8);
        if (!op) return S.MALFORMED_BUNDLE;
        ops.push(op);
      }
      else if (nested && NOT_NESTED.has(d)) return S.MALFORMED_BUNDLE;
      else if (d === 1) ops.push({ kind: 1, pk: r.vec(), kt: r.u8(), role: r.u8() });
      else if (d === 2) ops.push({ kind: 2, hash: r.take(32) });
      else if (d === 3) ops.push({ kind: 3, old: r.take(32), pk: r.vec(), kt: r.u8() });
      else if (d === 78) ops.push({ kind: 78, account: r.take(32), pk: r.vec(), kt: r.u8() });
      else if (d === 79) ops.push({ kind: 79, account: r.take(32), hash: r.take(32) });
      else if (d === 80) ops.push({ kind: 80 });
      else if (d === 81) ops.push({ kind: 81, account: r.take(32) });
      else if (d === 77 || d === 22) {
        const n = r.u32();
        const list = Array.from({ length: n }, () => r.take(32));
        const threshold = r.u8();
        if (d === 77) ops.push({ kind: 77, guardians: list, threshold, timelock: r.u64() });
        else {
          const label = r.vec();
          if (!validUtf8(label)) return S.MALFORMED_BUNDLE;
          ops.push({ kind: 22, signers: list, threshold, label });
        }
      } else if (d === 23) {
        const ms = r.take(32);
        const start = r.o;
        const held = decodeOps(r, 16, true);
        if (typeof held === 'number') return held === S.EMPTY_BUNDLE || held === S.TOO_MANY_OPS ? S.MALFORMED_BUNDLE : held;
        const heldBytes = r.b.slice(start, r.o);
        const desc = r.vec();
        if (!validUtf8(desc)) return S.MALFORMED_BUNDLE;
        ops.push({ kind: 23, ms, held: heldBytes, ops: held, desc });
      } else if (d === 24 || d === 25) ops.push({ kind: d, ms: r.take(32), txId: r.u64() });
      else if (d === 15 || d === 16 || d === 17) {
        const name = r.vec();
        if (!validUtf8(name)) return S.MALFORMED_BUNDLE;
        if (d === 16) ops.push({ kind: 16, name });
        else if (d === 17) ops.push({ kind: 17, name, approve: r.tag() });
        else {
          const height = r.u64();
          const bin = r.vec();
          if (!validUtf8(bin)) return S.MALFORMED_BUNDLE;
          const checksum = r.take(32);
          const info = r.vec();
          if (!validUtf8(info)) return S.MALFORMED_BUNDLE;
          ops.push({ kind: 15, name, height, bin, checksum, info });
        }
      } else if (d >= 53 && d <= 70) {
        const f = decodeStableOp(d, (n) => r.take(n), () => r.u8(), () => r.vec(), validUtf8);
        if (!f) return S.MALFORMED_BUNDLE;
        ops.push({ kind: d as StableKind, f });
      }
      else if ((d >= 4 && d <= 14) || d === 32 || d === 36 || (d >= 37 && d <= 47)) {
        // Enabled in the core (staking, names, collections) but not modelled here; they have their
        // own tests. A generator that sends one as a "reserved" discriminant is wrong.
        throw new Error(`reference: operation ${d} is enabled but not modelled`);
      } else if (d <= 119) return S.OP_NOT_ENABLED;
      else return S.MALFORMED_BUNDLE;
    }
    return ops;
}

function decode(bytes: Uint8Array): Decoded | number {
  const r = new Reader(bytes);
  try {
    const user = r.take(32);
    const ops = decodeOps(r, 64, false);
    if (typeof ops === 'number') return ops;
    const maxGas = r.u64(), prio = r.u64(), validUntil = r.u64(), nonce = r.u64();
    const sigLen = r.vec().length;
    // the codec's bound only; the exact length follows the auth kind (applyBlock; auth 3: a raw EVM transaction)
    if (sigLen > 4096) return S.MALFORMED_BUNDLE;
    const expiry = r.tag() ? r.u64() : null;
    let pubkey: Uint8Array | null = null;
    if (r.tag()) {
      pubkey = r.vec();
      if (pubkey.length !== 32 && pubkey.length !== 1952) return S.MALFORMED_BUNDLE;
    }
    if (r.o !== bytes.length) return S.MALFORMED_BUNDLE;
    return { user, ops, maxGas, prio, validUntil, nonce, sigLen, expiry, pubkey };
  } catch (e) {
    if (e instanceof Malformed) return S.MALFORMED_BUNDLE;
    throw e;
  }
}

function tokenRecord(name: Uint8Array, symbol: Uint8Array, decimals: number, supply: bigint, creator: Uint8Array,
  owner: Uint8Array, createdAt: bigint, height: bigint, kind: number, flags: number, oc: Uint8Array, ok: Uint8Array): Uint8Array {
  return cat(new Uint8Array([1]), le(BigInt(name.length), 4), name, le(BigInt(symbol.length), 4), symbol,
    new Uint8Array([decimals]), le(supply, 16), le(supply, 16), creator, owner, le(createdAt, 8), le(height, 8),
    new Uint8Array([kind, flags]), le(BigInt(oc.length), 4), oc, le(BigInt(ok.length), 4), ok);
}


type DaoOp = Extract<Op, { kind: 85 | 86 | 87 | 88 | 89 | 90 }>;
type PresaleOp = Extract<Op, { kind: 95 | 96 | 97 | 98 | 99 }>;
type StakingPoolOp = Extract<Op, { kind: 100 | 101 | 102 | 103 | 104 }>;
const RATE_SCALE = 1_000_000_000n;
const ACC_SCALE = 10n ** 18n;
const MIN_PRESALE_LOCK = 86_400n;
/** A fixed-layout record as [name, bytes] fields (docs/presales.md, docs/staking-pools.md "State layout"). */
type Layout = ReadonlyArray<readonly [string, number]>;
const PRESALE_LAYOUT: Layout = [['version', 1], ['id', 8], ['creator', 32], ['token', 32], ['pay', 32], ['rate', 16], ['soft', 16], ['hard', 16],
  ['min', 16], ['max', 16], ['start', 8], ['end', 8], ['bps', 2], ['lock', 8], ['raised', 16], ['contributors', 4], ['flags', 1],
  ['saleEsc', 16], ['liqEsc', 16], ['createdAt', 8], ['createdHeight', 8], ['finalizedAt', 8], ['finalizedHeight', 8],
  ['liqPaid', 16], ['liqTokens', 16], ['lpLocked', 16], ['lpLockUntil', 8], ['sold', 16], ['proceeds', 16]];
const CONTRIB_LAYOUT: Layout = [['amount', 16], ['state', 1]];
const SPOOL_LAYOUT: Layout = [['version', 1], ['id', 8], ['creator', 32], ['stake', 32], ['reward', 32], ['rate', 16], ['lock', 8], ['cap', 16],
  ['perUser', 16], ['total', 16], ['acc', 16], ['last', 8], ['allocated', 16], ['paid', 16], ['stakers', 4], ['createdAt', 8], ['createdHeight', 8]];
const PSTAKE_LAYOUT: Layout = [['amount', 16], ['snap', 16], ['pending', 16], ['unlockAt', 8]];
type Rec = Record<string, bigint | Uint8Array>;
function encodeRec(layout: Layout, r: Rec): Uint8Array {
  return cat(...layout.map(([n, w]) => (w === 32 ? (r[n] as Uint8Array) : le((r[n] as bigint | undefined) ?? 0n, w))));
}
function decodeRec(layout: Layout, v: Uint8Array): Rec {
  const r: Rec = {};
  let o = 0;
  for (const [n, w] of layout) { r[n] = w === 32 ? v.slice(o, o + 32) : rdLe(v, o, w); o += w; }
  return r;
}
const big = (r: Rec, n: string) => r[n] as bigint;
const bytes = (r: Rec, n: string) => r[n] as Uint8Array;

/** a bucket of more entries is stored as 0xF3 slices (docs/state-root.md "Bucket slices"; abi/constants.mjs, written out here as the model's own) */
const BUCKET_SLICE_ABOVE = 16;

export class Reference {
  /** committed state: hex(key) → value */
  readonly state = new Map<string, Uint8Array>();
  /** the open block's writes: hex(key) → value | null (deleted) */
  private block = new Map<string, Uint8Array | null>();
  /** the open bundle's writes */
  private bundle: Map<string, Uint8Array | null> | null = null;
  private buckets = new Map<number, Array<{ path: Uint8Array; leaf: Uint8Array }>>();
  /** buckets stored as 0xF3 slices (more than 16 entries at their last write) */
  private sliced = new Set<number>();
  private nodes = new Map<number, Uint8Array>();
  private root: Uint8Array = new Uint8Array(32);
  private constructor(
    private readonly h: Hasher,
    private readonly hLeaf: Hasher,
    private readonly hBucket: Hasher,
    private readonly hNode: Hasher,
  ) {}

  static async create(): Promise<Reference> {
    // K_x = Blake3("ntv.state-root.x"); the three tree hashes are Blake3 keyed_hash with them.
    const plain = await createBLAKE3();
    const k = (d: string) => {
      plain.init();
      plain.update(d);
      return plain.digest('binary');
    };
    return new Reference(
      await createBLAKE3(),
      await createBLAKE3(256, k('ntv.state-root.leaf')),
      await createBLAKE3(256, k('ntv.state-root.bucket')),
      await createBLAKE3(256, k('ntv.state-root.node')),
    );
  }

  private keyed(h: Hasher, ...parts: Uint8Array[]): Uint8Array {
    h.init();
    for (const p of parts) h.update(p);
    return h.digest('binary');
  }

  blake3(...parts: Uint8Array[]): Uint8Array {
    this.h.init();
    for (const p of parts) this.h.update(p);
    return this.h.digest('binary');
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const k = hex(key);
    if (this.bundle?.has(k)) return this.bundle.get(k) ?? undefined;
    if (this.block.has(k)) return this.block.get(k) ?? undefined;
    return this.state.get(k);
  }
  private put(key: Uint8Array, v: Uint8Array | null) {
    (this.bundle ?? this.block).set(hex(key), v);
  }
  private bal(a: Uint8Array, m: Uint8Array): bigint {
    const v = this.get(cat(new Uint8Array([2]), a, m));
    return v ? rdLe(v, 0, 16) : 0n;
  }
  private setBal(a: Uint8Array, m: Uint8Array, v: bigint) {
    const key = cat(new Uint8Array([2]), a, m);
    if (v === 0n && !this.get(key)) return; // deleting an absent key is not a write (as in the core)
    this.put(key, v === 0n ? null : le(v, 16));
  }

  /** The state access of testkit/settle-reference.ts. */
  private readonly settleIo: SettleIo = {
    get: (k) => this.get(k), put: (k, v) => this.put(k, v), bal: (a, m) => this.bal(a, m),
    setBal: (a, m, v) => this.setBal(a, m, v), blake3: (...p) => this.blake3(...p),
  };

  genesis(c: RefGenesis): number {
    this.bundle = new Map();
    const st = this.genesisInner(c);
    if (st === S.OK) for (const [k, v] of this.bundle) this.block.set(k, v);
    this.bundle = null;
    return st;
  }
  private genesisInner(c: RefGenesis): number {
    const supply = new Map<string, bigint>();
    const recs = new Map<string, (s: bigint) => Uint8Array>();
    for (const t of c.tokens) {
      const sym = utf8.encode(t.symbol);
      if (sym.length === 0 || sym.length > 32 || t.decimals > 18) return S.INVALID_GENESIS;
      const tk = cat(new Uint8Array([3]), t.mint);
      const sk = cat(new Uint8Array([4]), upper(sym));
      if (this.get(tk)) return S.INVALID_GENESIS; // duplicate mint
      // A bridged asset may have several origins under one symbol: the first in genesis order owns it.
      const symbolFree = !this.get(sk);
      const mk = (s: bigint) => tokenRecord(utf8.encode(t.name), sym, t.decimals, s, t.creator, t.creator, c.timestamp, 0n,
        t.kind, 0, utf8.encode(t.originChain ?? ''), utf8.encode(t.originContract ?? ''));
      recs.set(hex(t.mint), mk);
      supply.set(hex(t.mint), 0n);
      this.put(tk, mk(0n));
      if (symbolFree) this.put(sk, t.mint);
      if (t.kind === 2) this.put(cat(new Uint8Array([0x40]), t.mint), genesisStableRecord());
    }
    for (const b of c.balances) {
      const m = hex(b.mint);
      if (!this.get(cat(new Uint8Array([3]), b.mint))) return S.INVALID_GENESIS;
      if (b.amount === 0n) continue;
      const nb = this.bal(b.account, b.mint) + b.amount;
      if (nb > U128) return S.AMOUNT_OVERFLOW;
      this.setBal(b.account, b.mint, nb);
      const ns = supply.get(m)! + b.amount;
      if (ns > U128) return S.AMOUNT_OVERFLOW;
      supply.set(m, ns);
      this.put(cat(new Uint8Array([3]), b.mint), recs.get(m)!(ns));
    }
    for (const s of c.reservedSymbols) {
      const sym = utf8.encode(s);
      if (sym.length === 0 || sym.length > 32) return S.INVALID_GENESIS;
      this.put(cat(new Uint8Array([5]), upper(sym)), new Uint8Array([1]));
    }
    if (c.upgradeConfig) {
      const v = c.upgradeConfig;
      if (v.length !== 43 || v[0] !== 1 || v[1]! > 1 || v[2] === 0 || v[2]! > 100) return S.INVALID_GENESIS;
      const period = rdLe(v, 3, 8);
      if (period === 0n || period > 1_000_000n) return S.INVALID_GENESIS;
      this.put(new Uint8Array([0x5c]), v);
    }
    for (const sc of c.stablecoins ?? []) {
      if (!this.get(cat(new Uint8Array([0x40]), sc.mint))) return S.INVALID_GENESIS;
      const origins = cat(le(BigInt(sc.origins.length), 4), ...sc.origins.flatMap((o) => [utf8.encode(o.chain), utf8.encode(o.contract)].map((b) => cat(le(BigInt(b.length), 4), b))));
      this.put(cat(new Uint8Array([0x42]), sc.mint), profileRecord(utf8.encode(sc.currency), utf8.encode(sc.issuer), origins));
    }
    if (c.bridge && !genesisBridgeRef(this.host, c.bridge.attesters, c.bridge.threshold)) return S.INVALID_GENESIS;
    return S.OK;
  }

  applyBlock(ctx: RefCtx, bundles: RefBundleInput[]) {
    const results: RefResult[] = [];
    const events: RefEvent[] = [];
    let blockGas = 0n;
    let fees = 0n;
    bundles.forEach((bi, index) => {
      const evs: RefEvent[] = [];
      const res = (status: number, nonce: bigint, gas = 0n, fee = 0n) => results.push({ status, gasUsed: gas, fee, nonce });
      const d = decode(bi.bytes);
      if (typeof d === 'number') return res(d, 0n);
      const user = d.user;
      const acct = this.get(cat(new Uint8Array([1]), user));
      const acctNonce = acct ? rdLe(acct, 0, 8) : 0n;
      let keyCount = acct ? Number(rdLe(acct, 8, 2)) : 0;
      const keyHash = bi.keyHash ?? new Uint8Array(32);
      const pk = bi.pubkey ?? new Uint8Array(0);
      const expect = bi.auth === 0 ? 0 : bi.auth === 1 ? 64 : 3309;
      // auth 3: a raw EVM transaction as the signature, any length but the native ones (docs/eth.md)
      const evm = bi.auth === 3;
      if (bi.auth > 3 || (evm ? [0, 64, 3309].includes(d.sigLen) : expect !== d.sigLen)) return res(S.MALFORMED_BUNDLE, d.nonce);
      let reveal = false;
      if (bi.auth === 0) {
        if (!ctx.allowUnsigned) return res(S.UNSIGNED_NOT_ALLOWED, d.nonce);
      } else if (evm) {
        // only for exactly the recovered account, and only an EVM-form one (12 leading zero bytes)
        if (!eq(keyHash, user) || user.subarray(0, 12).some((b) => b !== 0)) return res(S.KEY_NOT_AUTHORIZED, d.nonce);
        if (d.pubkey) return res(S.PUBKEY_MISMATCH, d.nonce);
      } else {
        const kr = this.get(cat(new Uint8Array([6]), user, keyHash));
        if (kr) {
          if (kr[0] !== bi.auth - 1) return res(S.KEY_NOT_AUTHORIZED, d.nonce);
          // an operator key may not manage the account's keys or recovery (docs/accounts.md "Roles")
          if (kr[1] !== 0 && d.ops.some((o) => ADMIN_OPS.has(o.kind))) return res(S.KEY_ROLE_NOT_ALLOWED, d.nonce);
        } else if (keyCount === 0) {
          if (!eq(keyHash, user)) return res(S.PUBKEY_MISMATCH, d.nonce);
          const want = bi.auth === 1 ? 32 : 1952;
          if (!d.pubkey || d.pubkey.length !== want || pk.length !== want || !eq(pk, d.pubkey)) return res(S.PUBKEY_MISMATCH, d.nonce);
          reveal = true;
        } else return res(S.KEY_NOT_AUTHORIZED, d.nonce);
      }
      if (ctx.timestamp > d.validUntil || (d.expiry !== null && ctx.timestamp > d.expiry)) return res(S.EXPIRED, d.nonce);
      if (d.nonce < acctNonce) return res(S.NONCE_TOO_LOW, d.nonce);
      if (d.nonce > acctNonce) return res(S.NONCE_TOO_HIGH, d.nonce);
      // Failed bundles listed in the account record at this nonce: hash[32] expiry u64 each.
      const failed: Array<{ hash: Uint8Array; expiry: bigint }> = [];
      if (acct && acct.length > 10) {
        for (let i = 0; i < acct[10]!; i++) failed.push({ hash: acct.subarray(11 + 40 * i, 43 + 40 * i), expiry: rdLe(acct, 43 + 40 * i, 8) });
      }
      const bundleHash = this.blake3(bi.bytes);
      if (failed.some((f) => eq(f.hash, bundleHash))) return res(S.ALREADY_INCLUDED, d.nonce);
      if (d.maxGas < GAS_BASE) return res(S.MAX_GAS_TOO_LOW, d.nonce);
      let gas = GAS_BASE;
      for (const op of d.ops) gas += opGas(op);
      const outOfGas = gas > d.maxGas;
      if (outOfGas) gas = d.maxGas;
      if (blockGas + gas > ctx.blockGasLimit) return res(S.BLOCK_GAS_LIMIT, d.nonce);
      const fee = gas * (ctx.gasPrice + d.prio);
      if (fee > U128 || this.bal(user, NTV) < fee) return res(S.INSUFFICIENT_FEE_BALANCE, d.nonce);

      const chargeFee = () => this.payFee(ctx, user, fee, index, evs);
      // A failed bundle pays its gas, keeps its nonce and is listed (expired entries dropped); a
      // 17th unexpired entry consumes the nonce instead (docs/core-abi.md "Failed bundles").
      const fail = (st: number) => {
        this.bundle = new Map();
        evs.length = 0;
        chargeFee();
        const live = failed.filter((f) => f.expiry >= ctx.timestamp);
        const expiry = d.expiry !== null && d.expiry < d.validUntil ? d.expiry : d.validUntil;
        const base = cat(le(acctNonce, 8), le(BigInt(acct ? Number(rdLe(acct, 8, 2)) : 0), 2));
        let record: Uint8Array;
        // an EVM transaction's failure consumes its nonce, as on Ethereum (docs/eth.md "EVM semantics")
        if (evm || live.length >= 16) record = cat(le(acctNonce + 1n, 8), base.subarray(8));
        else {
          live.push({ hash: bundleHash, expiry });
          record = cat(base, new Uint8Array([live.length]), ...live.map((f) => cat(f.hash, le(f.expiry, 8))));
        }
        this.put(cat(new Uint8Array([1]), user), record);
        for (const [k, v] of this.bundle) this.block.set(k, v);
        this.bundle = null;
        blockGas += gas;
        fees += fee;
        events.push(...evs);
        res(st, d.nonce, gas, fee);
      };
      if (outOfGas) return fail(S.OUT_OF_GAS);

      this.bundle = new Map();
      let st: number = S.OK;
      if (reveal) {
        this.put(cat(new Uint8Array([6]), user, keyHash), this.keyRecord(ctx, bi.auth - 1, 0, pk));
        this.setKeyCount(user, 1);
        evs.push({ bundleIndex: index, opIndex: 0xffff, kind: 2, data: cat(user, keyHash, new Uint8Array([bi.auth - 1])) });
      }
      chargeFee();
      this.auth = bi.auth;
      for (let k = 0; k < d.ops.length && st === S.OK; k++) st = this.execOp(ctx, d, d.ops[k]!, index, k, evs);
      const overlay = this.bundle;
      this.bundle = null;
      if (st !== S.OK) return fail(st);
      for (const [k, v] of overlay) this.block.set(k, v);
      keyCount = this.keyCount(user);
      this.put(cat(new Uint8Array([1]), user), cat(le(d.nonce + 1n, 8), le(BigInt(keyCount), 2)));
      blockGas += gas;
      fees += fee;
      events.push(...evs);
      res(S.OK, d.nonce, gas, fee);
    });
    // The due schedules, after every bundle (docs/schedules.md).
    const runs = this.processSchedules(ctx, events);
    this.upgradesEndBlock(ctx.height);
    blockGas += runs.gas;
    fees += runs.fee;
    return { gasUsed: blockGas, fees, results, events };
  }

  /** The fee (spec §1.8): from the payer's NTV, 80% to the proposer, the floor of 20% to the treasury, its Fee event. */
  private payFee(ctx: RefCtx, user: Uint8Array, fee: bigint, index: number, evs: RefEvent[]) {
    if (fee === 0n) return;
    this.setBal(user, NTV, this.bal(user, NTV) - fee);
    const toT = (fee * 20n) / 100n;
    const toP = fee - toT;
    this.setBal(ctx.proposer, NTV, this.bal(ctx.proposer, NTV) + toP);
    this.setBal(TREASURY, NTV, this.bal(TREASURY, NTV) + toT);
    evs.push({ bundleIndex: index, opIndex: 0xffff, kind: 3, data: cat(user, ctx.proposer, le(toP, 16), TREASURY, le(toT, 16)) });
  }

  /**
   * ERC-20 allowances (docs/allowances.md): key 0x0C owner‖token‖spender → u128 (deleted at 0),
   * 2^128−1 infinite. Approve overwrites and emits Approval (kind 19); TransferFrom checks the
   * allowance, then the owner's balance, moves it as a Transfer would and emits Transfer (kind 0).
   * NTV is refused in both.
   */
  /** TransferFrom operations that executed, on a finite and on the infinite allowance (for the random test's reach). */
  readonly allowanceReach = { spent: 0, infinite: 0 };
  private execAllowance(user: Uint8Array, op: Extract<Op, { kind: 51 | 52 }>, index: number, k: number, evs: RefEvent[]): number {
    if (op.kind === 52 && op.amount === 0n && this.auth !== 3) return S.ZERO_AMOUNT;
    if (eq(op.token, NTV)) return S.NATIVE_NOT_APPROVABLE;
    if (!this.get(cat(new Uint8Array([3]), op.token))) return S.UNKNOWN_TOKEN;
    if (op.kind === 51) {
      const key = cat(new Uint8Array([0x0c]), user, op.token, op.spender);
      if (op.amount !== 0n) this.put(key, le(op.amount, 16));
      else if (this.get(key)) this.put(key, null);
      evs.push({ bundleIndex: index, opIndex: k, kind: 19, data: cat(user, op.spender, op.token, le(op.amount, 16)) });
      return S.OK;
    }
    const key = cat(new Uint8Array([0x0c]), op.from, op.token, user);
    const v = this.get(key);
    const allowance = v ? rdLe(v, 0, 16) : 0n;
    if (allowance < op.amount) return S.INSUFFICIENT_ALLOWANCE;
    if (this.auth === 3 && op.to.every((b) => b === 0)) return S.TRANSFER_TO_ZERO_ADDRESS;
    const g = guard(this.host, op.token, op.from, op.to);
    if (g) return g;
    const fb = this.bal(op.from, op.token);
    if (fb < op.amount) return S.INSUFFICIENT_BALANCE;
    if (!eq(op.to, op.from) && op.amount !== 0n) {
      const tb = this.bal(op.to, op.token) + op.amount;
      if (tb > U128) return S.AMOUNT_OVERFLOW;
      this.setBal(op.to, op.token, tb);
      this.setBal(op.from, op.token, fb - op.amount);
    }
    if (allowance === U128) this.allowanceReach.infinite++;
    else this.allowanceReach.spent++;
    if (allowance !== U128) {
      const left = allowance - op.amount;
      if (left !== 0n) this.put(key, le(left, 16));
      else if (v) this.put(key, null); // deleting an absent record is not a write (as in the core)
    }
    evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(op.from, op.to, op.token, le(op.amount, 16)) });
    return S.OK;
  }

  // ---------------------------------------------------------------- accounts (docs/accounts.md)
  private keyRecord(ctx: RefCtx, kt: number, role: number, pk: Uint8Array): Uint8Array {
    return cat(new Uint8Array([kt, role]), le(BigInt(pk.length), 4), pk, le(ctx.height, 8), le(ctx.timestamp, 8));
  }
  private keyCount(a: Uint8Array): number {
    const v = this.get(cat(new Uint8Array([1]), a));
    return v ? Number(rdLe(v, 8, 2)) : 0;
  }
  private setKeyCount(a: Uint8Array, n: number) {
    const k = cat(new Uint8Array([1]), a);
    const v = this.get(k);
    const rec = v && v.length >= 10 ? v.slice() : new Uint8Array(10);
    rec.set(le(BigInt(n), 2), 8);
    this.put(k, rec);
  }
  private del(key: Uint8Array) {
    if (this.get(key)) this.put(key, null);
  }
  private keyList(a: Uint8Array): Uint8Array[] {
    const v = this.get(cat(new Uint8Array([0x52]), a));
    return v ? Array.from({ length: v.length / 32 }, (_, i) => v.slice(32 * i, 32 * i + 32)) : [];
  }
  private setKeyList(a: Uint8Array, list: Uint8Array[]) {
    const k = cat(new Uint8Array([0x52]), a);
    if (list.length === 0) this.del(k);
    else this.put(k, cat(...list));
  }
  private execKey(ctx: RefCtx, user: Uint8Array, op: Extract<Op, { kind: 1 | 2 | 3 }>, index: number, k: number, evs: RefEvent[]): number {
    const rk = (h: Uint8Array) => cat(new Uint8Array([6]), user, h);
    const added = (h: Uint8Array, kt: number, role: number) => evs.push({ bundleIndex: index, opIndex: k, kind: 35, data: cat(user, h, new Uint8Array([kt, role])) });
    const removed = (h: Uint8Array) => evs.push({ bundleIndex: index, opIndex: k, kind: 36, data: cat(user, h) });
    if (op.kind === 1) {
      if (keyLen(op.kt) === 0 || op.pk.length !== keyLen(op.kt)) return S.INVALID_KEY;
      if (op.role > 1) return S.INVALID_KEY_ROLE;
      const h = sha256(op.pk);
      if (this.get(rk(h))) return S.KEY_EXISTS;
      const n = this.keyCount(user);
      if (n >= 8) return S.TOO_MANY_KEYS;
      this.put(rk(h), this.keyRecord(ctx, op.kt, op.role, op.pk));
      this.setKeyList(user, [...this.keyList(user).filter((x) => !eq(x, h)), h]);
      added(h, op.kt, op.role);
      this.setKeyCount(user, n + 1);
      return S.OK;
    }
    if (op.kind === 2) {
      const kr = this.get(rk(op.hash));
      if (!kr) return S.KEY_NOT_FOUND;
      if (kr[1] === 0) {
        const list = this.keyList(user);
        let owners = list.filter((h) => this.get(rk(h))?.[1] === 0).length;
        if (!list.some((h) => eq(h, user)) && this.get(rk(user))?.[1] === 0) owners++;
        if (owners <= 1) return S.LAST_OWNER_KEY;
      }
      const n = this.keyCount(user);
      this.del(rk(op.hash));
      this.setKeyList(user, this.keyList(user).filter((x) => !eq(x, op.hash)));
      removed(op.hash);
      this.setKeyCount(user, n - 1);
      return S.OK;
    }
    if (keyLen(op.kt) === 0 || op.pk.length !== keyLen(op.kt)) return S.INVALID_KEY;
    const old = this.get(rk(op.old));
    if (!old) return S.KEY_NOT_FOUND;
    const h = sha256(op.pk);
    if (this.get(rk(h))) return S.KEY_EXISTS;
    this.del(rk(op.old));
    this.setKeyList(user, this.keyList(user).filter((x) => !eq(x, op.old)));
    removed(op.old);
    this.put(rk(h), this.keyRecord(ctx, op.kt, old[1]!, op.pk));
    this.setKeyList(user, [...this.keyList(user).filter((x) => !eq(x, h)), h]);
    added(h, op.kt, old[1]!);
    return S.OK;
  }

  private recovery(a: Uint8Array) {
    const v = this.get(cat(new Uint8Array([0x50]), a));
    if (!v) return undefined;
    const n = Number(rdLe(v, 10, 4));
    return { threshold: v[1]!, timelock: rdLe(v, 2, 8), guardians: Array.from({ length: n }, (_, i) => v.slice(14 + 32 * i, 46 + 32 * i)) };
  }
  private pending(a: Uint8Array) {
    const v = this.get(cat(new Uint8Array([0x51]), a));
    if (!v) return undefined;
    const n = Number(rdLe(v, 18, 4));
    const approvals: Uint8Array[] = Array.from({ length: n }, (_, i) => v.slice(22 + 32 * i, 54 + 32 * i));
    const o = 22 + 32 * n;
    const pk = v.slice(o + 4, o + 4 + Number(rdLe(v, o, 4)));
    return { kt: v[1]!, at: rdLe(v, 2, 8), height: rdLe(v, 10, 8), approvals, pk };
  }
  private putPending(a: Uint8Array, p: { kt: number; at: bigint; height: bigint; approvals: Uint8Array[]; pk: Uint8Array }) {
    this.put(cat(new Uint8Array([0x51]), a), cat(new Uint8Array([1, p.kt]), le(p.at, 8), le(p.height, 8), le(BigInt(p.approvals.length), 4), ...p.approvals, le(BigInt(p.pk.length), 4), p.pk));
  }
  private execRecovery(ctx: RefCtx, user: Uint8Array, op: Extract<Op, { kind: 77 | 78 | 79 | 80 | 81 }>, index: number, k: number, evs: RefEvent[]): number {
    const ev = (kind: number, ...data: Uint8Array[]) => evs.push({ bundleIndex: index, opIndex: k, kind, data: cat(...data) });
    const has = (list: Uint8Array[], a: Uint8Array) => list.some((x) => eq(x, a));
    if (op.kind === 77) {
      const g = op.guardians;
      if (g.length === 0 || g.length > 10 || g.some((x, i) => has(g.slice(0, i), x)) || has(g, user)) return S.INVALID_GUARDIANS;
      if (op.threshold === 0 || op.threshold > g.length) return S.INVALID_THRESHOLD;
      const min = ctx.allowUnsigned ? 10n : 86400n;
      if (op.timelock < min || op.timelock > 2_592_000n) return S.INVALID_TIMELOCK;
      if (this.pending(user)) return S.RECOVERY_PENDING;
      this.put(cat(new Uint8Array([0x50]), user), cat(new Uint8Array([1, op.threshold]), le(op.timelock, 8), le(BigInt(g.length), 4), ...g));
      ev(37, user, new Uint8Array([op.threshold, g.length]), le(op.timelock, 8));
      return S.OK;
    }
    if (op.kind === 78) {
      const cfg = this.recovery(op.account);
      if (!cfg) return S.RECOVERY_NOT_CONFIGURED;
      if (!has(cfg.guardians, user)) return S.NOT_GUARDIAN;
      if (keyLen(op.kt) === 0 || op.pk.length !== keyLen(op.kt)) return S.INVALID_KEY;
      if (this.pending(op.account)) return S.RECOVERY_PENDING;
      this.putPending(op.account, { kt: op.kt, at: ctx.timestamp, height: ctx.height, approvals: [user], pk: op.pk });
      ev(38, op.account, user, sha256(op.pk), new Uint8Array([op.kt]), le(ctx.timestamp + cfg.timelock, 8));
      return S.OK;
    }
    if (op.kind === 79) {
      const p = this.pending(op.account);
      if (!p) return S.NO_PENDING_RECOVERY;
      if (!has(this.recovery(op.account)!.guardians, user)) return S.NOT_GUARDIAN;
      if (!eq(sha256(p.pk), op.hash)) return S.RECOVERY_KEY_MISMATCH;
      if (has(p.approvals, user)) return S.RECOVERY_ALREADY_APPROVED;
      p.approvals.push(user);
      this.putPending(op.account, p);
      ev(39, op.account, user, new Uint8Array([p.approvals.length]));
      return S.OK;
    }
    if (op.kind === 80) {
      const p = this.pending(user);
      if (!p) return S.NO_PENDING_RECOVERY;
      if (ctx.timestamp - p.at >= this.recovery(user)!.timelock) return S.RECOVERY_TIMELOCK_ELAPSED;
      this.del(cat(new Uint8Array([0x51]), user));
      ev(40, user);
      return S.OK;
    }
    const a = op.account;
    const p = this.pending(a);
    if (!p) return S.NO_PENDING_RECOVERY;
    const cfg = this.recovery(a)!;
    if (ctx.timestamp - p.at < cfg.timelock) return S.RECOVERY_TIMELOCK_ACTIVE;
    if (p.approvals.length < cfg.threshold) return S.RECOVERY_THRESHOLD_NOT_MET;
    const rk = (h: Uint8Array) => cat(new Uint8Array([6]), a, h);
    const list = this.keyList(a);
    for (const h of list) this.del(rk(h));
    this.del(cat(new Uint8Array([0x52]), a));
    this.del(rk(a));
    const h = sha256(p.pk);
    this.put(rk(h), this.keyRecord(ctx, p.kt, 0, p.pk));
    this.put(cat(new Uint8Array([0x52]), a), h);
    this.setKeyCount(a, 1);
    this.del(cat(new Uint8Array([0x51]), a));
    ev(41, a, h, new Uint8Array([p.kt]));
    return S.OK;
  }

  private multisig(ms: Uint8Array) {
    const v = this.get(cat(new Uint8Array([0x53]), ms));
    if (!v) return undefined;
    const n = Number(rdLe(v, 58, 4));
    return { v, threshold: v[1]!, nextTx: rdLe(v, 50, 8), signers: Array.from({ length: n }, (_, i) => v.slice(62 + 32 * i, 94 + 32 * i)) };
  }
  private msTx(ms: Uint8Array, id: bigint) {
    const key = cat(new Uint8Array([0x54]), ms, le(id, 8).reverse());
    const v = this.get(key);
    if (!v) return undefined;
    const n = Number(rdLe(v, 68, 4));
    const approvals: Uint8Array[] = Array.from({ length: n }, (_, i) => v.slice(72 + 32 * i, 104 + 32 * i));
    return { key, head: v.slice(0, 68), approvals, tail: v.slice(72 + 32 * n) };
  }
  private putTx(t: { key: Uint8Array; head: Uint8Array; approvals: Uint8Array[]; tail: Uint8Array }) {
    this.put(t.key, cat(t.head, le(BigInt(t.approvals.length), 4), ...t.approvals, t.tail));
  }
  private execMultiSig(ctx: RefCtx, d: Decoded, op: Extract<Op, { kind: 22 | 23 | 24 | 25 }>, index: number, k: number, evs: RefEvent[]): number {
    const user = d.user;
    const has = (list: Uint8Array[], a: Uint8Array) => list.some((x) => eq(x, a));
    const ev = (kind: number, ...data: Uint8Array[]) => evs.push({ bundleIndex: index, opIndex: k, kind, data: cat(...data) });
    if (op.kind === 22) {
      const sg = op.signers;
      if (sg.length === 0 || sg.length > 16 || sg.some((x, i) => has(sg.slice(0, i), x))) return S.INVALID_SIGNERS;
      if (op.threshold === 0 || op.threshold > sg.length) return S.INVALID_THRESHOLD;
      if (op.label.length > 64) return S.INVALID_MULTISIG_FIELD;
      const ms = this.blake3(utf8.encode('multisig'), user, le(d.nonce, 8), le(BigInt(k), 4));
      this.put(cat(new Uint8Array([0x53]), ms), cat(new Uint8Array([1, op.threshold]), user, le(ctx.height, 8), le(ctx.timestamp, 8), le(0n, 8),
        le(BigInt(sg.length), 4), ...sg, le(BigInt(op.label.length), 4), op.label));
      ev(42, ms, user, new Uint8Array([op.threshold, sg.length]));
      return S.OK;
    }
    const m = this.multisig(op.ms);
    if (!m) return S.MULTISIG_NOT_FOUND;
    if (!has(m.signers, user)) return S.NOT_MULTISIG_SIGNER;
    const upd = (id: bigint, action: number, n: number) => ev(43, op.ms, le(id, 8), user, new Uint8Array([action, n]));
    if (op.kind === 23) {
      if (op.desc.length > 256) return S.INVALID_MULTISIG_FIELD;
      if (op.held.length > 4096) return S.INVALID_MULTISIG_OPERATIONS;
      const id = m.nextTx;
      const mv = m.v.slice();
      mv.set(le(id + 1n, 8), 50);
      this.put(cat(new Uint8Array([0x53]), op.ms), mv);
      this.put(cat(new Uint8Array([0x54]), op.ms, le(id, 8).reverse()), cat(new Uint8Array([1, 0]), user, le(ctx.height, 8), le(ctx.timestamp, 8),
        le(ctx.timestamp + 604_800n, 8), le(0n, 8), le(0n, 2), le(1n, 4), user, le(BigInt(op.desc.length), 4), op.desc, le(BigInt(op.held.length), 4), op.held));
      upd(id, 0, 1);
      if (m.threshold <= 1) this.msExecute(ctx, op.ms, id, index, k, evs);
      return S.OK;
    }
    const t = this.msTx(op.ms, op.txId);
    if (!t) return S.MULTISIG_TX_NOT_FOUND;
    if (t.head[1] !== 0) return S.MULTISIG_TX_NOT_PENDING;
    if (ctx.timestamp > rdLe(t.head, 50, 8)) return S.MULTISIG_TX_EXPIRED;
    const approve = op.kind === 24;
    if (approve && has(t.approvals, user)) return S.ALREADY_APPROVED;
    if (!approve && !has(t.approvals, user)) return S.NOT_APPROVED;
    t.approvals = t.approvals.filter((x) => !eq(x, user));
    if (approve) t.approvals.push(user);
    this.putTx(t);
    upd(op.txId, approve ? 1 : 2, t.approvals.length);
    if (approve && t.approvals.length >= m.threshold) this.msExecute(ctx, op.ms, op.txId, index, k, evs);
    return S.OK;
  }
  /** A proposal's operations as the multi-sig, all or nothing; the record keeps the outcome. */
  private msExecute(ctx: RefCtx, ms: Uint8Array, id: bigint, index: number, k: number, evs: RefEvent[]) {
    const t = this.msTx(ms, id)!;
    const descLen = Number(rdLe(t.tail, 0, 4));
    const held = t.tail.slice(4 + descLen + 4);
    const ops = decodeOps(new Reader(held), 16, true) as Op[];
    const saved = new Map(this.bundle!);
    const evLen = evs.length;
    let st: number = S.OK;
    const as = { user: ms, nonce: id } as Decoded;
    for (let i = 0; i < ops.length && st === S.OK; i++) st = this.execOp(ctx, as, ops[i]!, index, k, evs);
    if (st !== S.OK) {
      this.bundle = saved;
      evs.length = evLen;
    }
    const t2 = this.msTx(ms, id)!;
    t2.head[1] = st === S.OK ? 1 : 2;
    t2.head.set(le(ctx.height, 8), 58);
    t2.head.set(le(BigInt(st), 2), 66);
    this.putTx(t2);
    evs.push({ bundleIndex: index, opIndex: k, kind: 44, data: cat(ms, le(id, 8), le(BigInt(st), 2)) });
  }

  // ---- Upgrade governance (docs/upgrades.md), written from the page, not from the core ----------
  // 0x5C config {version, mode, quorum u8, period u64, authority[32]}; 0x5D name → plan; 0x5E
  // voter‖name → u8 approve; 0x5F {version, applied_height u64, active String, applied String}.
  // This model's ledger has no validators, so in full mode only 0x00…09 may act.
  private upgradeConfig() {
    const v = this.get(new Uint8Array([0x5c]));
    return v ? { mode: v[1]!, authority: v.slice(11, 43) } : { mode: 0, authority: new Uint8Array(32) };
  }
  private upgradeState() {
    const v = this.get(new Uint8Array([0x5f]));
    if (!v) return { applied: 0n, active: new Uint8Array(0), appliedName: new Uint8Array(0) };
    const al = Number(rdLe(v, 9, 4));
    const active = v.slice(13, 13 + al);
    const pl = Number(rdLe(v, 13 + al, 4));
    return { applied: rdLe(v, 1, 8), active, appliedName: v.slice(17 + al, 17 + al + pl) };
  }
  private putUpgradeState(applied: bigint, active: Uint8Array, appliedName: Uint8Array) {
    this.put(new Uint8Array([0x5f]), cat(new Uint8Array([1]), le(applied, 8), le(BigInt(active.length), 4), active, le(BigInt(appliedName.length), 4), appliedName));
  }
  private planKey(name: Uint8Array) { return cat(new Uint8Array([0x5d]), name); }
  /** Set a plan's state and decided height (offsets: state 1, decided 58). */
  private setPlanState(name: Uint8Array, state: number, height: bigint) {
    const v = this.get(this.planKey(name))!.slice();
    v[1] = state;
    v.set(le(height, 8), 58);
    this.put(this.planKey(name), v);
  }
  private isUpgradeAuthority(user: Uint8Array): boolean {
    const c = this.upgradeConfig();
    return eq(user, GOVERNANCE) || (c.mode === 0 && c.authority.some((b) => b !== 0) && eq(user, c.authority));
  }
  private execUpgrade(ctx: RefCtx, user: Uint8Array, op: Extract<Op, { kind: 15 | 16 | 17 }>, index: number, k: number, evs: RefEvent[]): number {
    const nameOk = op.name.length >= 1 && op.name.length <= 64 && /^[A-Za-z0-9._-]+$/.test(Buffer.from(op.name).toString('latin1'))
      && !['.', '..'].includes(Buffer.from(op.name).toString('latin1'));
    if (op.kind === 15) {
      if (!nameOk) return S.INVALID_UPGRADE_NAME;
      if (op.bin.length > 512 || op.info.length > 512) return S.INVALID_UPGRADE_URL;
      if (op.height <= ctx.height) return S.UPGRADE_HEIGHT_PASSED;
      if (op.checksum.every((b) => b === 0)) return S.INVALID_UPGRADE_CHECKSUM;
      if (this.get(this.planKey(op.name))) return S.UPGRADE_NAME_TAKEN;
      const us = this.upgradeState();
      if (us.active.length > 0) return S.UPGRADE_PLAN_ACTIVE;
      const authority = this.isUpgradeAuthority(user);
      if (this.upgradeConfig().mode === 1 && !authority) return S.NOT_UPGRADE_VOTER;
      const c = this.get(new Uint8Array([0x5c]));
      const period = c ? rdLe(c, 3, 8) : 500n;
      const state = authority ? 1 : 0;
      this.put(this.planKey(op.name), cat(new Uint8Array([1, state]), user, le(op.height, 8), le(ctx.height, 8), le(ctx.height + period, 8),
        le(authority ? ctx.height : 0n, 8), op.checksum, le(authority ? 1n : 0n, 16), le(0n, 16),
        le(BigInt(op.bin.length), 4), op.bin, le(BigInt(op.info.length), 4), op.info));
      this.putUpgradeState(us.applied, op.name, us.appliedName);
      evs.push({ bundleIndex: index, opIndex: k, kind: 53, data: cat(user, le(op.height, 8), new Uint8Array([state]), op.name) });
      return S.OK;
    }
    const plan = op.name.length <= 64 ? this.get(this.planKey(op.name)) : undefined;
    if (!plan) return S.UPGRADE_NOT_FOUND;
    const state = plan[1]!;
    const height = rdLe(plan, 34, 8);
    const authority = this.isUpgradeAuthority(user);
    const us = this.upgradeState();
    if (op.kind === 17) {
      if (state !== 0) return S.UPGRADE_NOT_PENDING;
      if (ctx.height >= height) return S.UPGRADE_HEIGHT_PASSED;
      if (ctx.height > rdLe(plan, 50, 8)) return S.UPGRADE_VOTING_CLOSED;
      if (!authority) return S.NOT_UPGRADE_VOTER; // seed-authority: not the key; full: no validators here
      const vk = cat(new Uint8Array([0x5e]), user, op.name);
      if (this.get(vk)) return S.ALREADY_VOTED_UPGRADE;
      this.put(vk, new Uint8Array([op.approve ? 1 : 0]));
      if (op.approve) {
        const v = plan.slice();
        v.set(le(1n, 16), 98);
        this.put(this.planKey(op.name), v);
      }
      this.setPlanState(op.name, op.approve ? 1 : 2, ctx.height);
      if (!op.approve) this.putUpgradeState(us.applied, new Uint8Array(0), us.appliedName);
      evs.push({ bundleIndex: index, opIndex: k, kind: 54, data: cat(user, new Uint8Array([op.approve ? 1 : 0, op.approve ? 1 : 2]), op.name) });
      return S.OK;
    }
    if (state !== 0 && state !== 1) return S.UPGRADE_NOT_ACTIVE;
    if (ctx.height >= height) return S.UPGRADE_HEIGHT_PASSED;
    if (!(state === 0 && eq(user, plan.subarray(2, 34))) && !authority) return S.NOT_UPGRADE_AUTHORITY;
    this.setPlanState(op.name, 3, ctx.height);
    this.putUpgradeState(us.applied, new Uint8Array(0), us.appliedName);
    evs.push({ bundleIndex: index, opIndex: k, kind: 55, data: cat(user, op.name) });
    return S.OK;
  }
  /** After the schedules: a pending plan expires at its deadline or the block before its height; an approved one is applied at its height. */
  private upgradesEndBlock(height: bigint) {
    const us = this.upgradeState();
    if (us.active.length === 0) return;
    const plan = this.get(this.planKey(us.active))!;
    const planHeight = rdLe(plan, 34, 8);
    if (plan[1] === 0 && (height >= rdLe(plan, 50, 8) || height + 1n >= planHeight)) {
      this.setPlanState(us.active, 4, height);
      this.putUpgradeState(us.applied, new Uint8Array(0), us.appliedName);
    } else if (plan[1] === 1 && height >= planHeight) {
      this.setPlanState(us.active, 5, height);
      this.putUpgradeState(height, new Uint8Array(0), us.active);
    }
  }

  /** The auth kind of the bundle being executed (0 in a schedule run): the STD-8 quantum rule. */
  private auth = 0;
  /** The state accessors the STD-8 rules use (testkit/stable-reference.ts). */
  private readonly host: Host = {
    get: (k) => this.get(k), put: (k, v) => this.put(k, v), bal: (a, m) => this.bal(a, m), setBal: (a, m, v) => this.setBal(a, m, v),
    blake3: (...p) => this.blake3(...p),
  };

  private execOp(ctx: RefCtx, d: Decoded, op: Op, index: number, k: number, evs: RefEvent[]): number {
    const user = d.user;
    if (isStableOp(op)) return execStableRef(this.host, ctx, this.auth, user, op.kind, op.f, index, k, evs);
    if (op.kind === 15 || op.kind === 16 || op.kind === 17) return this.execUpgrade(ctx, user, op, index, k, evs);
    if (op.kind === 119) return S.NOT_VALIDATOR; // no validators in this model's genesis
    if (op.kind === 48) return this.execRegisterProgram(ctx, user, op, index, k, evs);
    if (op.kind === 49) return this.execCreateSchedule(ctx, user, d.nonce, op, index, k, evs);
    if (op.kind === 50) return this.execCancelSchedule(user, op.id, index, k, evs);
    if (op.kind === 51 || op.kind === 52) return this.execAllowance(user, op, index, k, evs);
    if (op.kind === 18 || op.kind === 19 || op.kind === 20 || op.kind === 21) return this.execGovernance(ctx, d, op, index, k, evs);
    if (op.kind >= 85 && op.kind <= 90) return this.execDao(ctx, d, op as DaoOp, index, k, evs);
    if (op.kind >= 95 && op.kind <= 99) return this.execPresale(ctx, user, op as PresaleOp, index, k, evs);
    if (op.kind >= 100 && op.kind <= 104) return this.execStakingPool(ctx, user, op as StakingPoolOp, index, k, evs);
    if (isSettleOp(op)) return execSettleOp(this.settleIo, ctx, user, d.nonce, op, index, k, evs);
    if (isBridgeOp(op)) return execBridgeRef(this.host, ctx, user, op, index, k, evs);
    if (op.kind === 1 || op.kind === 2 || op.kind === 3) return this.execKey(ctx, user, op, index, k, evs);
    if (op.kind >= 77 && op.kind <= 81) return this.execRecovery(ctx, user, op as Extract<Op, { kind: 77 | 78 | 79 | 80 | 81 }>, index, k, evs);
    if (op.kind >= 22 && op.kind <= 25) return this.execMultiSig(ctx, d, op as Extract<Op, { kind: 22 | 23 | 24 | 25 }>, index, k, evs);
    if (op.kind !== 0 && op.kind !== 33) return this.execDex(ctx, user, op as Extract<Op, { kind: 28 | 29 | 30 | 31 | 34 | 35 }>, index, k, evs);
    if (op.kind === 0) {
      // from an EVM transaction: 0 is a no-op that succeeds, a token may not go to the zero address
      if (op.amount === 0n && this.auth !== 3) return S.ZERO_AMOUNT;
      if (!this.get(cat(new Uint8Array([3]), op.token))) return S.UNKNOWN_TOKEN;
      if (this.auth === 3 && !eq(op.token, NTV) && op.to.every((b) => b === 0)) return S.TRANSFER_TO_ZERO_ADDRESS;
      const g = guard(this.host, op.token, user, op.to);
      if (g) return g;
      const fb = this.bal(user, op.token);
      if (fb < op.amount) return S.INSUFFICIENT_BALANCE;
      if (!eq(op.to, user) && op.amount !== 0n) {
        const tb = this.bal(op.to, op.token) + op.amount;
        if (tb > U128) return S.AMOUNT_OVERFLOW;
        this.setBal(op.to, op.token, tb);
        this.setBal(user, op.token, fb - op.amount);
      }
      evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(user, op.to, op.token, le(op.amount, 16)) });
      return S.OK;
    }
    if (op.name.length === 0 || op.name.length > 64) return S.INVALID_NAME;
    if (op.symbol.length === 0 || op.symbol.length > 16 || !/^[A-Za-z0-9]+$/.test(Buffer.from(op.symbol).toString('latin1'))) return S.INVALID_SYMBOL;
    if (op.decimals > 18) return S.INVALID_DECIMALS;
    if (op.supply === 0n) return S.ZERO_SUPPLY;
    const up = upper(op.symbol);
    if (this.get(cat(new Uint8Array([5]), up))) return S.SYMBOL_RESERVED;
    const sk = cat(new Uint8Array([4]), up);
    if (this.get(sk)) return S.SYMBOL_TAKEN;
    const mint = this.blake3(utf8.encode('std7-mint'), user, up, le(ctx.timestamp, 8), le(d.nonce, 8));
    const tk = cat(new Uint8Array([3]), mint);
    if (this.get(tk)) return S.SYMBOL_TAKEN;
    this.put(tk, tokenRecord(op.name, op.symbol, op.decimals, op.supply, user, op.owner, ctx.timestamp, ctx.height, 1, 1, new Uint8Array(0), new Uint8Array(0)));
    this.put(sk, mint);
    const ob = this.bal(op.owner, mint) + op.supply;
    if (ob > U128) return S.AMOUNT_OVERFLOW;
    this.setBal(op.owner, mint, ob);
    evs.push({ bundleIndex: index, opIndex: k, kind: 1, data: cat(mint, user, op.owner, le(op.supply, 16)) });
    return S.OK;
  }

  /**
   * RegisterProgram (docs/intents.md "Programs on chain"): name 3–64 of [a-z0-9_-] starting with a
   * letter or digit, JSON 1–16,384 bytes, owner-only replacement; new names get the next list index.
   */
  private execRegisterProgram(ctx: RefCtx, user: Uint8Array, op: { name: Uint8Array; json: Uint8Array }, index: number, k: number, evs: RefEvent[]): number {
    if (!/^[a-z0-9][a-z0-9_-]{2,63}$/.test(Buffer.from(op.name).toString('latin1'))) return S.INVALID_PROGRAM_NAME;
    if (op.json.length === 0 || op.json.length > 16384) return S.INVALID_PROGRAM;
    const key = cat(new Uint8Array([0x30]), op.name);
    const old = this.get(key);
    let revision = 1n, listIndex: bigint, regHeight = ctx.height, regTime = ctx.timestamp;
    if (old) {
      if (!eq(old.subarray(1, 33), user)) return S.NOT_PROGRAM_OWNER;
      revision = rdLe(old, 33, 4) + 1n;
      listIndex = rdLe(old, 37, 8);
      regHeight = rdLe(old, 45, 8);
      regTime = rdLe(old, 53, 8);
    } else {
      const countKey = new Uint8Array([0x31]);
      const c = this.get(countKey);
      listIndex = c ? rdLe(c, 0, 8) : 0n;
      this.put(countKey, le(listIndex + 1n, 8));
      const ik = new Uint8Array(9);
      ik[0] = 0x32;
      new DataView(ik.buffer).setBigUint64(1, listIndex, false);
      this.put(ik, op.name.slice());
    }
    const hash = this.blake3(op.json);
    this.put(key, cat(new Uint8Array([1]), user, le(revision, 4), le(listIndex, 8), le(regHeight, 8), le(regTime, 8), le(ctx.height, 8), le(ctx.timestamp, 8),
      hash, le(BigInt(op.json.length), 4), op.json));
    evs.push({ bundleIndex: index, opIndex: k, kind: 15, data: cat(user, le(revision, 4), hash, op.name) });
    return S.OK;
  }

  // ---- Schedules on chain (docs/schedules.md, docs/core-abi.md "State layout") ----
  // 0x33 id → ScheduleRecord, 0x34 slot u64 BE → ids, 0x35 → next_slot u64, active u64,
  // 0x36 id ‖ run u32 BE → height u64, time u64, status u16, gas u64, fee u128.

  private schedKey(id: Uint8Array) { return cat(new Uint8Array([0x33]), id); }
  private slotKey(slot: bigint) {
    const k = new Uint8Array(9);
    k[0] = 0x34;
    new DataView(k.buffer).setBigUint64(1, slot, false);
    return k;
  }
  private cursor(): { next: bigint; active: bigint } | null {
    const v = this.get(new Uint8Array([0x35]));
    return v ? { next: rdLe(v, 0, 8), active: rdLe(v, 8, 8) } : null;
  }
  private setCursor(next: bigint, active: bigint) { this.put(new Uint8Array([0x35]), cat(le(next, 8), le(active, 8))); }
  private loadSched(id: Uint8Array): Sched | null {
    const v = this.get(this.schedKey(id));
    return v ? decodeSched(v) : null;
  }
  private storeSched(id: Uint8Array, r: Sched) { this.put(this.schedKey(id), encodeSched(r)); }
  private slotIds(slot: bigint): Uint8Array[] {
    const v = this.get(this.slotKey(slot));
    const out: Uint8Array[] = [];
    if (v) for (let o = 0; o < v.length; o += 32) out.push(v.slice(o, o + 32));
    return out;
  }
  private setSlotIds(slot: bigint, ids: Uint8Array[]) {
    const k = this.slotKey(slot);
    if (ids.length === 0) { if (this.get(k)) this.put(k, null); } else this.put(k, cat(...ids));
  }

  /**
   * CreateSchedule: the trigger's bounds (INVALID_SCHEDULE_TRIGGER), then the held operations
   * (INVALID_SCHEDULE_OPERATIONS: over 4,096 bytes, a CreateToken, a Conditional's not being one
   * Swap of its pair). Queued at max(due slot, cursor) — the cursor only counts while a schedule is
   * active; with none it restarts at the block's slot.
   */
  private execCreateSchedule(ctx: RefCtx, user: Uint8Array, nonce: bigint, op: Extract<Op, { kind: 49 }>, index: number, k: number, evs: RefEvent[]): number {
    const now = ctx.timestamp;
    const t = op.trigger;
    const r: Sched = { owner: user.slice(), kind: op.tag, state: 0, createdHeight: ctx.height, createdAt: now, nextDue: now, queuedSlot: 0n,
      runsDone: 0, runsOk: 0, lastHeight: 0n, lastStatus: 0, interval: 0n, runsTotal: 1, expiry: 0n, direction: 0,
      base: new Uint8Array(32), quote: new Uint8Array(32), num: 0n, den: 0n, held: op.held };
    if (op.tag === 0) {
      const interval = rdLe(t, 0, 8), runs = Number(rdLe(t, 8, 4)), first = rdLe(t, 12, 8);
      if (interval < 60n || interval > HORIZON || runs === 0) return S.INVALID_SCHEDULE_TRIGGER;
      if (first > now + HORIZON) return S.INVALID_SCHEDULE_TRIGGER;
      if (first > now) r.nextDue = first;
      r.interval = interval;
      r.runsTotal = runs;
    } else {
      r.base = t.slice(0, 32);
      r.quote = t.slice(32, 64);
      r.direction = t[64]!;
      r.num = rdLe(t, 65, 16);
      r.den = rdLe(t, 81, 16);
      r.expiry = rdLe(t, 97, 8);
      if (r.direction > 1 || r.num === 0n || r.den === 0n || eq(r.base, r.quote)) return S.INVALID_SCHEDULE_TRIGGER;
      if (r.expiry <= now || r.expiry > now + HORIZON) return S.INVALID_SCHEDULE_TRIGGER;
    }
    if (op.held.length > MAX_HELD_BYTES || op.ops.some((o) => o.kind === 33 || o.kind === 107)) return S.INVALID_SCHEDULE_OPERATIONS;
    if (op.tag === 1) {
      const sw = op.ops[0]!;
      if (op.ops.length !== 1 || sw.kind !== 31) return S.INVALID_SCHEDULE_OPERATIONS;
      if (!((eq(sw.a, r.base) && eq(sw.b, r.quote)) || (eq(sw.a, r.quote) && eq(sw.b, r.base)))) return S.INVALID_SCHEDULE_OPERATIONS;
    }
    const id = this.blake3(utf8.encode('schedule'), user, le(nonce, 8), le(BigInt(k), 4));
    const c = this.cursor();
    const active = c?.active ?? 0n;
    const next = c && active > 0n ? c.next : now / SLOT;
    r.queuedSlot = r.nextDue / SLOT < next ? next : r.nextDue / SLOT;
    this.storeSched(id, r);
    this.setSlotIds(r.queuedSlot, [...this.slotIds(r.queuedSlot), id]);
    this.setCursor(next, active + 1n);
    evs.push({ bundleIndex: index, opIndex: k, kind: 17, data: cat(id, user, new Uint8Array([op.tag]), le(r.nextDue, 8)) });
    return S.OK;
  }

  /** CancelSchedule: SCHEDULE_NOT_FOUND → NOT_SCHEDULE_OWNER → SCHEDULE_NOT_ACTIVE; leaves the due index. */
  private execCancelSchedule(user: Uint8Array, id: Uint8Array, index: number, k: number, evs: RefEvent[]): number {
    const r = this.loadSched(id);
    if (!r) return S.SCHEDULE_NOT_FOUND;
    if (!eq(r.owner, user)) return S.NOT_SCHEDULE_OWNER;
    if (r.state !== 0) return S.SCHEDULE_NOT_ACTIVE;
    r.state = 4;
    this.storeSched(id, r);
    this.setSlotIds(r.queuedSlot, this.slotIds(r.queuedSlot).filter((x) => !eq(x, id)));
    const c = this.cursor()!;
    this.setCursor(c.next, c.active - 1n);
    evs.push({ bundleIndex: index, opIndex: k, kind: 18, data: cat(id, user) });
    return S.OK;
  }

  /**
   * The due pass after the bundles: slots from the cursor to the block's, at most 64 slots and 32
   * handled entries (runs, condition checks, expiries); the block's own slot and a slot with entries
   * left stop the walk and are resumed by the next block. Returns the runs' gas and fees.
   */
  /** What the last block's due pass did (entries handled, slots walked past), for the tests' coverage checks. */
  lastDuePass = { handled: 0, slots: 0 };

  private processSchedules(ctx: RefCtx, events: RefEvent[]): { gas: bigint; fee: bigint } {
    const total = { gas: 0n, fee: 0n };
    this.lastDuePass = { handled: 0, slots: 0 };
    const c = this.cursor();
    if (!c || c.active === 0n) return total;
    const now = ctx.timestamp, cur = now / SLOT;
    let active = c.active, s = c.next, handled = 0, slots = 0;
    while (s <= cur && slots < MAX_SLOTS_PER_BLOCK && handled < MAX_DUE_PER_BLOCK && active > 0n) {
      const ids = this.slotIds(s);
      const keep: Uint8Array[] = [];
      for (const id of ids) {
        const r = this.loadSched(id)!;
        if (handled >= MAX_DUE_PER_BLOCK || r.nextDue > now) { keep.push(id); continue; }
        handled++;
        if (!this.handleDue(ctx, id, r, s, events, total)) active--;
      }
      if (ids.length > 0) this.setSlotIds(s, keep);
      if (keep.length > 0 || s === cur) break;
      s++;
      slots++;
    }
    if (s !== c.next || active !== c.active) this.setCursor(s, active);
    this.lastDuePass = { handled, slots };
    return total;
  }

  /** One due entry: run it (Recurring), or expire / check / run it (Conditional); requeue at ≥ s + 1 or end it. */
  private handleDue(ctx: RefCtx, id: Uint8Array, r: Sched, s: bigint, events: RefEvent[], total: { gas: bigint; fee: bigint }): boolean {
    const now = ctx.timestamp;
    let next = 0n;
    if (r.kind === 0) {
      this.runOnce(ctx, id, r, events, total);
      if (r.runsDone >= r.runsTotal) r.state = r.runsOk > 0 ? 1 : 2;
      else {
        next = r.nextDue + r.interval;
        if (next <= now) next = now + r.interval; // fell behind: resume an interval from now
      }
    } else if (now > r.expiry) r.state = 3;
    else if (!this.conditionMet(r)) next = now + SLOT;
    else {
      const st = this.runOnce(ctx, id, r, events, total);
      if (st === S.OK) r.state = 1;
      else if (r.runsDone - r.runsOk >= MAX_CONDITIONAL_FAILURES) r.state = 2;
      else next = now + SLOT;
    }
    if (r.state === 0) {
      r.nextDue = next;
      r.queuedSlot = next / SLOT <= s ? s + 1n : next / SLOT;
      this.setSlotIds(r.queuedSlot, [...this.slotIds(r.queuedSlot), id]);
    }
    this.storeSched(id, r);
    return r.state === 0;
  }

  /** Spot reserve_quote / reserve_base against num/den, exactly: below (<) or above (>); no pool = not met. */
  private conditionMet(r: Sched): boolean {
    const v = this.get(cat(new Uint8Array([7]), this.poolAddress(r.base, r.quote)));
    if (!v) return false;
    const p = decodePool(v);
    const [rb, rq] = cmp32(r.base, r.quote) < 0 ? [p.r0, p.r1] : [p.r1, p.r0];
    return r.direction === 0 ? rq * r.den < r.num * rb : rq * r.den > r.num * rb;
  }

  /**
   * One run: the held operations as the owner in their own overlay, gas 5,000 + theirs, fee = gas ×
   * gas price (no priority fee); an owner who cannot pay gets INSUFFICIENT_FEE_BALANCE with nothing
   * done or paid; a failing run is reverted and pays. Then the run record, the record's counters and
   * ScheduleRun (bundle_index 0xFFFFFFFF) after the run's own events.
   */
  private runOnce(ctx: RefCtx, id: Uint8Array, r: Sched, events: RefEvent[], total: { gas: bigint; fee: bigint }): number {
    const held = decodeOps(new Reader(r.held), MAX_HELD_OPS, true) as Op[];
    if (r.kind === 1) {
      // The limit price as a floor on the output: buying base (paying quote) in × den / num,
      // selling base in × num / den; beyond u128 it cannot be met.
      const sw = held[0] as Extract<Op, { kind: 31 }>;
      const q = eq(sw.a, r.quote) ? (sw.x * r.den) / r.num : (sw.x * r.num) / r.den;
      const floor = q > U128 ? U128 : q;
      if (floor > sw.min) sw.min = floor;
    }
    let gas = GAS_BASE;
    for (const op of held) gas += opGas(op);
    const fee = gas * ctx.gasPrice;
    let st: number = S.INSUFFICIENT_FEE_BALANCE;
    const evs: RefEvent[] = [];
    if (this.bal(r.owner, NTV) < fee) gas = 0n;
    else {
      this.bundle = new Map();
      this.payFee(ctx, r.owner, fee, RUN_INDEX, evs);
      this.auth = 0; // a run carries no signature
      const as = { user: r.owner, nonce: 0n } as Decoded; // no nonce: CreateToken is refused at creation
      st = S.OK;
      for (let k = 0; k < held.length && st === S.OK; k++) st = this.execOp(ctx, as, held[k]!, RUN_INDEX, k, evs);
      if (st !== S.OK) {
        this.bundle = new Map();
        evs.length = 0;
        this.payFee(ctx, r.owner, fee, RUN_INDEX, evs);
      }
      for (const [k, v] of this.bundle) this.block.set(k, v);
      this.bundle = null;
      total.gas += gas;
      total.fee += fee;
    }
    const paid = st === S.INSUFFICIENT_FEE_BALANCE ? 0n : fee;
    r.runsDone++;
    if (st === S.OK) r.runsOk++;
    r.lastHeight = ctx.height;
    r.lastStatus = st;
    const rk = cat(new Uint8Array([0x36]), id, new Uint8Array(4));
    new DataView(rk.buffer).setUint32(33, r.runsDone, false);
    this.put(rk, cat(le(ctx.height, 8), le(ctx.timestamp, 8), le(BigInt(st), 2), le(gas, 8), le(paid, 16)));
    evs.push({ bundleIndex: RUN_INDEX, opIndex: 0xffff, kind: 16, data: cat(id, r.owner, le(BigInt(r.runsDone), 4), le(BigInt(st), 2), le(gas, 8), le(paid, 16)) });
    events.push(...evs);
    return st;
  }

  // ---- Protocol proposals (docs/governance.md; assembly/domains/governance/ops.ts) ----
  // 0x58 id u64 BE → ProposalRecord, 0x59 id ‖ voter → approve u8, weight u128, height u64,
  // 0x5A → count u64, 0x5B Blake3("contract-safety" ‖ chain ‖ 0 ‖ contract) → ContractSafety,
  // 0x60 collection → CollectionSafety. Weight: the sum of the account's delegations (0x18 index,
  // 0x12 records); quorum base: StakingState.total_staked (0x14 at 57).

  /** Operations that ran as GOVERNANCE in executed proposals (the random test's reach). */
  readonly governanceReach = { executed: 0, carried: 0, spent: 0, safety: 0 };

  private propKey(id: bigint) { const k = new Uint8Array(9); k[0] = 0x58; new DataView(k.buffer).setBigUint64(1, id, false); return k; }
  private bonded(a: Uint8Array): bigint {
    const idx = this.get(cat(new Uint8Array([0x18]), a));
    let sum = 0n;
    if (!idx) return 0n;
    const n = Number(rdLe(idx, 0, 4));
    for (let i = 0; i < n; i++) {
      const d = this.get(cat(new Uint8Array([0x12]), idx.subarray(4 + 32 * i, 36 + 32 * i), a));
      if (d) sum += rdLe(d, 0, 16);
    }
    return sum;
  }
  private govParams(): { period: bigint; quorum: bigint; threshold: bigint } {
    const p = this.get(new Uint8Array([0x15]));
    const def = { period: 500n, quorum: 3340n, threshold: 5000n };
    if (!p) return def;
    const base = 63 + 8 * Number(rdLe(p, 59, 4));
    if (p.length !== base + 13) return def;
    return { period: rdLe(p, base + 1, 8), quorum: rdLe(p, base + 9, 2), threshold: rdLe(p, base + 11, 2) };
  }
  /** The checks made at creation and again at execution. */
  private checkAction(a: Uint8Array): number {
    const tag = a[0]!;
    if (tag === 1) {
      if (!this.get(new Uint8Array([0x15]))) return S.NO_CHAIN_PARAMS;
      const ranges: Array<[bigint, bigint]> = [[10n ** 9n, 10n ** 16n], [86_400n, 31_536_000n], [0n, 1_000_000n], [0n, 10_000n], [1n, 1000n], [1n, 1000n], [5n, 1_000_000n], [1n, 10_000n], [5000n, 9999n]];
      const v = rdLe(a, 2, 16);
      const [lo, hi] = ranges[a[1]!]!;
      if (v < lo || v > hi) return S.INVALID_PARAMETER_VALUE;
    } else if (tag === 2) {
      const amount = rdLe(a, 33, 16);
      if (amount === 0n) return S.ZERO_AMOUNT;
      if (this.bal(TREASURY, NTV) < amount) return S.TREASURY_INSUFFICIENT;
    } else if (tag === 3) {
      const cl = Number(rdLe(a, 1, 4));
      const al = Number(rdLe(a, 5 + cl, 4));
      if (cl === 0 || cl > 128 || al === 0 || al > 128 || a[9 + cl + al]! > 3) return S.INVALID_SAFETY_TARGET;
    } else if (tag === 4) {
      if (a[33]! > 3 || !this.get(cat(new Uint8Array([0x20]), a.subarray(1, 33)))) return S.INVALID_SAFETY_TARGET;
    } else if (tag >= 5) {
      if (a.length - 1 > 4096) return S.INVALID_PROPOSAL_OPERATIONS;
    }
    return S.OK;
  }
  private execGovernance(ctx: RefCtx, d: Decoded, op: Extract<Op, { kind: 18 | 19 | 20 | 21 }>, index: number, k: number, evs: RefEvent[]): number {
    const user = d.user;
    if (op.kind === 18) {
      if (this.bonded(user) === 0n) return S.NO_VOTING_POWER;
      if (op.title.length === 0 || op.title.length > 128 || op.description.length > 4096) return S.INVALID_PROPOSAL_TEXT;
      const st = this.checkAction(op.action);
      if (st !== S.OK) return st;
      const g = this.govParams();
      const c = this.get(new Uint8Array([0x5a]));
      const id = (c ? rdLe(c, 0, 8) : 0n) + 1n;
      this.put(new Uint8Array([0x5a]), le(id, 8));
      const ss = this.get(new Uint8Array([0x14]));
      const total = ss ? rdLe(ss, 57, 16) : 0n;
      const end = ctx.height + g.period;
      this.put(this.propKey(id), cat(new Uint8Array([1]), user, new Uint8Array([op.action[0]!, 0]), le(ctx.height, 8), le(ctx.timestamp, 8), le(end, 8),
        le(g.quorum, 2), le(g.threshold, 2), le(total, 16), le(0n, 16), le(0n, 16), le(0n, 4), le(0n, 8),
        le(BigInt(op.action.length), 4), op.action, le(BigInt(op.title.length), 4), op.title, le(BigInt(op.description.length), 4), op.description));
      evs.push({ bundleIndex: index, opIndex: k, kind: 45, data: cat(le(id, 8), user, new Uint8Array([op.action[0]!]), le(end, 8)) });
      return S.OK;
    }
    const key = this.propKey(op.id);
    const rec = this.get(key);
    if (!rec) return S.PROPOSAL_NOT_FOUND;
    const p = rec.slice();
    const state = p[34]!, end = rdLe(p, 51, 8);
    const put128 = (o: number, v: bigint) => p.set(le(v, 16), o);
    if (op.kind === 19) {
      if (state !== 0 || ctx.height > end) return S.VOTING_CLOSED;
      const vk = cat(new Uint8Array([0x59]), key.subarray(1), user);
      if (this.get(vk)) return S.ALREADY_VOTED;
      const w = this.bonded(user);
      if (w === 0n) return S.NO_VOTING_POWER;
      this.put(vk, cat(new Uint8Array([op.approve ? 1 : 0]), le(w, 16), le(ctx.height, 8)));
      const at = op.approve ? 79 : 95;
      put128(at, rdLe(p, at, 16) + w);
      p.set(le(rdLe(p, 111, 4) + 1n, 4), 111);
      this.put(key, p);
      evs.push({ bundleIndex: index, opIndex: k, kind: 46, data: cat(le(op.id, 8), user, new Uint8Array([op.approve ? 1 : 0]), le(w, 16)) });
      return S.OK;
    }
    if (op.kind === 21) {
      if (!eq(p.subarray(1, 33), user)) return S.NOT_PROPOSER;
      if (state !== 0 || ctx.height > end) return S.PROPOSAL_NOT_CANCELLABLE;
      p[34] = 2;
      this.put(key, p);
      evs.push({ bundleIndex: index, opIndex: k, kind: 48, data: cat(le(op.id, 8), user) });
      return S.OK;
    }
    if (state !== 0) return S.PROPOSAL_NOT_EXECUTABLE;
    if (ctx.height <= end) return S.VOTING_NOT_ENDED;
    const yes = rdLe(p, 79, 16), no = rdLe(p, 95, 16), votes = yes + no;
    const passed = votes > 0n && votes * 10000n >= rdLe(p, 63, 16) * rdLe(p, 59, 2) && yes * 10000n > votes * rdLe(p, 61, 2);
    if (!passed) return S.PROPOSAL_REJECTED;
    const alen = Number(rdLe(p, 123, 4));
    const a = p.slice(127, 127 + alen);
    let st = this.checkAction(a);
    if (st !== S.OK) return st;
    const tag = a[0]!;
    if (tag === 1) {
      const params = this.get(new Uint8Array([0x15]))!;
      const base = 63 + 8 * Number(rdLe(params, 59, 4));
      let np = params.slice(0, base);
      np = params.length === base + 13 ? params.slice() : a[1]! >= 6 ? cat(np, new Uint8Array([1]), le(500n, 8), le(3340n, 2), le(5000n, 2)) : np;
      const at = [[21, 16], [37, 8], [45, 8], [53, 2], [55, 4], [17, 4], [base + 1, 8], [base + 9, 2], [base + 11, 2]][a[1]!]!;
      const old = rdLe(np, at[0]!, at[1]!);
      const v = rdLe(a, 2, 16);
      np.set(le(v, at[1]!), at[0]!);
      this.put(new Uint8Array([0x15]), np);
      evs.push({ bundleIndex: index, opIndex: k, kind: 49, data: cat(le(op.id, 8), new Uint8Array([a[1]!]), le(old, 16), le(v, 16)) });
    } else if (tag === 2) {
      const to = a.subarray(1, 33), amount = rdLe(a, 33, 16);
      if (!eq(to, TREASURY)) st = this.move(TREASURY, to, NTV, amount); // to itself: nothing is written (as moveBalance)
      if (st !== S.OK) return st;
      evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(TREASURY, to, NTV, le(amount, 16)) });
      this.governanceReach.spent++;
    } else if (tag === 3) {
      const cl = Number(rdLe(a, 1, 4));
      const chain = a.subarray(5, 5 + cl);
      const al = Number(rdLe(a, 5 + cl, 4));
      const contract = a.subarray(9 + cl, 9 + cl + al);
      const level = a[9 + cl + al]!;
      const target = this.blake3(utf8.encode('contract-safety'), chain, new Uint8Array(1), contract);
      const sk = cat(new Uint8Array([0x5b]), target);
      if (level === 0) { if (this.get(sk)) this.put(sk, null); }
      else this.put(sk, cat(new Uint8Array([1, level]), le(op.id, 8), le(ctx.height, 8), le(BigInt(cl), 4), chain, le(BigInt(al), 4), contract));
      evs.push({ bundleIndex: index, opIndex: k, kind: 50, data: cat(le(op.id, 8), target, new Uint8Array([0, level])) });
      this.governanceReach.safety++;
    } else if (tag === 4) {
      const col = a.subarray(1, 33), level = a[33]!;
      const sk = cat(new Uint8Array([0x60]), col);
      if (level === 0) { if (this.get(sk)) this.put(sk, null); }
      else this.put(sk, cat(new Uint8Array([1, level]), le(op.id, 8), le(ctx.height, 8)));
      evs.push({ bundleIndex: index, opIndex: k, kind: 50, data: cat(le(op.id, 8), col, new Uint8Array([1, level])) });
    } else if (tag >= 5) {
      const held = decodeOps(new Reader(a.subarray(1)), 8, true) as Op[];
      const as = { user: GOVERNANCE, nonce: op.id } as Decoded;
      for (let j = 0; j < held.length && st === S.OK; j++) st = this.execOp(ctx, as, held[j]!, index, k, evs);
      if (st !== S.OK) return st;
      this.governanceReach.carried++;
    }
    p[34] = 1;
    p.set(le(ctx.height, 8), 115);
    this.put(key, p);
    evs.push({ bundleIndex: index, opIndex: k, kind: 47, data: cat(le(op.id, 8), user, new Uint8Array([tag])) });
    this.governanceReach.executed++;
    return S.OK;
  }

  // ---- DAOs (docs/dao.md; assembly/domains/dao/ops.ts) ----
  // 0x61 dao → Dao, 0x62 → count, 0x63 dao ‖ id BE → DaoProposal (ProposalRecord's offsets up to the
  // action, execution_delay in created_at's place), 0x64 dao ‖ id BE ‖ voter → approve, weight, height, unlocked.
  readonly daoReach = { created: 0, votes: 0, executed: 0, carried: 0, unlocked: 0 };
  private daoPropKey(dao: Uint8Array, id: bigint) { const k = cat(new Uint8Array([0x63]), dao, new Uint8Array(8)); new DataView(k.buffer).setBigUint64(33, id, false); return k; }
  private tokenSupply(mint: Uint8Array): bigint {
    const t = this.get(cat(new Uint8Array([3]), mint))!;
    const nl = Number(rdLe(t, 1, 4));
    const sl = Number(rdLe(t, 5 + nl, 4));
    return rdLe(t, 10 + nl + sl, 16);
  }
  private execDao(ctx: RefCtx, d: Decoded, op: DaoOp, index: number, k: number, evs: RefEvent[]): number {
    const user = d.user;
    const ev = (dao: Uint8Array, id: bigint, action: number, account: Uint8Array, amount: bigint) =>
      evs.push({ bundleIndex: index, opIndex: k, kind: 52, data: cat(dao, le(id, 8), new Uint8Array([action]), account, le(amount, 16)) });
    if (op.kind === 85) {
      const f = op.fixed, mint = f.subarray(0, 32);
      const quorum = rdLe(f, 32, 2), threshold = rdLe(f, 34, 2), period = rdLe(f, 36, 8), delay = rdLe(f, 44, 8);
      if (op.name.length === 0 || op.name.length > 64 || eq(mint, NTV) || quorum === 0n || quorum > 10000n || threshold < 5000n || threshold > 9999n
        || period === 0n || period > 1_000_000n || delay > 1_000_000n) return S.INVALID_DAO_CONFIG;
      if (!this.get(cat(new Uint8Array([3]), mint))) return S.UNKNOWN_TOKEN;
      const { id, address } = this.nextId(0x62, 'ntv-dao');
      this.put(cat(new Uint8Array([0x61]), address), cat(new Uint8Array([1]), le(id, 8), user, f.subarray(0, 68), le(ctx.height, 8), le(0n, 8), le(BigInt(op.name.length), 4), op.name));
      evs.push({ bundleIndex: index, opIndex: k, kind: 51, data: cat(address, user, mint, le(id, 8)) });
      this.daoReach.created++;
      return S.OK;
    }
    const dk = cat(new Uint8Array([0x61]), op.dao);
    const dr = this.get(dk);
    if (!dr) return S.DAO_NOT_FOUND;
    const mint = dr.slice(41, 73);
    const escrow = this.blake3(utf8.encode('ntv-dao-escrow'), op.dao);
    if (op.kind === 86) {
      if (op.title.length === 0 || op.title.length > 128 || op.description.length > 4096) return S.INVALID_PROPOSAL_TEXT;
      if (this.bal(user, mint) < rdLe(dr, 93, 16)) return S.BELOW_PROPOSAL_THRESHOLD;
      if (op.action[0] === 1 && op.action.length - 1 > 4096) return S.INVALID_PROPOSAL_OPERATIONS;
      const id = rdLe(dr, 117, 8) + 1n;
      const nd = dr.slice();
      nd.set(le(id, 8), 117);
      this.put(dk, nd);
      const end = ctx.height + rdLe(dr, 77, 8);
      this.put(this.daoPropKey(op.dao, id), cat(new Uint8Array([1]), user, new Uint8Array([op.action[0]!, 0]), le(ctx.height, 8), le(end, 8), dr.subarray(85, 93),
        dr.subarray(73, 77), le(this.tokenSupply(mint), 16), le(0n, 16), le(0n, 16), le(0n, 4), le(0n, 8),
        le(BigInt(op.action.length), 4), op.action, le(BigInt(op.title.length), 4), op.title, le(BigInt(op.description.length), 4), op.description));
      ev(op.dao, id, 0, user, 0n);
      return S.OK;
    }
    const key = this.daoPropKey(op.dao, op.id);
    const rec = this.get(key);
    if (!rec) return S.PROPOSAL_NOT_FOUND;
    const p = rec.slice();
    const state = p[34]!, end = rdLe(p, 43, 8);
    const vk = cat(new Uint8Array([0x64]), key.subarray(1), user);
    if (op.kind === 87) {
      if (state !== 0 || ctx.height > end) return S.VOTING_CLOSED;
      if (this.get(vk)) return S.ALREADY_VOTED;
      const w = this.bal(user, mint);
      if (w === 0n) return S.NO_VOTING_POWER;
      const st = this.moveT(user, escrow, mint, w, index, k, evs);
      if (st !== S.OK) return st;
      this.put(vk, cat(new Uint8Array([op.approve ? 1 : 0]), le(w, 16), le(ctx.height, 8), new Uint8Array([0])));
      const at = op.approve ? 79 : 95;
      p.set(le(rdLe(p, at, 16) + w, 16), at);
      p.set(le(rdLe(p, 111, 4) + 1n, 4), 111);
      this.put(key, p);
      ev(op.dao, op.id, op.approve ? 1 : 2, user, w);
      this.daoReach.votes++;
      return S.OK;
    }
    if (op.kind === 89) {
      if (!eq(p.subarray(1, 33), user)) return S.NOT_PROPOSER;
      if (state !== 0 || ctx.height > end) return S.PROPOSAL_NOT_CANCELLABLE;
      p[34] = 2;
      this.put(key, p);
      ev(op.dao, op.id, 4, user, 0n);
      return S.OK;
    }
    if (op.kind === 90) {
      const v = this.get(vk);
      if (!v || v[25] !== 0) return S.NO_LOCKED_VOTE;
      if (state === 0 && ctx.height <= end) return S.VOTE_STILL_LOCKED;
      const w = rdLe(v, 1, 16);
      const st = this.moveT(escrow, user, mint, w, index, k, evs);
      if (st !== S.OK) return st;
      const nv = v.slice();
      nv[25] = 1;
      this.put(vk, nv);
      ev(op.dao, op.id, 5, user, w);
      this.daoReach.unlocked++;
      return S.OK;
    }
    if (state !== 0) return S.PROPOSAL_NOT_EXECUTABLE;
    if (ctx.height <= end) return S.VOTING_NOT_ENDED;
    const yes = rdLe(p, 79, 16), no = rdLe(p, 95, 16), votes = yes + no;
    const passed = votes > 0n && votes * 10000n >= rdLe(p, 63, 16) * rdLe(p, 59, 2) && yes * 10000n > votes * rdLe(p, 61, 2);
    if (!passed) return S.PROPOSAL_REJECTED;
    if (ctx.height - end <= rdLe(p, 51, 8)) return S.EXECUTION_DELAY_PENDING;
    if (p[33] === 1) {
      const alen = Number(rdLe(p, 123, 4));
      const held = decodeOps(new Reader(p.slice(128, 127 + alen)), 8, true) as Op[];
      const as = { user: op.dao, nonce: op.id } as Decoded;
      let st: number = S.OK;
      for (let j = 0; j < held.length && st === S.OK; j++) st = this.execOp(ctx, as, held[j]!, index, k, evs);
      if (st !== S.OK) return st;
      this.daoReach.carried++;
    }
    p[34] = 1;
    p.set(le(ctx.height, 8), 115);
    this.put(key, p);
    ev(op.dao, op.id, 3, user, 0n);
    this.daoReach.executed++;
    return S.OK;
  }

  /** Move with its Transfer event, as assembly/ops/transfer.ts moveBalance (nothing for zero). */
  private moveT(from: Uint8Array, to: Uint8Array, mint: Uint8Array, v: bigint, index: number, k: number, evs: RefEvent[]): number {
    if (v === 0n) return S.OK;
    const fb = this.bal(from, mint);
    if (fb < v) return S.INSUFFICIENT_BALANCE;
    if (!eq(from, to)) {
      const tb = this.bal(to, mint) + v;
      if (tb > U128) return S.AMOUNT_OVERFLOW;
      this.setBal(to, mint, tb);
      this.setBal(from, mint, fb - v);
    }
    evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(from, to, mint, le(v, 16)) });
    return S.OK;
  }
  /** The next id of a one-byte counter key and its escrow address Blake3(tag ‖ id u64 LE). */
  private nextId(prefix: number, tag: string): { id: bigint; address: Uint8Array } {
    const key = new Uint8Array([prefix]);
    const v = this.get(key);
    const id = (v ? rdLe(v, 0, 8) : 0n) + 1n;
    this.put(key, le(id, 8));
    return { id, address: this.blake3(utf8.encode(tag), le(id, 8)) };
  }
  presaleOf(addr: Uint8Array): Rec | undefined {
    const v = this.get(cat(new Uint8Array([0x68]), addr));
    return v ? decodeRec(PRESALE_LAYOUT, v) : undefined;
  }
  stakingPoolOf(addr: Uint8Array): Rec | undefined {
    const v = this.get(cat(new Uint8Array([0x6b]), addr));
    return v ? decodeRec(SPOOL_LAYOUT, v) : undefined;
  }
  stakingPoolRewardAccount(pool: Uint8Array): Uint8Array {
    return this.blake3(utf8.encode('ntv.staking-pool-rewards.v1'), pool);
  }

  /** Presales (docs/presales.md), written from the page with plain bigints. */
  private execPresale(ctx: RefCtx, user: Uint8Array, op: PresaleOp, index: number, k: number, evs: RefEvent[]): number {
    const now = ctx.timestamp;
    if (op.kind === 95) {
      if (eq(op.token, op.pay)) return S.IDENTICAL_TOKENS;
      if (!this.get(cat(new Uint8Array([3]), op.token)) || !this.get(cat(new Uint8Array([3]), op.pay))) return S.UNKNOWN_TOKEN;
      if (op.soft === 0n || op.hard < op.soft || op.min === 0n || op.max < op.min || op.hard < op.min) return S.INVALID_PRESALE_CAPS;
      if (op.end <= op.start || op.end <= now || op.end - now > MAX_LOCK) return S.INVALID_PRESALE_WINDOW;
      if (op.bps === 0n || op.bps > 10000n) return S.INVALID_LIQUIDITY_SHARE;
      if (op.lock < MIN_PRESALE_LOCK || op.lock > MAX_LOCK) return S.INVALID_PRESALE_LOCK;
      if ((op.min * op.rate) / RATE_SCALE === 0n) return S.INVALID_PRESALE_RATE;
      const saleEsc = (op.hard * op.rate) / RATE_SCALE;
      const liqEsc = (((op.hard * op.bps) / 10000n) * op.rate) / RATE_SCALE;
      if (saleEsc > U128 || liqEsc > U128 || saleEsc + liqEsc > U128) return S.INVALID_PRESALE_RATE;
      const lpay = (op.soft * op.bps) / 10000n;
      if (isqrt(lpay * ((lpay * op.rate) / RATE_SCALE)) <= MIN_LIQ) return S.PRESALE_LIQUIDITY_TOO_LOW;
      if (this.get(cat(new Uint8Array([7]), this.poolAddress(op.token, op.pay)))) return S.POOL_EXISTS;
      const { id, address } = this.nextId(0x6a, 'ntv.presale.v1');
      let st = this.moveT(user, address, op.token, saleEsc + liqEsc, index, k, evs);
      if (st === S.OK) st = this.moveT(user, address, NTV, POOL_FEE, index, k, evs);
      if (st !== S.OK) return st;
      const r: Rec = { version: 1n, id, creator: user, token: op.token, pay: op.pay, rate: op.rate, soft: op.soft, hard: op.hard, min: op.min, max: op.max,
        start: op.start, end: op.end, bps: op.bps, lock: op.lock, saleEsc, liqEsc, createdAt: now, createdHeight: ctx.height };
      this.put(cat(new Uint8Array([0x68]), address), encodeRec(PRESALE_LAYOUT, r));
      evs.push({ bundleIndex: index, opIndex: k, kind: 57, data: cat(address, user, op.token, op.pay) });
      return S.OK;
    }
    const addr = op.target;
    if (op.kind === 96 && op.amount === 0n) return S.ZERO_AMOUNT;
    const r = this.presaleOf(addr);
    if (!r) return S.PRESALE_NOT_FOUND;
    const pk = cat(new Uint8Array([0x68]), addr);
    const ck = cat(new Uint8Array([0x69]), addr, user);
    const cv = this.get(ck);
    const c = cv ? decodeRec(CONTRIB_LAYOUT, cv) : undefined;
    const finalized = (big(r, 'flags') & 1n) !== 0n;
    const rate = big(r, 'rate');
    if (op.kind === 96) {
      if (finalized || now < big(r, 'start') || now >= big(r, 'end')) return S.PRESALE_NOT_ACTIVE;
      const raised = big(r, 'raised') + op.amount;
      if (raised > big(r, 'hard')) return S.PRESALE_HARD_CAP_EXCEEDED;
      const total = (c ? big(c, 'amount') : 0n) + op.amount;
      if (total < big(r, 'min') || total > big(r, 'max')) return S.CONTRIBUTION_OUT_OF_RANGE;
      const st = this.moveT(user, addr, bytes(r, 'pay'), op.amount, index, k, evs);
      if (st !== S.OK) return st;
      this.put(ck, encodeRec(CONTRIB_LAYOUT, { amount: total, state: c ? big(c, 'state') : 0n }));
      r.raised = raised;
      if (!c) r.contributors = big(r, 'contributors') + 1n;
      this.put(pk, encodeRec(PRESALE_LAYOUT, r));
      return S.OK;
    }
    if (op.kind === 97) {
      if (finalized) return S.PRESALE_FINALIZED;
      const raised = big(r, 'raised');
      if (now < big(r, 'end') && raised < big(r, 'hard')) return S.PRESALE_NOT_ENDED;
      if (raised < big(r, 'soft')) return S.SOFT_CAP_NOT_MET;
      const lpay = (raised * big(r, 'bps')) / 10000n;
      const ltok = (lpay * rate) / RATE_SCALE;
      const sold = (raised * rate) / RATE_SCALE;
      const creator = bytes(r, 'creator');
      let st = this.createPool(ctx, addr, creator, bytes(r, 'token'), bytes(r, 'pay'), ltok, lpay, big(r, 'lock'), index, k, evs);
      if (st !== S.OK) return st;
      const proceeds = raised - lpay;
      st = this.moveT(addr, creator, bytes(r, 'pay'), proceeds, index, k, evs);
      if (st === S.OK) st = this.moveT(addr, creator, bytes(r, 'token'), big(r, 'saleEsc') + big(r, 'liqEsc') - ltok - sold, index, k, evs);
      if (st !== S.OK) return st;
      Object.assign(r, { flags: big(r, 'flags') | 1n, finalizedAt: now, finalizedHeight: ctx.height, liqPaid: lpay, liqTokens: ltok,
        lpLocked: isqrt(ltok * lpay) - MIN_LIQ, lpLockUntil: now + big(r, 'lock'), sold, proceeds });
      this.put(pk, encodeRec(PRESALE_LAYOUT, r));
      return S.OK;
    }
    if (op.kind === 98) {
      if (finalized) return S.PRESALE_FINALIZED;
      const failed = now >= big(r, 'end') && (big(r, 'raised') < big(r, 'soft') || !!this.get(cat(new Uint8Array([7]), this.poolAddress(bytes(r, 'token'), bytes(r, 'pay')))));
      if (!failed) return S.PRESALE_NOT_FAILED;
      let done = false;
      if (c && big(c, 'state') === 0n) {
        const st = this.moveT(addr, user, bytes(r, 'pay'), big(c, 'amount'), index, k, evs);
        if (st !== S.OK) return st;
        this.put(ck, encodeRec(CONTRIB_LAYOUT, { amount: big(c, 'amount'), state: 2n }));
        done = true;
      }
      if (eq(user, bytes(r, 'creator')) && (big(r, 'flags') & 2n) === 0n) {
        let st = this.moveT(addr, user, bytes(r, 'token'), big(r, 'saleEsc') + big(r, 'liqEsc'), index, k, evs);
        if (st === S.OK) st = this.moveT(addr, user, NTV, POOL_FEE, index, k, evs);
        if (st !== S.OK) return st;
        r.flags = big(r, 'flags') | 2n;
        this.put(pk, encodeRec(PRESALE_LAYOUT, r));
        done = true;
      }
      return done ? S.OK : S.NOTHING_TO_REFUND;
    }
    if (!finalized) return S.PRESALE_NOT_FINALIZED;
    if (!c || big(c, 'state') !== 0n) return S.PRESALE_NOTHING_TO_CLAIM;
    const st = this.moveT(addr, user, bytes(r, 'token'), (big(c, 'amount') * rate) / RATE_SCALE, index, k, evs);
    if (st !== S.OK) return st;
    this.put(ck, encodeRec(CONTRIB_LAYOUT, { amount: big(c, 'amount'), state: 1n }));
    return S.OK;
  }

  /** Token staking pools (docs/staking-pools.md), written from the page with plain bigints. */
  private execStakingPool(ctx: RefCtx, user: Uint8Array, op: StakingPoolOp, index: number, k: number, evs: RefEvent[]): number {
    if (op.kind === 100) {
      if (!this.get(cat(new Uint8Array([3]), op.stake)) || !this.get(cat(new Uint8Array([3]), op.reward))) return S.UNKNOWN_TOKEN;
      if (op.rate === 0n || op.lock > MAX_LOCK || (op.cap !== 0n && op.perUser > op.cap)) return S.INVALID_STAKING_POOL;
      const { id, address } = this.nextId(0x6d, 'ntv.staking-pool.v1');
      const r: Rec = { version: 1n, id, creator: user, stake: op.stake, reward: op.reward, rate: op.rate, lock: op.lock, cap: op.cap, perUser: op.perUser,
        last: ctx.height, createdAt: ctx.timestamp, createdHeight: ctx.height };
      this.put(cat(new Uint8Array([0x6b]), address), encodeRec(SPOOL_LAYOUT, r));
      evs.push({ bundleIndex: index, opIndex: k, kind: 58, data: cat(address, user, op.stake, op.reward) });
      return S.OK;
    }
    const pool = op.target;
    if ((op.kind === 101 || op.kind === 102 || op.kind === 104) && op.amount === 0n) return S.ZERO_AMOUNT;
    const r = this.stakingPoolOf(pool);
    if (!r) return S.STAKING_POOL_NOT_FOUND;
    const rewards = this.stakingPoolRewardAccount(pool);
    const pk = cat(new Uint8Array([0x6b]), pool);
    const sk = cat(new Uint8Array([0x6c]), pool, user);
    // accrue: min(rate × blocks, reward balance − allocated), per share over the total staked
    const accrue = () => {
      const last = big(r, 'last');
      if (ctx.height <= last) return;
      const total = big(r, 'total');
      if (total === 0n) { r.last = ctx.height; return; }
      let want = big(r, 'rate') * (ctx.height - last);
      if (want > U128) want = U128;
      const held = this.bal(rewards, bytes(r, 'reward'));
      const avail = held >= big(r, 'allocated') ? held - big(r, 'allocated') : 0n;
      const reward = want < avail ? want : avail;
      if (reward === 0n) { r.last = ctx.height; return; }
      const inc = (reward * ACC_SCALE) / total;
      if (inc === 0n) return;
      if (inc > U128 || big(r, 'acc') + inc > U128) { r.last = ctx.height; return; }
      r.acc = big(r, 'acc') + inc;
      r.allocated = big(r, 'allocated') + reward;
      r.last = ctx.height;
    };
    const settle = (): Rec => {
      const v = this.get(sk);
      const p = v ? decodeRec(PSTAKE_LAYOUT, v) : { amount: 0n, snap: 0n, pending: 0n, unlockAt: 0n };
      p.pending = big(p, 'pending') + (big(p, 'amount') * (big(r, 'acc') - big(p, 'snap'))) / ACC_SCALE;
      p.snap = big(r, 'acc');
      return p;
    };
    const storeP = (p: Rec) => {
      if (big(p, 'amount') === 0n && big(p, 'pending') === 0n) { if (this.get(sk)) this.put(sk, null); } else this.put(sk, encodeRec(PSTAKE_LAYOUT, p));
    };
    if (op.kind === 101) {
      const total = big(r, 'total') + op.amount;
      if (total > U128 || (big(r, 'cap') !== 0n && total > big(r, 'cap'))) return S.POOL_CAPACITY_EXCEEDED;
      accrue();
      const p = settle();
      const old = big(p, 'amount');
      if (big(r, 'perUser') !== 0n && old + op.amount > big(r, 'perUser')) return S.POOL_USER_CAP_EXCEEDED;
      p.amount = old + op.amount;
      const st = this.moveT(user, pool, bytes(r, 'stake'), op.amount, index, k, evs);
      if (st !== S.OK) return st;
      p.unlockAt = ctx.timestamp + big(r, 'lock');
      if (old === 0n) r.stakers = big(r, 'stakers') + 1n;
      r.total = total;
      storeP(p);
      this.put(pk, encodeRec(SPOOL_LAYOUT, r));
      return S.OK;
    }
    if (op.kind === 102) {
      accrue();
      const p = settle();
      if (big(p, 'amount') < op.amount) return S.INSUFFICIENT_POOL_STAKE;
      if (ctx.timestamp < big(p, 'unlockAt')) return S.POOL_STAKE_LOCKED;
      const st = this.moveT(pool, user, bytes(r, 'stake'), op.amount, index, k, evs);
      if (st !== S.OK) return st;
      p.amount = big(p, 'amount') - op.amount;
      r.total = big(r, 'total') - op.amount;
      if (p.amount === 0n) r.stakers = big(r, 'stakers') - 1n;
      storeP(p);
      this.put(pk, encodeRec(SPOOL_LAYOUT, r));
      return S.OK;
    }
    if (op.kind === 103) {
      accrue();
      const p = settle();
      const pending = big(p, 'pending');
      if (pending === 0n) return S.NO_POOL_REWARDS;
      const st = this.moveT(rewards, user, bytes(r, 'reward'), pending, index, k, evs);
      if (st !== S.OK) return st;
      r.allocated = big(r, 'allocated') - pending;
      r.paid = big(r, 'paid') + pending;
      p.pending = 0n;
      storeP(p);
      this.put(pk, encodeRec(SPOOL_LAYOUT, r));
      return S.OK;
    }
    accrue();
    const st = this.moveT(user, rewards, bytes(r, 'reward'), op.amount, index, k, evs);
    if (st !== S.OK) return st;
    this.put(pk, encodeRec(SPOOL_LAYOUT, r));
    return S.OK;
  }

  /** Move between balances: INSUFFICIENT_BALANCE / AMOUNT_OVERFLOW (as assembly/domains/dex/ops.ts move). */
  private move(from: Uint8Array, to: Uint8Array, mint: Uint8Array, v: bigint): number {
    let g = guard(this.host, mint, from); // the STD-8 rules of debit, then of credit (assembly/ledger.ts)
    if (g) return g;
    const fb = this.bal(from, mint);
    if (fb < v) return S.INSUFFICIENT_BALANCE;
    this.setBal(from, mint, fb - v);
    g = guard(this.host, mint, to);
    if (g) return g;
    const tb = this.bal(to, mint) + v;
    if (tb > U128) return S.AMOUNT_OVERFLOW;
    this.setBal(to, mint, tb);
    return S.OK;
  }
  private lpKey(pool: Uint8Array, o: Uint8Array) { return cat(new Uint8Array([8]), pool, o); }
  private lpBal(pool: Uint8Array, o: Uint8Array) { const v = this.get(this.lpKey(pool, o)); return v ? rdLe(v, 0, 16) : 0n; }
  private setLp(pool: Uint8Array, o: Uint8Array, v: bigint) {
    const key = this.lpKey(pool, o);
    if (v === 0n && !this.get(key)) return;
    this.put(key, v === 0n ? null : le(v, 16));
  }
  /** Pool address = Blake3("ntv.amm-pool.v1" ‖ token0 ‖ token1) (docs/dex.md). */
  poolAddress(a: Uint8Array, b: Uint8Array): Uint8Array {
    const [t0, t1] = cmp32(a, b) <= 0 ? [a, b] : [b, a];
    return this.blake3(utf8.encode('ntv.amm-pool.v1'), t0, t1);
  }

  /**
   * CreatePool's rules with the funds from `payer` and the pool, LP and lock given to `user`
   * (CreatePool: both the sender; a presale's finalization: its escrow for its creator).
   */
  private createPool(ctx: RefCtx, payer: Uint8Array, user: Uint8Array, a: Uint8Array, b: Uint8Array, x: bigint, y: bigint, lock: bigint,
    index: number, k: number, evs: RefEvent[]): number {
    const tok = (m: Uint8Array) => this.get(cat(new Uint8Array([3]), m));
    const op = { a, b, x, y, lock };
    if (eq(op.a, op.b)) return S.IDENTICAL_TOKENS;
    const swapped = cmp32(op.a, op.b) > 0;
    const [t0, t1] = swapped ? [op.b, op.a] : [op.a, op.b];
    const pool = this.poolAddress(op.a, op.b);
    const pk = cat(new Uint8Array([7]), pool);
    if (op.x === 0n || op.y === 0n) return S.ZERO_AMOUNT;
    if (!tok(op.a) || !tok(op.b)) return S.UNKNOWN_TOKEN;
    if (op.lock > MAX_LOCK) return S.INVALID_LOCK_DURATION;
    if (this.get(pk)) return S.POOL_EXISTS;
    const [a0, a1] = swapped ? [op.y, op.x] : [op.x, op.y];
    const lp = isqrt(a0 * a1);
    if (lp <= MIN_LIQ) return S.INSUFFICIENT_LIQUIDITY;
    let st = this.move(payer, TREASURY, NTV, POOL_FEE);
    if (st === S.OK) st = this.move(payer, pool, t0, a0);
    if (st === S.OK) st = this.move(payer, pool, t1, a1);
    if (st !== S.OK) return st;
    const mine = lp - MIN_LIQ;
    const nl = this.lpBal(pool, user) + mine;
    if (nl > U128) return S.AMOUNT_OVERFLOW;
    this.setLp(pool, user, nl);
    const p: Pool = { t0, t1, r0: a0, r1: a1, s: lp, creator: user, createdAt: ctx.timestamp, height: ctx.height,
      lockUntil: ctx.timestamp + op.lock, locked: op.lock > 0n ? mine : 0n, c0: 0n, c1: 0n, last: ctx.timestamp };
    this.put(pk, encodePool(p));
    evs.push({ bundleIndex: index, opIndex: k, kind: 4, data: cat(pool, t0, t1, user, le(a0, 16), le(a1, 16), le(lp, 16), le(ctx.timestamp + op.lock, 8), le(POOL_FEE, 16)) });
    return S.OK;
  }

  /** The DEX and metadata operations, written from docs/dex.md with plain bigint arithmetic. */
  private execDex(ctx: RefCtx, user: Uint8Array, op: Extract<Op, { kind: 28 | 29 | 30 | 31 | 34 | 35 }>, index: number, k: number, evs: RefEvent[]): number {
    const tok = (m: Uint8Array) => this.get(cat(new Uint8Array([3]), m));
    if (op.kind === 34 || op.kind === 35) {
      const tk = cat(new Uint8Array([3]), op.mint);
      const rec = this.get(tk);
      if (!rec) return S.UNKNOWN_TOKEN;
      const nl = Number(rdLe(rec, 1, 4));
      const sl = Number(rdLe(rec, 5 + nl, 4));
      const co = 5 + nl + 4 + sl + 1 + 32;
      if (!eq(rec.subarray(co, co + 32), user)) return S.NOT_TOKEN_CREATOR;
      const fo = co + 32 + 32 + 8 + 8 + 1;
      if ((rec[fo]! & 1) === 0) return S.METADATA_LOCKED;
      if (op.kind === 35) {
        const nr = rec.slice();
        nr[fo] = nr[fo]! & ~1;
        this.put(tk, nr);
        evs.push({ bundleIndex: index, opIndex: k, kind: 9, data: cat(op.mint, user) });
        return S.OK;
      }
      const mk = cat(new Uint8Array([9]), op.mint);
      const old = this.get(mk);
      const cur: Uint8Array[] = [];
      let o = 1;
      for (let f = 0; f < 8; f++) {
        if (old) { const n = Number(rdLe(old, o, 4)); cur.push(old.slice(o + 4, o + 4 + n)); o += 4 + n; } else cur.push(new Uint8Array(0));
      }
      let mask = 0;
      for (let f = 0; f < 8; f++) {
        const v = op.fields[f];
        if (v) {
          if (v.length > META_MAX[f]!) return S.INVALID_METADATA;
          cur[f] = v;
          mask |= 1 << f;
        }
      }
      this.put(mk, cat(new Uint8Array([1]), ...cur.flatMap((v) => [le(BigInt(v.length), 4), v])));
      evs.push({ bundleIndex: index, opIndex: k, kind: 8, data: cat(op.mint, user, new Uint8Array([mask])) });
      return S.OK;
    }
    if (eq(op.a, op.b)) return S.IDENTICAL_TOKENS;
    const swapped = cmp32(op.a, op.b) > 0;
    const [t0, t1] = swapped ? [op.b, op.a] : [op.a, op.b];
    const pool = this.poolAddress(op.a, op.b);
    const pk = cat(new Uint8Array([7]), pool);
    if (op.kind === 28) return this.createPool(ctx, user, user, op.a, op.b, op.x, op.y, op.lock, index, k, evs);
    if (op.kind === 29) {
      if (op.x === 0n || op.y === 0n) return S.ZERO_AMOUNT;
      if (!tok(op.a) || !tok(op.b)) return S.UNKNOWN_TOKEN;
      const v = this.get(pk);
      if (!v) return S.POOL_NOT_FOUND;
      const p = decodePool(v);
      const [d0, d1] = swapped ? [op.y, op.x] : [op.x, op.y];
      const b1 = (d0 * p.r1) / p.r0;
      let u0: bigint, u1: bigint;
      if (b1 <= U128 && b1 <= d1) [u0, u1] = [d0, b1];
      else [u0, u1] = [(d1 * p.r0) / p.r1, d1];
      const m0 = (u0 * p.s) / p.r0, m1 = (u1 * p.s) / p.r1;
      if (m0 > U128 || m1 > U128) return S.AMOUNT_OVERFLOW;
      const minted = m0 < m1 ? m0 : m1;
      if (minted === 0n) return S.INSUFFICIENT_LIQUIDITY_MINTED;
      if (minted < op.min) return S.SLIPPAGE_EXCEEDED;
      let st = this.move(user, pool, t0, u0);
      if (st === S.OK) st = this.move(user, pool, t1, u1);
      if (st !== S.OK) return st;
      twap(p, ctx.timestamp);
      p.r0 += u0; p.r1 += u1; p.s += minted;
      if (p.r0 > U128 || p.r1 > U128 || p.s > U128) return S.AMOUNT_OVERFLOW;
      const nl = this.lpBal(pool, user) + minted;
      if (nl > U128) return S.AMOUNT_OVERFLOW;
      this.setLp(pool, user, nl);
      this.put(pk, encodePool(p));
      evs.push({ bundleIndex: index, opIndex: k, kind: 5, data: cat(pool, user, le(u0, 16), le(u1, 16), le(minted, 16)) });
      return S.OK;
    }
    if (op.kind === 30) {
      if (op.lp === 0n) return S.ZERO_AMOUNT;
      if (!tok(op.a) || !tok(op.b)) return S.UNKNOWN_TOKEN;
      const v = this.get(pk);
      if (!v) return S.POOL_NOT_FOUND;
      const p = decodePool(v);
      const held = this.lpBal(pool, user);
      if (held < op.lp) return S.INSUFFICIENT_LP_BALANCE;
      const rest = held - op.lp;
      if (eq(user, p.creator) && ctx.timestamp < p.lockUntil && rest < p.locked) return S.LP_LOCKED;
      const o0 = (op.lp * p.r0) / p.s, o1 = (op.lp * p.r1) / p.s;
      if (o0 === 0n || o1 === 0n) return S.INSUFFICIENT_OUTPUT_AMOUNT;
      const [oa, ob] = swapped ? [o1, o0] : [o0, o1];
      if (oa < op.minA || ob < op.minB) return S.SLIPPAGE_EXCEEDED;
      twap(p, ctx.timestamp);
      p.r0 -= o0; p.r1 -= o1; p.s -= op.lp;
      this.setLp(pool, user, rest);
      let st = this.move(pool, user, t0, o0);
      if (st === S.OK) st = this.move(pool, user, t1, o1);
      if (st !== S.OK) return st;
      this.put(pk, encodePool(p));
      evs.push({ bundleIndex: index, opIndex: k, kind: 6, data: cat(pool, user, le(o0, 16), le(o1, 16), le(op.lp, 16)) });
      return S.OK;
    }
    // Swap, exact in.
    if (op.x === 0n) return S.ZERO_AMOUNT;
    if (!tok(op.a) || !tok(op.b)) return S.UNKNOWN_TOKEN;
    const v = this.get(pk);
    if (!v) return S.POOL_NOT_FOUND;
    const p = decodePool(v);
    if (this.bal(user, op.a) < op.x) return S.INSUFFICIENT_BALANCE;
    const zeroForOne = !swapped;
    const [rin, rout] = zeroForOne ? [p.r0, p.r1] : [p.r1, p.r0];
    if (rin + op.x > U128) return S.AMOUNT_OVERFLOW;
    const a = op.x * 997n;
    const out = (rout * a) / (rin * 1000n + a);
    if (out === 0n) return S.INSUFFICIENT_OUTPUT_AMOUNT;
    if (out < op.min) return S.SLIPPAGE_EXCEEDED;
    twap(p, ctx.timestamp);
    let st = this.move(user, pool, op.a, op.x);
    if (st === S.OK) st = this.move(pool, user, op.b, out);
    if (st !== S.OK) return st;
    if (zeroForOne) { p.r0 += op.x; p.r1 -= out; } else { p.r1 += op.x; p.r0 -= out; }
    this.put(pk, encodePool(p));
    evs.push({ bundleIndex: index, opIndex: k, kind: 7, data: cat(pool, user, op.a, le(op.x, 16), le(out, 16), le(p.r0, 16), le(p.r1, 16)) });
    return S.OK;
  }

  revertBlock() {
    this.block = new Map();
  }

  stateRoot() {
    return this.root;
  }

  private node(i: number) {
    return this.nodes.get(i) ?? new Uint8Array(32);
  }

  /** Commit: the same bucketed Merkle tree as the core (docs/core-abi.md "State root"). */
  commitBlock(): { stateRoot: Uint8Array; writes: Array<{ key: Uint8Array; value: Uint8Array | null }> } {
    const keys = [...this.block.keys()].sort((a, b) => Buffer.compare(unhex(a), unhex(b)));
    const writes: Array<{ key: Uint8Array; value: Uint8Array | null }> = [];
    const dirtyBuckets = new Set<number>();
    // per dirty bucket, the slices (path[2] >> 4) its changed entries fall in (docs/state-root.md "Bucket slices")
    const dirtySlices = new Map<number, number>();
    for (const k of keys) {
      const key = unhex(k);
      const v = this.block.get(k)!;
      if (v) this.state.set(k, v);
      else this.state.delete(k);
      writes.push({ key, value: v });
      const path = this.blake3(key);
      const b = (path[0]! << 8) | path[1]!;
      const list = this.buckets.get(b) ?? [];
      const i = list.findIndex((e) => Buffer.compare(e.path, path) >= 0);
      const at = i < 0 ? list.length : i;
      const found = at < list.length && eq(list[at]!.path, path);
      if (v) {
        const leaf = this.keyed(this.hLeaf, path, v);
        if (found) list[at]!.leaf = leaf;
        else list.splice(at, 0, { path, leaf });
      } else if (found) list.splice(at, 1);
      if (v || found) dirtySlices.set(b, (dirtySlices.get(b) ?? 0) | (1 << (path[2]! >> 4)));
      this.buckets.set(b, list);
      dirtyBuckets.add(b);
    }
    this.block = new Map();
    let level = new Set<number>();
    for (const b of [...dirtyBuckets].sort((x, y) => x - y)) {
      const list = this.buckets.get(b)!;
      const h = list.length === 0 ? new Uint8Array(32) : this.keyed(this.hBucket, ...list.flatMap((e) => [e.path, e.leaf]));
      this.nodes.set(65536 + b, h);
      level.add(65536 + b);
    }
    const dirtyNodes = new Set(level);
    while (level.size > 0 && !level.has(1)) {
      const next = new Set<number>();
      for (const i of level) next.add(i >> 1);
      for (const p of next) {
        const l = this.node(2 * p), r = this.node(2 * p + 1);
        const zero = l.every((x) => x === 0) && r.every((x) => x === 0);
        this.nodes.set(p, zero ? new Uint8Array(32) : this.keyed(this.hNode, l, r));
        dirtyNodes.add(p);
      }
      level = next;
    }
    this.root = this.node(1);
    // a bucket of at most 16 entries as one 0xF0 record; a larger one as 0xF3 slices (below)
    for (const b of [...dirtyBuckets].sort((x, y) => x - y)) {
      const list = this.buckets.get(b)!;
      if (list.length > BUCKET_SLICE_ABOVE && this.sliced.has(b)) continue;
      const whole = list.length > 0 && list.length <= BUCKET_SLICE_ABOVE;
      writes.push({ key: new Uint8Array([0xf0, b >> 8, b & 0xff]), value: whole ? cat(...list.flatMap((e) => [e.path, e.leaf])) : null });
    }
    for (const i of [...dirtyNodes].sort((x, y) => x - y)) {
      if (i >= 4096) continue; // levels 12-16 are recomputed from the bucket records, not stored
      const h = this.node(i);
      const key = new Uint8Array(5);
      key[0] = 0xf1;
      new DataView(key.buffer).setUint32(1, i, false);
      writes.push({ key, value: h.every((x) => x === 0) ? null : h });
    }
    // group records: the 16 bucket hashes under each dirty level-12 node (0xF2 ‖ u16be group)
    for (const g of [...new Set([...dirtyBuckets].map((b) => b >> 4))].sort((x, y) => x - y)) {
      const leaves = Array.from({ length: 16 }, (_, k) => this.node(65536 + 16 * g + k));
      writes.push({ key: new Uint8Array([0xf2, g >> 8, g & 0xff]), value: leaves.every((h) => h.every((x) => x === 0)) ? null : cat(...leaves) });
    }
    // slices: the changed ones of a bucket stored in slices, every non-empty one of a bucket sliced
    // now, every one deleted of a bucket stored whole again
    for (const b of [...dirtyBuckets].sort((x, y) => x - y)) {
      const list = this.buckets.get(b)!;
      const was = this.sliced.has(b);
      const sliceKey = (s: number) => new Uint8Array([0xf3, b >> 8, b & 0xff, s]);
      if (list.length <= BUCKET_SLICE_ABOVE) {
        if (!was) continue;
        for (let s = 0; s < 16; s++) writes.push({ key: sliceKey(s), value: null });
        this.sliced.delete(b);
        continue;
      }
      const mask = dirtySlices.get(b) ?? 0;
      for (let s = 0; s < 16; s++) {
        const entries = list.filter((e) => e.path[2]! >> 4 === s);
        if (was ? (mask & (1 << s)) === 0 : entries.length === 0) continue;
        writes.push({ key: sliceKey(s), value: entries.length ? cat(...entries.flatMap((e) => [e.path, e.leaf])) : null });
      }
      this.sliced.add(b);
    }
    return { stateRoot: this.root, writes };
  }
}
