import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { defineMethod, MethodRegistry } from '../../src/rpc/registry.js';
import { AccountParam, AmountParam } from '../../src/rpc/methods/params.js';
import { registerMethods, type MethodDependencies } from '../../src/rpc/methods/index.js';
import { RpcError } from '../../src/rpc/errors.js';
import { parsed } from '../../src/rpc/schemas.js';

/**
 * Params parsed once (issue 44 item 4; src/rpc/schemas.ts `parsed`): the registry runs a schema's
 * parser after its check, so the handler gets bytes and bigints, and a -32602 names the param and the
 * position the registry counts (from 1) without the handler numbering anything.
 */

const registry = () => new MethodRegistry({ info: { title: 't', version: '0' } });
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message, data: error.data as Record<string, unknown> };
    throw error;
  }
  throw new Error('expected a -32602');
};

describe('params parsed by the registry', () => {
  const r = registry();
  r.register(defineMethod({
    name: 'test_parsed',
    summary: 'a method with parsed params',
    params: [
      { name: 'label', schema: Type.String() },
      { name: 'to', schema: AccountParam() },
      { name: 'amount', schema: AmountParam({}, 64) },
      { name: 'doubled', schema: parsed(Type.Integer({ default: 2 }), (v) => v * 2), required: false },
    ] as const,
    result: { name: 'ok', schema: Type.Boolean() },
    handler: ([label, to, amount, doubled]) => {
      // The types say what the registry hands over: bytes, a bigint, the parser's result.
      const checks: [string, Uint8Array, bigint, number | undefined] = [label, to, amount, doubled];
      return checks.length === 4;
    },
  }));
  const method = r.get('test_parsed')!;
  const to = `0x${'ab'.repeat(32)}`;

  it('hands the handler parsed values, by position and by name, and parses a default', () => {
    const values = r.prepareParams(method, ['x', to, '18446744073709551615']);
    expect(values[1]).toEqual(new Uint8Array(32).fill(0xab));
    expect(values[2]).toBe(18_446_744_073_709_551_615n);
    expect(values[3]).toBe(4);
    expect(r.prepareParams(method, { label: 'x', to, amount: '5', doubled: 10 })).toEqual(['x', new Uint8Array(32).fill(0xab), 5n, 20]);
  });

  it('a value its parser refuses is -32602 naming the param and its position as the registry counts', () => {
    const over = errorOf(() => r.prepareParams(method, ['x', to, '18446744073709551616']));
    expect(over).toMatchObject({ code: -32602, data: { param: 'amount', position: 3 } });
    expect(over.message).toBe('invalid params: "amount" (param 3) must be at most 2^64−1');
  });
});

/** Every method of the node, over dependencies that only answer property reads (as rpc-openrpc.test.ts). */
function nodeRegistry(): MethodRegistry {
  const inert: unknown = new Proxy(function inert() {}, { get: (_t, key) => (key === 'then' ? undefined : inert), apply: () => inert, construct: () => inert as object });
  const deps = { chain: inert, readers: inert, validator: inert, network: 'testnet', faucet: inert, subscriptions: inert, p2p: inert, intents: inert, consensus: inert };
  const r = registry();
  registerMethods(r, deps as unknown as MethodDependencies);
  return r;
}

describe('the bridge methods, parsed once: each refusal names the position the registry counts (they named positions from 0, or one less)', () => {
  const r = nodeRegistry();
  const prepare = (name: string, params: unknown[]) => errorOf(() => r.prepareParams(r.get(name)!, params));

  it('an unknown chain is named where it stands', () => {
    expect(prepare('svc_getBridgeStatus', ['dogechain', '0x01']).data).toMatchObject({ param: 'chain', position: 1 });
    expect(prepare('svc_bridgeWithdraw', ['NTV', '1', 'dogechain', 'dest', `0x${'01'.repeat(32)}`]).data).toMatchObject({ param: 'chain', position: 3 });
    expect(prepare('svc_getBridgeFees', ['dogechain']).data).toMatchObject({ param: 'chain', position: 1 });
  });

  it('a destination or contract over 128 bytes of UTF-8 is named at its own position', () => {
    const long = 'é'.repeat(100);
    expect(prepare('svc_registerBridgeMapping', ['ethereum', long, 'NTV', `0x${'03'.padStart(64, '0')}`]).data).toMatchObject({ param: 'contract', position: 2, bytes: 200 });
  });

  it('an amount over u128 and a malformed proof are named at theirs', () => {
    const addr = `0x${'01'.repeat(32)}`;
    expect(prepare('svc_bridgeToken', ['ethereum', '0x01', 'USDC', (2n ** 128n).toString(), addr, '00']).data).toMatchObject({ param: 'amount', position: 4 });
    expect(prepare('svc_autobridge', ['zz']).data).toMatchObject({ param: 'proof', position: 1 });
  });
});
