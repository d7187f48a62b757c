// Issue 44 item 1, the core's side of a domain module: a domain's rules live in
// assembly/domains/<group>/, named as its ABI group (abi/operations.mjs), and the table's `handler`
// column points each of its operations there, so the generated dispatch (assembly/ops/dispatch*.ts)
// is the only place that reaches every domain. The core's own operations (transfers, token records,
// allowances, account keys and recovery) stay in assembly/ops/ (docs/architecture.md "Domain modules").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './source-files.js';

interface Row { name: string; group: string; handler?: string; core?: boolean }
const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };
const DOMAINS = join(root, 'assembly/domains');
const folders = readdirSync(DOMAINS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const groups = new Set(operations.map((o) => o.group));
/** The folder (`domains/<group>`) or `ops` a row's handler module sits in. */
const homeOf = (o: Row) => /^(domains\/[a-z-]+|ops)\//.exec(o.handler ?? '')?.[1];

/**
 * Rows whose rules sit in another domain's folder or in assembly/ops/, each with why.
 * RotateConsensusKey is a key operation by its group (docs/accounts.md), but what it rewrites is the
 * validator's record, whose rules are staking's. UpdateTokenMetadata and LockTokenMetadata are the
 * dex group's methods (docs/dex.md "Token metadata") over the token record, whose encoder every
 * token path shares (assembly/ops/token.ts).
 */
const ELSEWHERE: Record<string, string> = {
  RotateConsensusKey: 'domains/staking',
  UpdateTokenMetadata: 'ops',
  LockTokenMetadata: 'ops',
};

describe('the core\'s domain folders (assembly/domains/)', () => {
  it('each folder is an ABI group, and holds only .ts files', () => {
    expect(folders.length).toBeGreaterThanOrEqual(15);
    for (const f of folders) {
      expect(groups.has(f), `assembly/domains/${f} is an ABI group (abi/operations.mjs)`).toBe(true);
      for (const file of readdirSync(join(DOMAINS, f))) expect(file.endsWith('.ts'), `assembly/domains/${f}/${file}`).toBe(true);
    }
  });

  it('every operation of a group with a folder is handled in that folder, and every handler file exists', () => {
    const wrong: string[] = [];
    for (const o of operations.filter((r) => r.core !== false)) {
      const module = /^([a-z/-]+):/.exec(o.handler ?? '')?.[1];
      expect(module && existsSync(join(root, 'assembly', `${module}.ts`)), `${o.name}'s handler ${o.handler}`).toBe(true);
      const expected = ELSEWHERE[o.name] ?? (folders.includes(o.group) ? `domains/${o.group}` : 'ops');
      if (homeOf(o) !== expected) wrong.push(`${o.name} (${o.group}): ${o.handler}, expected under assembly/${expected}/`);
    }
    expect(wrong).toEqual([]);
  });

  it('a domain reaches another domain\'s rules only along the edges declared here, each with why', () => {
    // Each edge is a rule one domain takes from another, as a Cosmos SDK module takes another's keeper.
    const declared: Record<string, string> = {
      'bridge/ops.ts → ../stablecoins/ops': 'a bridged token is an STD-8 coin the bridge mints (docs/bridge.md)',
      'dao/ops.ts → ../governance/ops': 'a DAO proposal is tallied and its operations carried by the protocol proposal rules (docs/dao.md)',
      'governance/ops.ts → ../staking/validators': 'voting power is bonded stake (docs/governance.md)',
      'passports/ops.ts → ../anchors/ops': 'a game id follows the anchor label rule (docs/passports.md)',
      'presales/ops.ts → ../dex/ops': 'a finalized presale seeds its DEX pool (docs/presales.md)',
      'schedules/ops.ts → ../dex/ops': 'a price condition reads a pool\'s reserves (docs/intents.md)',
      'staking-pools/ops.ts → ../dex/ops': 'one lock bound for LP and pool locks (docs/staking-pools.md)',
      'staking/rewards.ts → ../upgrades/ops': 'no missed block counted in an upgrade\'s grace (docs/upgrades.md)',
      'upgrades/ops.ts → ../staking/validators': 'an upgrade passes on the active validators\' stake (docs/upgrades.md)',
    };
    const found: string[] = [];
    for (const f of folders) {
      for (const file of readdirSync(join(DOMAINS, f))) {
        for (const m of readFileSync(join(DOMAINS, f, file), 'utf8').matchAll(/from\s+"(\.\.\/[a-z-]+\/[^"]+)"/g)) found.push(`${f}/${file} → ${m[1]}`);
      }
    }
    expect(found.sort()).toEqual(Object.keys(declared).sort());
  });
});
