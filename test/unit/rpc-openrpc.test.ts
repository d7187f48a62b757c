/** rpc.discover: an OpenRPC 1.3 document generated from the registry, and registry rules. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { APP_ERRORS, STANDARD_ERRORS, errorTable } from '../../src/rpc/errors.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { call, post, startServer } from './rpc-fixtures.js';

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
