import { benchCore } from './core.js';
import { benchDex } from './dex.js';
import { benchFinality } from './finality.js';
import { benchIntents } from './intents.js';
import { benchGetBalance, benchSignedThroughput } from './node.js';
import { benchRpc, type BenchResult } from './rpc.js';
import { benchSubscriptions } from './subscriptions.js';
import { benchSync } from './sync.js';

/**
 * `npm run bench`: every figure the issues name, each as a ratio against a baseline measured in the
 * same run (DEVELOPERS.md), printed as a table for the README.
 */
const suites: Array<[string, () => Promise<BenchResult[]>]> = [
  ['core', () => benchCore()],
  ['dex', () => benchDex()],
  ['rpc framework', () => benchRpc()],
  ['node: svc_getBalance', () => benchGetBalance()],
  ['node: signed transfers end to end', () => benchSignedThroughput()],
  ['node: subscriptions', () => benchSubscriptions()],
  ['intents', () => benchIntents()],
  ['sync: blocks from a peer', () => benchSync()],
  ['consensus: time to finality, 4 validators', () => benchFinality()],
];

const only = process.argv.slice(2);
const rows: BenchResult[] = [];
for (const [name, run] of suites) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  process.stderr.write(`bench: ${name} …\n`);
  rows.push(...(await run()));
}

console.log('| figure | value | unit | how |');
console.log('|---|---:|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.value.toLocaleString('en-US')} | ${r.unit} | ${r.note ?? ''} |`);
