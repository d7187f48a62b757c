// The generated ABI files (docs/core-abi.md "How the ABI is generated") are committed so tsc works
// without a build; this fails when one differs from what scripts/gen-abi.mjs would write now from
// the table in abi/, i.e. when someone edited the table without regenerating, or edited a
// generated file by hand. Fix: `node scripts/gen-abi.mjs` (or `npm run build:core`).
//
// It also fails when a hand-written twin of the table comes back (issue 18: "no host file declares
// a discriminant, key prefix or record layout by hand"): outside the generated files, no `OP_*`,
// `EV_*` or `P_*` constant is defined, no prefix object or key byte is a hex literal, and no table
// maps operation, event or prefix names to their numbers. Gas likewise (docs/core-abi.md "Rules"):
// no `GAS_*` constant is defined by hand, the core switches over no literal `case <number>:`, and
// no host file writes a gas figure (a GAS_* value, GAS_BASE plus one, or the 100,000 per-bundle
// ceiling) as a bigint literal or as a number on a line about gas, apart from GAS_ALLOWED below.
// Fix: add a row to abi/ and import the generated name.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, root, sources } from './source-files.js';

interface Row { name: string; code: number }

describe('generated ABI files', () => {
  it('match the table in abi/', async () => {
    const { generate } = (await import(join(root, 'scripts/gen-abi.mjs'))) as { generate(): Record<string, string> };
    const files = generate();
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(join(root, path), 'utf8'), `${path} is stale: run node scripts/gen-abi.mjs`).toBe(text);
    }
  });

  it('the domain registries match the domain folders (scripts/gen-domains.mjs)', async () => {
    const { generate } = (await import(join(root, 'scripts/gen-domains.mjs'))) as { generate(): Record<string, string> };
    for (const [path, text] of Object.entries(generate())) {
      expect(readFileSync(join(root, path), 'utf8'), `${path} is stale: run node scripts/gen-domains.mjs`).toBe(text);
    }
  });
});

// assembly/status.ts is the statuses' own source (docs/core-abi.md "Statuses"): OP_NOT_ENABLED there is a status.
const OWN_SOURCE = new Set(['assembly/status.ts']);

/**
 * Gas-like numbers on the host that are not the core's gas, each with why: a file → literals map.
 * eth.ts's intrinsicGas is the Yellow Paper's G_transaction (21,000 + calldata), the floor wallets
 * check before signing, which the chain does not charge (docs/eth.md).
 */
const GAS_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'src/rpc/methods/eth.ts': ['21_000n'],
};
/**
 * Files of recorded data, not rules: the OpenRPC examples are answers a running node gave (their
 * receipts' gas_used included), checked against the method schemas by test/unit/rpc-openrpc.test.ts.
 */
const RECORDED = (f: string) => f.startsWith('src/rpc/examples/');

/** Values a hand-written gas figure would have: each figure, GAS_BASE plus a per-operation one, the ceiling. */
async function gasValues(): Promise<Set<number>> {
  const { gasFigures, operations } = (await import(join(root, 'abi/operations.mjs'))) as {
    gasFigures: Record<string, { value: number }>;
    operations: { gas?: Record<string, string> }[];
  };
  const { constants } = (await import(join(root, 'abi/constants.mjs'))) as { constants: { name: string; value: number }[] };
  const named = (n: string) => constants.find((c) => c.name === n)!.value;
  const base = named('GAS_BASE');
  const perUnit = new Set(operations.flatMap((o) => Object.entries(o.gas ?? {}).filter(([k]) => k !== 'base').map(([, v]) => v)));
  const values = new Set([base, named('BUNDLE_GAS_CEILING')]);
  for (const [name, g] of Object.entries(gasFigures)) {
    if (g.value < 1000) continue; // 3 per byte: too common a number to scan for
    values.add(g.value);
    if (!perUnit.has(name)) values.add(base + g.value);
  }
  return values;
}

