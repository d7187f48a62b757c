/**
 * The RPC framework bench's three servers (bench/rpc.ts): the bare `node:http` baseline and
 * RpcServer on its two HTTP paths, in a process of their own, so that they can be pinned to one CPU
 * and the load generator to another (bench/affinity.ts). Driven over IPC by bench/rpc.ts: `ready`
 * names their URLs; `mark` and `elu` bracket a measured slice with this process's event-loop
 * utilisation and CPU time; `stop` closes them and exits.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Type } from '@sinclair/typebox';
import type { Logger } from '../src/logger.js';
import { MethodRegistry } from '../src/rpc/registry.js';
import { RpcServer } from '../src/rpc/server.js';

export type ServerKey = 'bare' | 'direct' | 'koa';
export type ServersMessage = { type: 'ready'; urls: Record<ServerKey, string> } | { type: 'marked' } | { type: 'elu'; utilization: number; cpuMicros: number };
export type ServersCommand = { type: 'mark' } | { type: 'elu' } | { type: 'stop' };

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function lookupTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (let i = 0; i < 1000; i++) table.set(`key${i}`, `value-${i}`);
  return table;
}

/** The baseline: node:http, read body, JSON.parse, Map lookup, JSON.stringify. */
function startBareServer(table: Map<string, string>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let reply: string;
      try {
        const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; params: unknown[] };
        reply = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: table.get(msg.params[0] as string) ?? null });
      } catch {
        reply = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}';
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function startRpcServer(table: Map<string, string>, hotPath: 'direct' | 'koa'): Promise<RpcServer> {
  const registry = new MethodRegistry({ info: { title: 'bench', version: '0.0.0' } });
  registry.register({
    name: 'bench_lookup',
    summary: 'Looks a key up in a Map.',
    params: [{ name: 'key', schema: Type.String({ maxLength: 64 }) }],
    result: { name: 'value', schema: Type.Union([Type.String(), Type.Null()]) },
    handler: (params) => table.get(params[0] as string) ?? null,
  });
  const server = new RpcServer({ port: 0, rateLimit: 0, hotPath }, { registry, logger: silentLogger });
  await server.start();
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = lookupTable();
  const bare = await startBareServer(table);
  const direct = await startRpcServer(table, 'direct');
  const koa = await startRpcServer(table, 'koa');
  const send = (m: ServersMessage) => process.send!(m);
  let mark: EventLoopUtilization | undefined;
  let cpuMark: NodeJS.CpuUsage | undefined;
  process.on('message', (m: ServersCommand) => {
    if (m.type === 'mark') {
      mark = performance.eventLoopUtilization();
      cpuMark = process.cpuUsage();
      send({ type: 'marked' });
    } else if (m.type === 'elu') {
      // the process's CPU over the slice, every thread (GC helpers too): what the requests cost
      const cpu = process.cpuUsage(cpuMark);
      send({ type: 'elu', utilization: performance.eventLoopUtilization(mark).utilization, cpuMicros: cpu.user + cpu.system });
    } else {
      void Promise.all([direct.stop(), koa.stop(), new Promise<void>((resolve) => {
        bare.close(() => resolve());
        bare.closeAllConnections();
      })]).then(() => process.exit(0));
    }
  });
  // the bench process going away (killed) takes this one with it
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', urls: { bare: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, direct: direct.url, koa: koa.url } });
}
