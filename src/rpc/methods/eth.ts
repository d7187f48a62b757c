import { Type } from '@sinclair/typebox';
import { defineMethod, type MethodDefinition } from '../registry.js';
import type { MethodDependencies } from './context.js';

/** The foundation's part of the EVM adapter (spec §4.18, §9.2); the rest arrives with the clients issue. */
export function ethMethods({ chain }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'eth_chainId',
      summary: 'Chain ID as a hex quantity: 0x18b070 testnet, 0x18b071 mainnet (spec §9.2).',
      params: [] as const,
      result: { name: 'chainId', schema: Type.String({ pattern: '^0x[0-9a-f]+$' }) },
      handler: () => `0x${chain.chainId.toString(16)}`,
    }),
    defineMethod({
      name: 'net_version',
      summary: 'Chain ID as a decimal string, as net_version has it.',
      params: [] as const,
      result: { name: 'version', schema: Type.String({ pattern: '^[0-9]+$' }) },
      handler: () => String(chain.chainId),
    }),
    defineMethod({
      name: 'eth_blockNumber',
      summary: 'Latest block height as a hex quantity (spec §4.18).',
      params: [] as const,
      result: { name: 'blockNumber', schema: Type.String({ pattern: '^0x[0-9a-f]+$' }) },
      handler: () => `0x${chain.height.toString(16)}`,
    }),
  ];
}