/** Gas figures written by hand in one host file: bigint literals anywhere, numbers on a line about gas. */
function gasTwins(text: string, values: Set<number>, allowed: readonly string[] = []): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''");
  for (const line of code.split('\n')) {
    for (const m of line.matchAll(/(?<![\w.])(\d[\d_]*)(n?)\b/g)) {
      if (!values.has(Number(m[1]!.replace(/_/g, ''))) || allowed.includes(m[0])) continue;
      if (m[2] === 'n' || /gas/i.test(line)) found.push(`gas figure written by hand: ${m[0]} in \`${line.trim().slice(0, 80)}\``);
    }
  }
  return found;
}

/** Hand-written twins of the ABI in one file's text, each as "what: the matched text". */
function abiTwins(text: string, table: { operations: Row[]; events: Row[]; prefixes: Row[]; constants?: ReadonlySet<string>; bytes32?: ReadonlySet<string> }, core = false): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const m of code.matchAll(/\b(?:const|let)\s+((?:OP|EV|P|GAS)_[A-Z0-9_]+)\s*[:=]/g)) found.push(`constant definition: ${m[1]}`);
  // A named number of abi/constants.mjs, or a token kind, defined again by hand (issue 44 item 2:
  // KIND_STD8 = 2 stood in three core files).
  // The 32-byte accounts (host: 'bytes32') are generated for the host only: the core holds them as
  // memory data it builds from the table's value (assembly/context.ts), so only `core` may define them.
  for (const m of code.matchAll(/\b(?:const|let)\s+([A-Z][A-Z0-9_]*)\s*[:=]/g)) {
    const name = m[1]!;
    const twin = table.constants?.has(name) || table.constants?.has(`TOKEN_${name}`) || table.constants?.has(`COLLECTION_${name}`);
    if (twin && !(core && table.bytes32?.has(name))) found.push(`constant definition: ${name}`);
  }
  for (const m of code.matchAll(/\bcase\s+\d+\s*:/g)) found.push(`switch over a literal number: ${m[0]}`);
  for (const m of code.matchAll(/\b\w*(?:Prefix|PREFIX)\w*\s*=\s*\{[^}]*?\b0x[0-9a-fA-F]+/g)) found.push(`prefix object with a hex literal: ${m[0].slice(0, 60)}`);
  for (const m of code.matchAll(/\[0\]\s*=\s*0x[0-9a-fA-F]+|Uint8Array\.of\(\s*0x[0-9a-fA-F]+|store<u8>\(\s*KEY\s*,\s*0x[0-9a-fA-F]+/g)) found.push(`key byte written as a hex literal: ${m[0]}`);
  for (const [what, rows] of [['operation', table.operations], ['event', table.events], ['prefix', table.prefixes]] as const) {
    const hits = rows.filter((r) => new RegExp(`\\b${r.name}\\s*:\\s*(?:${r.code}|0x0*${r.code.toString(16)})\\b`, 'i').test(code));
    if (hits.length >= 3) found.push(`${what} table: ${hits.map((r) => `${r.name}: ${r.code}`).join(', ')}`);
  }
  return found;
}

describe('no hand-written twin of the ABI', () => {
  it('assembly/ and src/ define no OP_/EV_/P_ constant, hex prefix or name → number table of their own', async () => {
    const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };
    const { events } = (await import(join(root, 'abi/events.mjs'))) as { events: Row[] };
    const { prefixes } = (await import(join(root, 'abi/state.mjs'))) as { prefixes: Row[] };
    const { constants } = (await import(join(root, 'abi/constants.mjs'))) as { constants: Array<{ name: string; host?: string }> };
    const table = { operations, events, prefixes, constants: new Set(constants.map((c) => c.name)), bytes32: new Set(constants.filter((c) => c.host === 'bytes32').map((c) => c.name)) };
    const files = [...sources('assembly'), ...sources('src')].filter((f) => !GENERATED.has(f) && !OWN_SOURCE.has(f));
    expect(files.length).toBeGreaterThan(100);
    const twins = files.flatMap((f) => abiTwins(readFileSync(join(root, f), 'utf8'), table, f.startsWith('assembly/')).map((t) => `${relative(root, join(root, f))}: ${t}`));
    expect(twins).toEqual([]);
  });

  it('no host file writes a gas figure of its own', async () => {
    const values = await gasValues();
    const files = sources('src').filter((f) => !GENERATED.has(f) && !RECORDED(f));
    const twins = files.flatMap((f) => gasTwins(readFileSync(join(root, f), 'utf8'), values, GAS_ALLOWED[f]).map((t) => `${f}: ${t}`));
    expect(twins).toEqual([]);
    // Each allowance is still needed (a stale one would hide a real twin).
    for (const [f, literals] of Object.entries(GAS_ALLOWED)) {
      for (const literal of literals) expect(gasTwins(readFileSync(join(root, f), 'utf8'), values).some((t) => t.includes(literal)), `${f}: ${literal}`).toBe(true);
    }
  });

  it('the scan recognises each kind of twin', async () => {
    const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };
    const { events } = (await import(join(root, 'abi/events.mjs'))) as { events: Row[] };
    const { prefixes } = (await import(join(root, 'abi/state.mjs'))) as { prefixes: Row[] };
    const table = { operations, events, prefixes };
    expect(abiTwins('// @inline export const OP_CREATE_SCHEDULE: u32 = 49;\nexport const OP_CREATE_SCHEDULE: u32 = 49;', table)).toEqual(['constant definition: OP_CREATE_SCHEDULE']);
    expect(abiTwins('@inline export const EV_SCHEDULE_RUN: u8 = 16;', table)).toHaveLength(1);
    expect(abiTwins('@inline export const P_SCHEDULE: u8 = 0x33;', table)).toHaveLength(1);
    expect(abiTwins("export const SchedulePrefix = { SCHEDULE: 0x33, SLOT: 0x34 } as const;", table)).toHaveLength(1);
    expect(abiTwins('const key = new Uint8Array(33);\nkey[0] = 0x33;', table)).toHaveLength(1);
    expect(abiTwins('store<u8>(KEY, 0x36);', table)).toHaveLength(1);
    expect(abiTwins('export const OpCode = { Transfer: 0, CreateSchedule: 49, CancelSchedule: 50 } as const;', table)[0]).toMatch(/^operation table/);
    expect(abiTwins('export const EventKind = { ScheduleRun: 16, ScheduleCreated: 17, ScheduleCancelled: 18 } as const;', table)[0]).toMatch(/^event table/);
    expect(abiTwins('export const GAS_SWAP: u64 = 40000;', table)).toEqual(['constant definition: GAS_SWAP']);
    expect(abiTwins('@inline const KIND_STD8: u8 = 2;', { ...table, constants: new Set(['TOKEN_KIND_STD8']) })).toEqual(['constant definition: KIND_STD8']);
    expect(abiTwins('const MAX_OPERATIONS = 64;', { ...table, constants: new Set(['MAX_OPERATIONS']) })).toEqual(['constant definition: MAX_OPERATIONS']);
    expect(abiTwins('switch (kind) {\n  case 32: return GAS_REGISTER_NAME;\n  case OP_SWAP: return GAS_SWAP;\n}', table)).toEqual(['switch over a literal number: case 32:']);
    // main's old host twins of the gas figures, each caught; gas read from the table, or a number that is not gas, is not.
    const values = await gasValues();
    expect(gasTwins("if (action.kind === 'native') return 21_000n;", values)).toHaveLength(1);
    expect(gasTwins('return 20_000n + 5_000n * BigInt(action.entries.length);', values)).toHaveLength(2);
    expect(gasTwins('return 45_000n + 3n * BigInt(w.finish().length);', values)).toHaveLength(1);
    expect(gasTwins('const MIN_GAS_LIMIT = 5_000n;', values)).toHaveLength(1);
    expect(gasTwins('let lo = 5000n; // MAX_GAS_TOO_LOW below this\nconst maxGas = 25000;', values)).toHaveLength(2);
    expect(gasTwins('export const DEFAULT_MAX_GAS = 100_000n;', values)).toHaveLength(1);
    expect(gasTwins("return GAS_BASE + OPERATION_GAS.Transfer.base;\nconst bps = x / 10_000n;\nconst timeoutMs = 30_000;\nconst s = 'gas 21000';", values)).toEqual([]);
    // Generated names used as values are not twins.
    expect(abiTwins("export const NamePrefix = { NAME: Prefix.NAME, REVERSE: Prefix.NAME_REVERSE } as const;\nk[0] = Prefix.SCHEDULE;", table)).toEqual([]);
  });
});
