/**
 * JSON-RPC fuzz test (hardening issue): a seeded PRNG drives a few thousand calls over every method
 * of rpc.discover against one running node, each built from a plausible call with its params
 * mutated by type (wrong type, huge and negative numbers, overlong strings, lone surrogates, nulls,
 * extra and missing params, by-name objects), plus malformed JSON, bad envelopes and batches.
 * Every reply must be a valid JSON-RPC envelope, never -32603 and never an HTTP 5xx, and refused
 * writes must change no state: the test account's nonce moves by exactly the writes that were
 * accepted (docs/rpc.md "Errors": never -32603 for anything a caller can send).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { prng } from './prng.js';

const SEED = 0x5eed_2026;
const CASES = 5000;
const CONCURRENCY = 8;

interface Schema {
  type?: string;
  title?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
interface MethodDoc {
  name: string;
  paramStructure?: string;
  params: Array<{ name: string; required?: boolean; schema: Schema }>;
}


let node: TestNode;
let account: string;

beforeAll(async () => {
  // Short idle blocks: a write the fuzzer happens to get accepted waits for its block.
  node = await TestNode.start({ args: ['--block-time', '1'] });
  account = (await node.result<{ address: string }>('svc_generateKeypair')).address;
  await node.result('svc_faucet', [account]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

it(`${CASES} fuzzed calls over every method: valid envelopes, no -32603, no 5xx, refused writes change nothing`, async () => {
  const rand = prng(SEED);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const doc = await node.result<{ methods: MethodDoc[] }>('rpc.discover');
  // Subscriptions need a WebSocket (-32014 over HTTP is still checked); every method is called.
  const methods = doc.methods;
  expect(methods.length).toBeGreaterThan(50);

  /** A value the schema plausibly accepts: an example, our funded account for addresses, else by type. */
  const sample = (s: Schema): unknown => {
    if (s.const !== undefined) return s.const;
    const union = s.anyOf ?? s.oneOf;
    if (union) return sample(pick(union));
    if (s.title === 'Address') return account;
    if (s.examples && s.examples.length > 0 && rand() < 0.8) return pick(s.examples);
    if (s.default !== undefined) return s.default;
    switch (s.type) {
      case 'string':
        if (s.title === 'DecimalString') return String(1 + int(1000));
        if (s.title === 'Hash') return '0x' + 'ab'.repeat(32);
        if (s.title === 'HexBytes') return '0x00';
        if (s.title === 'Symbol') return 'NTV';
        if (s.title === 'HexQuantity') return '0x1';
        return s.pattern === undefined ? 'fuzz' : '0';
      case 'integer':
      case 'number':
        return s.minimum ?? 0;
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array':
        return s.items ? [sample(s.items)] : [];
      case 'object': {
        const o: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(s.properties ?? {})) if ((s.required ?? []).includes(k) || rand() < 0.5) o[k] = sample(v);
        return o;
      }
      default:
        return 'fuzz';
    }
  };

  const surrogates = ['\ud800', 'a\udc00b', '\udbff', 'x\ud83d'];
  const hostile = (): unknown =>
    pick<() => unknown>([
      () => pick([1, -1, 0, 1.5, -0.5, 2 ** 53 + 2, 1e308, -1e308, 2 ** 64, -(2 ** 63)]),
      () => pick(['', ' ', '-1', '1e999', '0x', '0x' + 'f'.repeat(65), '99999999999999999999999999999999999999999999', 'NaN']),
      () => pick(['a', '9', '\u0000', 'é']).repeat(pick([65, 257, 5_000, 100_000])),
      () => pick(surrogates),
      () => pick([null, true, false, [], {}, [null], { a: pick(surrogates) }, [[[[[]]]]]]),
    ])();
  /** A mutation of one value, biased to its own type so the node's deeper checks are reached. */
  const mutate = (v: unknown): unknown => {
    if (typeof v === 'string' && rand() < 0.5) {
      return pick<() => unknown>([
        () => v + pick(surrogates),
        () => v.repeat(1 + int(2000)),
        () => '-' + v,
        () => v.slice(0, int(v.length + 1)),
        () => v + '0'.repeat(1 + int(60)),
        () => v.toUpperCase(),
      ])();
    }
    if (typeof v === 'number' && rand() < 0.5) return pick([-v, v * 1e20, v + 0.5, -1, Number.MAX_SAFE_INTEGER, 2 ** 64]);
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && rand() < 0.5) {
      const o = { ...(v as Record<string, unknown>) };
      const keys = Object.keys(o);
      if (keys.length > 0 && rand() < 0.7) o[pick(keys)] = mutate(o[pick(keys)]);
      else o[pick(['extra', 'x\ud800', '__proto__', ''])] = hostile();
      return o;
    }
    return hostile();
  };

  /** Params for one call: plausible values, then one of the mutations. */
  const paramsFor = (m: MethodDoc): unknown => {
    const values = m.params.map((p) => (p.required === false && rand() < 0.3 ? undefined : sample(p.schema)));
    while (values.length > 0 && values[values.length - 1] === undefined) values.pop();
    const kind = int(10);
    if (kind <= 4 && m.params.length > 0) {
      const i = int(m.params.length);
      while (values.length <= i) values.push(null);
      values[i] = mutate(values[i]);
    } else if (kind === 5) {
      values.push(...Array.from({ length: 1 + int(3) }, hostile)); // extra params
    } else if (kind === 6) {
      values.length = int(values.length + 1); // missing params
    } else if (kind === 7 && m.params.length > 0) {
      values[int(m.params.length)] = null;
    } else if (kind === 8) {
      // By name, sometimes with an unknown key.
      const named: Record<string, unknown> = {};
      m.params.forEach((p, i) => {
        if (values[i] !== undefined) named[p.name] = rand() < 0.3 ? mutate(values[i]) : values[i];
      });
      if (rand() < 0.3) named[pick(['bogus', 'x\udc00'])] = hostile();
      return named;
    }
    // kind 9 (and a no-param method): plausible params as they are.
    return values.map((v) => (v === undefined ? null : v));
  };

  let nextId = 1;
  let unansweredFromAccount = 0;
  const request = (): { body: string; ids: Array<number | string> } => {
    const roll = int(100);
    if (roll < 4) {
      // Malformed JSON and non-request bodies.
      const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: pick(methods).name, params: [] });
      return { body: pick([text.slice(0, int(text.length)), '', '{', '[1,2', 'nul', '"\\ud800"', '{"jsonrpc":"2.0","id":1e999,"method":"svc_version"}', '['.repeat(5000) + ']'.repeat(5000), '{"a":' + '1'.repeat(400) + '}', '[]', '42', 'null']), ids: [] };
    }
    const one = (): { value: unknown; id: number | string | undefined } => {
      const m = pick(methods);
      const id = rand() < 0.9 ? nextId++ : String(nextId++);
      const envelope = int(100);
      if (envelope < 5) {
        // A broken envelope: wrong version, method or params types, a bad id, or a notification.
        return pick<() => { value: unknown; id: number | string | undefined }>([
          () => ({ value: { jsonrpc: '1.0', id, method: m.name, params: [] }, id }),
          () => ({ value: { jsonrpc: '2.0', id, method: hostile() }, id }),
          () => ({ value: { jsonrpc: '2.0', id, method: m.name, params: pick(['x', 5, true]) }, id }),
          () => ({ value: { jsonrpc: '2.0', id: pick([{}, [], true]), method: m.name }, id: undefined }),
          () => {
            // A notification gets no reply, but one naming a real write of our account still runs
            // (JSON-RPC 2.0 §4.1) and may use a nonce: counted as unanswered for the nonce check.
            const value = { jsonrpc: '2.0', method: m.name + pick(['', '\ud800', '_nope']), params: paramsFor(m) };
            if (value.method === m.name && JSON.stringify(value.params).includes(account)) unansweredFromAccount++;
            return { value, id: undefined };
          },
          () => ({ value: { jsonrpc: '2.0', id, method: m.name + '\ud800' }, id }),
        ])();
      }
      return { value: { jsonrpc: '2.0', id, method: m.name, params: paramsFor(m) }, id };
    };
    if (roll < 12) {
      const n = 1 + int(12);
      const entries = Array.from({ length: n }, () => (rand() < 0.1 ? { value: hostile(), id: undefined } : one()));
      return { body: JSON.stringify(entries.map((e) => e.value)), ids: entries.flatMap((e) => (e.id === undefined ? [] : [e.id])) };
    }
    const single = one();
    return { body: JSON.stringify(single.value), ids: single.id === undefined ? [] : [single.id] };
  };

  const before = await node.result<{ nonce: string; pending_nonce: string; balance: string }>('svc_getAccount', [account]);
  const failures: string[] = [];
  const codes = new Map<number | string, number>();
  let acceptedFromAccount = 0;
  let acceptedWrites = 0;
  let inclusionTimeouts = 0;
  const isEnvelope = (r: unknown): r is { jsonrpc: string; id: unknown; result?: unknown; error?: { code: unknown; message: unknown; data?: unknown } } => {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
    const o = r as Record<string, unknown>;
    if (o.jsonrpc !== '2.0' || !('id' in o)) return false;
    if (!(o.id === null || typeof o.id === 'string' || typeof o.id === 'number')) return false;
    if (('result' in o) === ('error' in o)) return false;
    if ('error' in o) {
      const e = o.error as Record<string, unknown>;
      return typeof e === 'object' && e !== null && Number.isInteger(e.code) && typeof e.message === 'string';
    }
    return true;
  };
  /**
   * Whether a reply is a bundle of our account that executed successfully: the only kind that uses
   * a nonce (a bundle that failed in its block is reverted whole, nonce included, spec §7.5).
   */
  const succeededFromAccount = (r: { result?: unknown; error?: unknown }): boolean =>
    r.error === undefined && typeof r.result === 'object' && r.result !== null && (r.result as { from?: unknown }).from === account && 'bundle_hash' in r.result;
  /** A reply carrying a receipt (in a block, failed or not) or an inclusion timeout: some state moved. */
  const isWrite = (r: { result?: unknown; error?: { code: unknown; data?: unknown } }): boolean =>
    r.error ? r.error.code === -32002 || r.error.code === -32008 : typeof r.result === 'object' && r.result !== null && 'bundle_hash' in r.result && 'block_height' in r.result;

  const runCase = async (n: number): Promise<void> => {
    const { body, ids } = request();
    let status: number;
    let text: string;
    try {
      ({ status, text } = await node.raw(body));
    } catch (err) {
      failures.push(`case ${n}: transport error ${String(err)} for ${body.slice(0, 200)}`);
      return;
    }
    if (status >= 500) failures.push(`case ${n}: HTTP ${status} for ${body.slice(0, 200)}`);
    if (status === 204) {
      if (ids.length > 0) failures.push(`case ${n}: 204 although ids ${ids.join(',')} expect replies`);
      return;
    }
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      failures.push(`case ${n}: reply is not JSON (${status}): ${text.slice(0, 200)}`);
      return;
    }
    const replies = Array.isArray(reply) ? reply : [reply];
    if (Array.isArray(reply) && reply.length === 0) failures.push(`case ${n}: empty batch reply`);
    for (const r of replies) {
      if (!isEnvelope(r)) {
        failures.push(`case ${n}: not a JSON-RPC envelope: ${JSON.stringify(r).slice(0, 200)}`);
        continue;
      }
      const code = r.error ? (r.error.code as number) : 'ok';
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code === -32603) failures.push(`case ${n}: -32603 for ${body.slice(0, 300)} → ${JSON.stringify(r).slice(0, 300)}`);
      if (succeededFromAccount(r)) acceptedFromAccount++;
      if (isWrite(r)) acceptedWrites++;
      if (r.error?.code === -32008) inclusionTimeouts++;
    }
    if (!Array.isArray(reply) && ids.length === 1 && isEnvelope(reply) && reply.id !== ids[0] && reply.id !== null) {
      failures.push(`case ${n}: reply id ${String(reply.id)} for request id ${ids[0]}`);
    }
  };

  // The cases are drawn in order from the PRNG (request() runs synchronously before each await),
  // so the set of requests is the same on every run; only their interleaving varies.
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CASES) await runCase(next++);
    }),
  );

  expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
  // The mutations reached past the envelope into param validation and the methods themselves.
  expect(codes.get(-32602) ?? 0).toBeGreaterThan(CASES / 4);
  expect(codes.get('ok') ?? 0).toBeGreaterThan(0);

  const after = await node.result<{ nonce: string; pending_nonce: string; balance: string }>('svc_getAccount', [account]);
  // Each write of our account that succeeded used one nonce; every refused one used none (a bundle
  // still waiting after an inclusion timeout, normally none with 1 s blocks, may hold one more, and
  // so may a write sent as a notification, which runs without a reply; whether it succeeds depends
  // on the interleaving: the CI run where one did found this bound missing).
  const used = Number(BigInt(after.pending_nonce) - BigInt(before.pending_nonce));
  expect(used).toBeGreaterThanOrEqual(acceptedFromAccount);
  expect(used).toBeLessThanOrEqual(acceptedFromAccount + inclusionTimeouts + unansweredFromAccount);
  // With no write accepted at all (faucet included), the balance cannot have moved either.
  if (acceptedWrites === 0) expect(after.balance).toBe(before.balance);
  console.info(`rpc fuzz: seed ${SEED}, ${CASES} cases, replies by code ${JSON.stringify([...codes])}, ${acceptedWrites} writes accepted (${acceptedFromAccount} from the test account, ${unansweredFromAccount} unanswered notifications naming it)`);
}, 120_000);
