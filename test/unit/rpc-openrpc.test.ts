/** rpc.discover: an OpenRPC 1.3 document generated from the registry, and registry rules. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { APP_ERRORS, STANDARD_ERRORS, errorTable } from '../../src/rpc/errors.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { nodeRegistry } from '../../scripts/gen-methods-doc.js';
import { documentedMethods } from '../../src/rpc/examples/index.js';
import { call, post, startServer } from './rpc-fixtures.js';
import { Address } from '../../src/rpc/schemas.js';
import { CollectionAddress } from '../../src/domains/collections/collection-rpc.js';

describe('rpc.discover', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s.server.stop();
  });

  it('lists every registered method with param and result schemas and errors', async () => {
    const doc = (await post(s.url, call('rpc.discover', []))).json.result;
    expect(doc.openrpc).toBe('1.3.2');
    expect(doc.info).toEqual({ title: 'test node', version: '9.9.9' });
    const names = doc.methods.map((m: { name: string }) => m.name);
    expect(names).toEqual(s.registry.definitions().map((d) => d.name));
    expect(names).toContain('rpc.discover');
    const transfer = doc.methods.find((m: { name: string }) => m.name === 'test_transfer');
    expect(transfer.params.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([
      ['from', true],
      ['to', true],
      ['token', true],
      ['amount', true],
      ['memo', false],
    ]);
    const amount = transfer.params[3].schema;
    expect(amount).toMatchObject({ type: 'string', pattern: '^[0-9]{1,39}$', title: 'DecimalString' });
    expect(amount.description).toMatch(/raw units/);
    expect(transfer.result.schema.type).toBe('object');
    expect(transfer.errors).toEqual([{ code: -32010, message: 'INSUFFICIENT_BALANCE', data: APP_ERRORS.INSUFFICIENT_BALANCE.meaning }]);
    expect(Object.keys(doc.components.errors)).toEqual([...Object.keys(STANDARD_ERRORS), ...Object.keys(APP_ERRORS)]);
  });

  it('reflects methods registered after a first discover', async () => {
    s.registry.register({ name: 'test_late', summary: 'late', params: [], result: { name: 'x', schema: Type.Null() }, handler: () => null });
    const doc = (await post(s.url, call('rpc.discover'))).json.result;
    expect(doc.methods.map((m: { name: string }) => m.name)).toContain('test_late');
  });
});

describe('MethodRegistry rules', () => {
  const registry = new MethodRegistry({ info: { title: 't', version: '1' } });
  const base = { summary: 's', result: { name: 'r', schema: Type.Null() }, handler: () => null };

  it('refuses duplicates, reserved rpc.* names and a required param after an optional one', () => {
    registry.register({ ...base, name: 'a_b', params: [] });
    expect(() => registry.register({ ...base, name: 'a_b', params: [] })).toThrow(/twice/);
    expect(() => registry.register({ ...base, name: 'rpc.mine', params: [] })).toThrow(/reserved/);
    expect(() =>
      registry.register({
        ...base,
        name: 'a_c',
        params: [
          { name: 'x', schema: Type.String(), required: false },
          { name: 'y', schema: Type.String() },
        ],
      }),
    ).toThrow(/follows an optional/);
  });

  it('refuses an errors list naming a code outside the table', () => {
    expect(() => registry.register({ ...base, name: 'a_d', params: [], errors: [-32099] })).toThrow(/not in the error table/);
  });

  it('by-position methods refuse by-name params; nested failures name the path', () => {
    registry.register({
      ...base,
      name: 'a_e',
      paramStructure: 'by-position',
      params: [{ name: 'filter', schema: Type.Object({ opType: Type.Array(Type.String()) }) }],
    });
    const m = registry.get('a_e')!;
    expect(() => registry.prepareParams(m, { filter: {} })).toThrow(/positional array/);
    try {
      registry.prepareParams(m, [{ opType: [1] }]);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: -32602, data: { param: 'filter', position: 1, expected: 'an object', path: '/opType/0' } });
    }
  });

  it('the error table has unique codes inside the reserved ranges', () => {
    const codes = errorTable().map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const { code } of Object.values(APP_ERRORS)) expect(code <= -32000 && code >= -32099).toBe(true);
  });

  it('docs/rpc.md lists every code of the table with its name', () => {
    const doc = readFileSync(new URL('../../docs/rpc.md', import.meta.url), 'utf8');
    for (const { code, name } of errorTable()) expect(doc).toContain(`| ${code} | ${name} |`);
  });
});

// Every method the node registers, over dependencies that only answer property reads (nodeRegistry).

describe('OpenRPC that tools can generate clients from (issue 26 item 6)', () => {
  const registry = nodeRegistry();
  const definitions = registry.definitions();

  it('registers the whole node: every area, rpc.discover first', () => {
    const names = definitions.map((d) => d.name);
    expect(names[0]).toBe('rpc.discover');
    for (const name of ['svc_getBalance', 'svc_submitBundle', 'svc_previewIntent', 'svc_consensusStatus', 'svc_stake', 'eth_getLogs', 'net_version', 'web3_clientVersion']) {
      expect(names).toContain(name);
    }
  });

  it('every method has a description and at least one example', () => {
    const missing: string[] = [];
    for (const d of definitions) {
      // The eth_/net_/web3_ methods follow execution-apis, where a one-line summary is the whole
      // description (openrpc.ts repeats it); every other method writes its own.
      const evm = /^(eth|net|web3)_/.test(d.name);
      const description = d.description ?? (evm ? d.summary : undefined);
      if (typeof description !== 'string' || description.trim() === '') missing.push(`${d.name}: no description`);
      if (d.examples === undefined || d.examples.length === 0) missing.push(`${d.name}: no example`);
    }
    expect(missing).toEqual([]);
  });

  it("every example's params and result pass the method's own schemas (TypeBox Value.Check)", () => {
    const faults: string[] = [];
    for (const d of definitions) {
      for (const example of d.examples ?? []) {
        const at = `${d.name} example ${JSON.stringify(example.name)}`;
        if (typeof example.name !== 'string' || example.name === '') faults.push(`${d.name}: an example without a name`);
        const given = new Map(example.params.map((p) => [p.name, p.value]));
        if (given.size !== example.params.length) faults.push(`${at}: a param named twice`);
        for (const name of given.keys()) {
          if (!d.params.some((p) => p.name === name)) faults.push(`${at}: ${name} is not a param of the method`);
        }
        for (const p of d.params) {
          const value = given.get(p.name);
          const optional = p.required === false;
          if (value === undefined || (value === null && optional)) {
            if (!optional) faults.push(`${at}: required param ${p.name} missing`);
            continue;
          }
          if (!Value.Check(p.schema, value)) {
            const first = Value.Errors(p.schema, value).First();
            faults.push(`${at}: param ${p.name} fails its schema at ${first?.path || '/'}: ${first?.message}`);
          }
        }
        if (example.result.name !== d.result.name) faults.push(`${at}: result named ${example.result.name}, the method's is ${d.result.name}`);
        if (!Value.Check(d.result.schema, example.result.value)) {
          const first = Value.Errors(d.result.schema, example.result.value).First();
          faults.push(`${at}: result fails its schema at ${first?.path || '/'}: ${first?.message}`);
        }
      }
    }
    expect(faults).toEqual([]);
  });

  it('no result schema is left untyped (unknown, or an object that names no property)', () => {
    const untyped = definitions
      .filter((d) => d.name !== 'rpc.discover')
      .filter((d) => {
        const schema = d.result.schema as { type?: unknown; anyOf?: unknown; allOf?: unknown; properties?: Record<string, unknown>; const?: unknown };
        if (schema.type === undefined && schema.anyOf === undefined && schema.allOf === undefined && schema.const === undefined) return true;
        return schema.type === 'object' && schema.allOf === undefined && Object.keys(schema.properties ?? {}).length === 0;
      })
      .map((d) => d.name);
    expect(untyped).toEqual([]);
  });

  it('the examples and descriptions (src/rpc/examples/) name only registered methods', () => {
    const names = new Set(definitions.map((d) => d.name));
    expect(documentedMethods().filter((n) => !names.has(n))).toEqual([]);
  });

  it('rpc.discover serves the descriptions and examples, and its own example passes its result schema', () => {
    const doc = registry.discover();
    for (const m of doc.methods) {
      expect(m.examples?.length, m.name).toBeGreaterThan(0);
      if (!/^(eth|net|web3)_/.test(m.name)) expect(m.description, m.name).not.toBe(m.summary);
    }
    const discover = registry.get('rpc.discover')!.definition;
    expect(Value.Check(discover.result.schema, doc)).toBe(true);
  });
});

describe('address patterns (one 0x alternative for 40 or 64 digits)', () => {
  it('Address and CollectionAddress accept exactly the forms they name', () => {
    const base58 = 'GdtWvvAVQK83NfVRWmjjYd5b67ASqKPWFQdKNN1Vrh6M';
    for (const [schema, prefixes] of [[Address(), ['Nx0', 'Nx1', 'Nx5', 'Nx7']], [CollectionAddress(), ['Nx2']]] as const) {
      for (let digits = 0; digits <= 70; digits++) {
        for (const digit of ['a', 'F', '9']) {
          expect(Value.Check(schema, '0x' + digit.repeat(digits))).toBe(digits === 40 || digits === 64);
        }
      }
      expect(Value.Check(schema, '0x' + 'a'.repeat(63) + 'g')).toBe(false);
      expect(Value.Check(schema, '0x' + 'a'.repeat(40) + ' ')).toBe(false);
      for (const p of ['Nx0', 'Nx1', 'Nx2', 'Nx5', 'Nx7', 'Nxh']) expect(Value.Check(schema, p + base58)).toBe((prefixes as readonly string[]).includes(p));
    }
  });
});
