import { Signer, type KeyTypeName } from '../src/codec/keys.js';
import { parseAddress } from '../src/codec/address.js';
import { BenchNode } from './bench-node.js';
import { fundAccounts, presignTransfers } from './node.js';
import type { BenchResult } from './rpc.js';

/**
 * Bundles per second signed by ML-DSA-65 against Ed25519, end to end (issue 21, docs/accounts.md):
 * the same number of one-transfer bundles from fresh accounts of each scheme (each bundle reveals
 * its key, as a wallet's first sends do), submitted in JSON-RPC batches to one node and timed until
 * every one is in a committed block. Both schemes are verified on the node's worker pool
 * (src/codec/verify-pool.ts); an ML-DSA-65 bundle is ~5.3 KB (1,952-byte key, 3,309-byte
 * signature) against ~200 bytes, so the ratio shows the verification and the bytes together.
 */
export async function benchKeySchemes(options: { accounts?: number; perAccount?: number; batchSize?: number; connections?: number } = {}): Promise<BenchResult[]> {
  const accounts = options.accounts ?? 400;
  const perAccount = options.perAccount ?? 4;
  const batchSize = options.batchSize ?? 50;
  const connections = options.connections ?? 8;
  const node = await BenchNode.start(['--rpc-rate-limit', '0', '--block-time', '1']);
  try {
    const rate = async (keyType: KeyTypeName): Promise<{ perSecond: number; failures: number; first: string }> => {
      const signers = Array.from({ length: accounts }, () => Signer.generate(keyType));
      const to = parseAddress(Signer.generate().address);
      await fundAccounts(node, signers, 500);
      const batches: string[][] = [];
      for (const round of presignTransfers(signers, perAccount, to)) for (let i = 0; i < round.length; i += batchSize) batches.push(round.slice(i, i + batchSize));
      const started = performance.now();
      let next = 0;
      let failures = 0;
      let first = '';
      await Promise.all(Array.from({ length: connections }, async () => {
        while (next < batches.length) {
          const replies = await node.batch(batches[next++]!.map((hex) => ({ method: 'svc_submitBundle', params: [hex] })));
          const failed = replies.filter((r) => r.error);
          failures += failed.length;
          if (failed.length > 0 && !first) first = JSON.stringify(failed[0]!.error);
        }
      }));
      const seconds = (performance.now() - started) / 1000;
      return { perSecond: (accounts * perAccount - failures) / seconds, failures, first };
    };
    const ed = await rate('Ed25519');
    const pq = await rate('ML-DSA-65');
    const how = (r: { failures: number; first: string }) => `${accounts * perAccount} one-transfer bundles from ${accounts} accounts, batches of ${batchSize} over ${connections} connections, submit → in a committed block; ${r.failures} failed${r.first ? ` (first: ${r.first})` : ''}`;
    return [
      { name: 'accounts.ed25519_bundles_per_s', value: Math.round(ed.perSecond), unit: 'bundles/s', note: how(ed) },
      { name: 'accounts.ml_dsa_65_bundles_per_s', value: Math.round(pq.perSecond), unit: 'bundles/s', note: how(pq) },
      { name: 'accounts.ml_dsa_65_vs_ed25519', value: Math.round((pq.perSecond / ed.perSecond) * 1000) / 1000, unit: 'ratio', note: 'ML-DSA-65-signed bundles/s over Ed25519-signed bundles/s in the same run (docs/accounts.md)' },
    ];
  } finally {
    await node.stop();
  }
}
