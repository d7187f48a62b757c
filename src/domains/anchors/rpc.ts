import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeHash } from '../../codec/address.js';
import { anchorKeyProblem, listAnchors, namespaceProblem, readAnchor, readNamespace } from './reader.js';
import type { AnchorFields } from '../../abi/state.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, HashParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Anchoring (spec §4.7; docs/anchors.md): svc_anchor is the unsigned convenience form (testnet
 * only) of the Anchor operation; the reads answer from committed state (src/domains/anchors/reader.ts).
 */

const namespaceString = () => Type.String({ minLength: 1, maxLength: 64, description: "namespace: 1–64 of a-z, 0-9, '.', '_' and '-'; owned by the account that anchored in it first" });
const keyString = () => Type.String({ minLength: 1, maxLength: 256, description: 'anchor key: 1–256 bytes of UTF-8; write-once' });
const Int = (description: string) => Type.Integer({ description });
const NullableInt = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
const NullableStr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const AnchorSchema = Type.Object({
  key: Type.String(),
  value_hash: Type.String({ description: 'Nxh… the anchored hash' }),
  anchorer: Type.String({ description: 'Nx0… account that anchored it (the namespace owner)' }),
  height: Int('block that anchored it'),
  time: Int('unix seconds of that block'),
  index: Int('its position in the namespace, from 0'),
}, { title: 'Anchor', additionalProperties: false });

function namespaceParam(ns: string, param: string, position: number): string {
  const problem = namespaceProblem(ns);
  if (problem) throw RpcError.invalidParam(param, position, "1–64 characters of a-z, 0-9, '.', '_' and '-'", { reason: problem });
  return ns;
}
function keyParam(key: string, param: string, position: number): string {
  const problem = anchorKeyProblem(key);
  if (problem) throw RpcError.invalidParam(param, position, '1–256 bytes of UTF-8', { reason: problem });
  return key;
}
/** Params parsed once (issue 44 item 4): the registry checks a namespace or key at its own position. */
const Namespace = () => parsed(namespaceString(), namespaceParam);
const Key = () => parsed(keyString(), keyParam);
const anchorJson = (a: AnchorFields) => ({
  key: a.key, value_hash: encodeHash(a.valueHash), anchorer: encodeAccount(a.anchorer), height: Number(a.height), time: Number(a.time), index: Number(a.index),
});

export function anchorMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_getAnchorsByAccount',
      summary: "An account's anchors across its namespaces, newest first (for the explorer's address page; docs/anchors.md).",
      description: 'Each with its namespace, key, value hash, height and time; limit 1–1000, default 100. No application errors.',
      params: [{ name: 'address', schema: AccountParam() }, { name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: {
        name: 'anchors', schema: Type.Array(Type.Object({ namespace: Type.String(), ...AnchorSchema.properties }, { additionalProperties: false })),
        description: 'the account\'s anchors, newest first',
      },
      handler: ([address, limit]) => readers.anchors.byAnchorer(address, limit ?? 100).map((a) => ({ namespace: a.namespace, ...anchorJson(a) })),
    }),
    defineMethod({
      name: 'svc_anchor',
      summary: 'Anchor a 32-byte value hash under a namespace and key (spec §4.7; unsigned convenience, testnet only).',
      description: 'The first account to anchor in a namespace owns it; only it may anchor more keys there. A key is write-once. '
        + 'BUNDLE_FAILED with NOT_NAMESPACE_OWNER or ANCHOR_EXISTS. docs/anchors.md.',
      params: [
        { name: 'namespace', schema: Namespace() },
        { name: 'key', schema: Key() },
        { name: 'value_hash', schema: HashParam({ description: 'the 32-byte hash to anchor (Nxh… or 0x + 64 hex), e.g. the SHA-256 or Blake3 of a document' }) },
        { name: 'sender', schema: AccountParam({ description: 'the anchoring account' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; testnet only (signed `Anchor` bundle elsewhere)',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: ([namespace, key, valueHash, sender]) => chain.submitOperations(sender, [{ type: 'Anchor', namespace, key, valueHash }]),
    }),
    defineMethod({
      name: 'svc_getAnchors',
      summary: "A namespace's owner, anchor count and latest anchors, newest first (spec §4.7); an unused namespace has no owner and no anchors.",
      description: 'limit 1–1000, default 100. The namespace owner is the account that anchored in it first (docs/anchors.md). No application errors.',
      params: [
        { name: 'namespace', schema: Namespace() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        description: '`{namespace, owner, count, anchors}` newest first',
        name: 'anchors',
        schema: Type.Object({
          namespace: Type.String(),
          owner: NullableStr('Nx0… owner (its first writer), null when nothing was anchored in it'),
          count: Int('anchors in the namespace'),
          anchors: Type.Array(AnchorSchema),
        }, { additionalProperties: false }),
      },
      handler: ([namespace, limit]) => {
        const info = readNamespace(chain.state, namespace);
        return {
          namespace,
          owner: info ? encodeAccount(info.owner) : null,
          count: info ? Number(info.count) : 0,
          anchors: listAnchors(chain.state, namespace, limit ?? 100).map(anchorJson),
        };
      },
    }),
    defineMethod({
      name: 'svc_verifyAnchor',
      summary: 'Whether a key is anchored in a namespace, with its value hash, anchoring account, height and time (spec §4.7).',
      description: 'exists false, with null metadata, when the key was never anchored in the namespace. Compare value_hash with the hash of your copy of the data. No application errors.',
      params: [{ name: 'namespace', schema: Namespace() }, { name: 'key', schema: Key() }] as const,
      result: {
        description: '`{exists, namespace, key, value_hash, anchorer, height, time, index}`',
        name: 'verification',
        schema: Type.Object({
          exists: Type.Boolean(),
          namespace: Type.String(),
          key: Type.String(),
          value_hash: NullableStr('Nxh… the anchored hash'),
          anchorer: NullableStr('Nx0… account that anchored it'),
          height: NullableInt('block that anchored it'),
          time: NullableInt('unix seconds of that block'),
          index: NullableInt('its position in the namespace'),
        }, { additionalProperties: false }),
      },
      handler: ([namespace, key]) => {
        const a = readAnchor(chain.state, namespace, key);
        if (!a) return { exists: false, namespace, key, value_hash: null, anchorer: null, height: null, time: null, index: null };
        return { exists: true, namespace, ...anchorJson(a) };
      },
    }),
  ];
}
