import { Type } from '@sinclair/typebox';
import type { LightNodeView } from '../light/node.js';
import { decodeCertificate } from '../chain/votes.js';
import { CLIENT_NAME, NODE_VERSION } from '../version.js';
import { APP_ERRORS, RpcError } from './errors.js';
import { formatHeader } from './methods/format.js';
import { defineMethod, MethodRegistry, type MethodDefinition } from './registry.js';
import { Height } from './schemas.js';

/**
 * The JSON-RPC of a `--light` node (docs/operations.md "Light node: RPC"): what headers and
 * certificates can answer, and for every other node method -32013 UNAVAILABLE_ON_NODE naming the
 * light node, so a caller learns to ask a full node rather than guessing at a -32601 or -32603.
 */

/** Method names of the node's families; such a name this registry lacks needs state a light node does not hold. */
const NODE_METHOD = /^(svc_|eth_|net_|web3_|txpool_|debug_|ntv_)/;

/** Blocks behind the best peer before the light node calls itself syncing (as full sync does, docs/p2p.md). */
const SYNCING_GAP = 10;

export function lightSyncing(light: LightNodeView): boolean {
  return (light.highestPeerHeight ?? 0) > light.head.height + SYNCING_GAP;
}

export function lightRegistry(light: LightNodeView): MethodRegistry {
  const registry = new MethodRegistry({ info: { title: 'ntv-node JSON-RPC (light node)', version: NODE_VERSION } });
  registry.registerAll(lightMethods(light));
  registry.unregistered = (name) => {
    if (!NODE_METHOD.test(name)) return undefined;
    return RpcError.app('UNAVAILABLE_ON_NODE',
      `${name} is not served by a light node (--light): it holds block headers and finality certificates only, no account state, bundles or receipts; ask a full node`,
      { reason: 'LIGHT_NODE', method: name });
  };
  return registry;
}

const CertificateSchema = Type.Object({
  epoch: Type.Integer(),
  voters: Type.Array(Type.String({ description: 'consensus key (hex) of a validator whose commit vote is in the certificate' })),
}, { description: 'the finality certificate the header was verified with; null for genesis and for a solo proposer\'s block without one' });

function lightMethods(light: LightNodeView): MethodDefinition[] {
  const startedAt = Date.now();
  return [
    defineMethod({
      name: 'eth_chainId',
      summary: 'Chain ID as a 0x hex quantity (EIP-695).',
      params: [] as const,
      result: { name: 'chainId', schema: Type.String() },
      handler: () => `0x${light.chainId.toString(16)}`,
    }),
    defineMethod({
      name: 'eth_blockNumber',
      summary: 'Height of the newest header this light node verified, as a 0x hex quantity.',
      params: [] as const,
      result: { name: 'height', schema: Type.String() },
      handler: () => `0x${light.head.height.toString(16)}`,
    }),
    defineMethod({
      name: 'svc_getBlockByHeight',
      summary: 'A verified header and its finality certificate (a light node holds no bundles: `transactions` is absent, `light` is true).',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        name: 'header',
        schema: Type.Object({
          height: Type.Integer(), hash: Type.String(), parentHash: Type.String(), timestamp: Type.Integer(), proposer: Type.String(),
          stateRoot: Type.String(), transactionsRoot: Type.String(), gasUsed: Type.Integer(), gasLimit: Type.Integer(), baseFee: Type.Integer(),
          bundleCount: Type.Integer(), chainId: Type.Integer(), proposerPublicKey: Type.String(), signature: Type.String(), round: Type.Integer(),
          missed: Type.Array(Type.String()), light: Type.Literal(true), finality: Type.Union([CertificateSchema, Type.Null()]),
        }),
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([height]) => {
        const stored = await light.header(height);
        if (!stored) throw RpcError.app('NOT_FOUND', `no verified header at height ${height}: this light node's head is ${light.head.height}`, { height, head: light.head.height });
        let finality: { epoch: number; voters: string[] } | null = null;
        if (stored.certificate.length > 0) {
          const c = decodeCertificate(stored.certificate);
          finality = { epoch: c.epoch, voters: c.votes.map((v) => Buffer.from(v.validator).toString('hex')) };
        }
        return { ...formatHeader(stored.header), light: true as const, finality };
      },
    }),
    defineMethod({
      name: 'svc_validatorHealth',
      summary: 'A light node\'s health: verified head, peers, sync, the validator set it checks certificates with.',
      params: [] as const,
      result: {
        name: 'health',
        schema: Type.Object({
          light: Type.Literal(true),
          height: Type.Integer({ description: 'newest verified header' }),
          peers: Type.Integer(),
          syncing: Type.Boolean({ description: `more than ${SYNCING_GAP} headers behind the best peer` }),
          highestHeight: Type.Union([Type.Integer(), Type.Null()]),
          headersImported: Type.Integer({ description: 'headers verified and stored since start' }),
          headersRefused: Type.Integer({ description: 'headers or set proofs refused since start' }),
          validatorSetHeight: Type.Integer({ description: 'height whose state root the validator set was proven against (0: genesis flags)' }),
          votingValidators: Type.Integer({ description: 'active, non-jailed validators with stake in that set' }),
          uptimeSeconds: Type.Integer(),
          version: Type.String(),
          peerId: Type.String(),
          addresses: Type.Array(Type.String()),
        }),
      },
      handler: () => ({
        light: true as const,
        height: light.head.height,
        peers: light.peers,
        syncing: lightSyncing(light),
        highestHeight: light.highestPeerHeight ?? null,
        headersImported: light.headersImported,
        headersRefused: light.refused,
        validatorSetHeight: light.validatorSet.height,
        votingValidators: light.validatorSet.validators.filter((v) => v.active && !v.jailed && v.stake > 0n).length,
        uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
        version: NODE_VERSION,
        peerId: light.peerId,
        addresses: light.multiaddrs(),
      }),
    }),
    defineMethod({
      name: 'svc_version',
      summary: 'Node version, network and chain ID (spec §4.17); `light` true and no validator.',
      params: [] as const,
      result: {
        name: 'version',
        schema: Type.Object({ version: Type.String(), client: Type.String(), network: Type.String(), chain_id: Type.Integer(), light: Type.Literal(true) }),
      },
      handler: () => ({ version: NODE_VERSION, client: `${CLIENT_NAME}/${NODE_VERSION}`, network: light.network, chain_id: light.chainId, light: true as const }),
    }),
  ];
}
