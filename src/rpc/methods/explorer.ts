import { Type } from '@sinclair/typebox';
import { encodeHash } from '../../codec/address.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Height, Limit } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { formatHeader } from './format.js';
import { HeaderSchema } from './result-schemas.js';

/** Spec §4.11 blocks and network statistics (the rest of the explorer arrives with its issue). */
export function explorerMethods({ chain, network }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_getBlockByHeight',
      summary: 'A block by height with its bundle hashes and transaction statistics, or null (spec §4.11).',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        name: 'block',
        schema: Type.Union([Type.Intersect([HeaderSchema, Type.Object({
          transactions: Type.Array(Type.String({ description: 'Nxh… bundle hashes in block order' })),
          tx_stats: Type.Object({
            total: Type.Integer(), succeeded: Type.Integer(), failed: Type.Integer(),
            total_fees: Type.String({ description: 'raw NTV units' }), transfers: Type.Integer(),
          }),
        })]), Type.Null()]),
      },
      handler: async ([height]) => {
        const block = await chain.blockByHeight(height);
        if (!block) return null;
        const receipts = (await Promise.all(block.bundleHashes.map((h) => chain.receipt(h)))).filter((r) => r !== undefined);
        let failed = 0;
        let fees = 0n;
        let transfers = 0;
        for (const r of receipts) {
          if (r.status === 'failed') failed++;
          fees += BigInt(r.fee);
          transfers += r.events.filter((e) => e.type === 'Transfer').length;
        }
        return {
          ...formatHeader(block.header),
          transactions: block.bundleHashes.map(encodeHash),
          tx_stats: { total: receipts.length, succeeded: receipts.length - failed, failed, total_fees: fees.toString(), transfers },
        };
      },
    }),
    defineMethod({
      name: 'svc_getRecentBlocks',
      summary: 'Headers of the latest blocks, newest first (spec §4.11).',
      params: [{ name: 'limit', schema: Limit({ default: 10 }), required: false }] as const,
      result: { name: 'blocks', schema: Type.Array(HeaderSchema) },
      handler: async ([limit]) => (await chain.recentHeaders(limit ?? 10)).map(formatHeader),
    }),
    defineMethod({
      name: 'svc_getNetworkStats',
      summary: 'Height, chain, peers, validators, mempool and throughput figures (spec §4.11; facts.md camelCase keys).',
      params: [] as const,
      result: {
        name: 'stats',
        schema: Type.Object({
          blockHeight: Type.Integer(), chainId: Type.Integer(), network: Type.String(), peerCount: Type.Integer(),
          validatorCount: Type.Integer(), mempoolSize: Type.Integer(), totalTransactions: Type.Integer(),
          averageBlockTime: Type.Number({ description: 'seconds between recent blocks' }), gasPrice: Type.Integer(),
          tokenCount: Type.Integer(), stateRoot: Type.String(), latestBlockHash: Type.String(), latestBlockTime: Type.Integer(),
        }),
      },
      handler: () => {
        const head = chain.headHeader;
        return {
          blockHeight: head.height,
          chainId: chain.chainId,
          network,
          // Single-validator node: no peers until the network issue lands.
          peerCount: 0,
          validatorCount: 1,
          mempoolSize: chain.mempool.size,
          totalTransactions: chain.transactionCount,
          averageBlockTime: Math.round(chain.averageBlockTime() * 1000) / 1000,
          gasPrice: Number(chain.options.gasPrice),
          tokenCount: chain.tokens.size,
          stateRoot: encodeHash(head.stateRoot),
          latestBlockHash: encodeHash(head.hash),
          latestBlockTime: head.timestamp,
        };
      },
    }),
  ];
}
