import { Type } from '@sinclair/typebox';
import { encodeHash, parseAddressDetailed } from '../../codec/address.js';
import { toHex } from '../../codec/hash.js';
import { isProvableKey } from '../../codec/state-proof.js';
import { decodeStoredBlock } from '../../chain/block.js';
import { decodeEpochRecord } from '../../chain/epoch-record.js';
import { MAX_EPOCH_RECORDS_PER_REQUEST } from '../../chain/epoch-records.js';
import { accountKey, balanceKey, decodeBalance } from '../../core/records.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Height } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { pastHeight, positionIn, tokenParam } from './params.js';

/**
 * The methods auditors and light embedders read (docs/replay.md): blocks exactly as stored, for
 * replay through the core, and state proofs against a header's state root.
 */

const Hex = (description: string) => Type.String({ pattern: '^([0-9a-f]{2})*$', description });

const RawBlockSchema = Type.Object({
  height: Type.Integer(),
  hash: Type.String({ description: 'Nxh… block hash' }),
  block: Hex('the stored block bytes (docs/replay.md "Format"): u32 LE header JSON length, the header JSON, u32 LE bundle count, then per bundle u32 LE length and its Borsh bytes'),
  certificate: Hex('the finality certificate (docs/consensus.md "Certificates"); empty when the block has none (the genesis block, a proposer holding > 2/3 of the stake alone)'),
  result: Type.Union([Hex('the core\'s BlockResult bytes for the block (docs/core-abi.md "Input and output layouts"): per bundle status, gas, fee and nonce, then the events'), Type.Null()], {
    description: 'null for the genesis block',
  }),
  genesis: Type.Optional(Type.Union([Hex('height 0 only: the encoded GenesisConfig (docs/core-abi.md) whose commit is the genesis block\'s state'), Type.Null()], {
    description: 'height 0 only; null when this node\'s genesis flags do not give its stored genesis block',
  })),
}, { title: 'RawBlock', additionalProperties: false });

const ProofSchema = Type.Object({
  height: Type.Integer({ description: 'the block whose state root the proof is against: the durable head, or the height asked for' }),
  block_hash: Type.String({ description: 'Nxh… hash of that block' }),
  state_root: Type.String({ description: 'Nxh… its header\'s stateRoot' }),
  key: Hex('the state key proven (docs/core-abi.md "State layout")'),
  value: Type.Union([Hex('the value stored under the key'), Type.Null()], { description: 'null: an absence proof' }),
  balance: Type.Optional(Type.String({ description: 'with a token: the balance the value encodes, raw units (0 when absent)' })),
  proof: Type.Object({
    bucket: Type.Integer({ minimum: 0, maximum: 65535, description: 'the first two bytes of Blake3(key), big-endian' }),
    entries: Hex('the bucket\'s record: its (path [32] ‖ leaf [32]) entries sorted by path'),
    siblings: Type.Array(Hex('32 bytes'), { minItems: 16, maxItems: 16, description: 'sibling hashes from the bucket\'s leaf node up to a child of the root' }),
  }),
}, { title: 'StateProof', additionalProperties: false });

const EpochRecordSchema = Type.Object({
  height: Type.Integer({ description: 'the boundary block\'s height (a multiple of the epoch length; 0 is genesis)' }),
  hash: Type.String({ description: 'Nxh… its block hash' }),
  checkpoint: Type.String({ description: '`height:hash`, the form LightClient and `--light --checkpoint` take' }),
  record: Hex('the epoch record (docs/light-client.md "Epoch records"): Borsh { header, certificate, set_proof }, the header cut from the stored block, its finality certificate and the validator-set proof against its state root'),
}, { additionalProperties: false });

const EpochProofsSchema = Type.Object({
  epoch_length: Type.Integer({ description: 'blocks per epoch (chain parameters)' }),
  head: Type.Integer({ description: 'the durable head' }),
  records: Type.Array(EpochRecordSchema, { description: 'the records of consecutive boundaries from the first at or above from_height, oldest first' }),
}, { title: 'EpochProofs', additionalProperties: false });

const KEY_EXPECTED = 'an address (Nx0…/Nx1… base58, or 0x + 40 or 64 hex digits) or a state key (0x + hex, not 20 or 32 bytes)';

/** svc_getProof's params: the first is parsed against the second in the handler (stateKeyParam), named at its registry position. */
const proofParams = [
  { name: 'key_or_address', schema: Type.String({ minLength: 1, maxLength: 1026, description: 'an address (with `token`: its balance; without: its account record) or a state key as 0x + hex' }) },
  { name: 'token', schema: Type.String({ minLength: 1, maxLength: 66, description: 'symbol or mint: prove the address\'s balance of it' }), required: false },
  {
    name: 'height', schema: Height({ description: 'the block whose state root the proof is against (default: the head); every block on an archive node, the last 128 at least on a pruning one (docs/storage.md "State history")' }),
    required: false,
  },
] as const;

export function auditMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_getRawBlock',
      summary: 'A block exactly as stored, with its finality certificate and execution result, for replay through the core (docs/replay.md).',
      description: 'The block\'s stored bytes, its finality certificate and the core\'s execution result, as hex, so a replay (`ntv-node replay --rpc`,'
        + ' the browser build) re-executes it through the core without reconstructing anything; at height 0 also the encoded GenesisConfig.'
        + ' Format in docs/replay.md. Errors: NOT_FOUND above the durable head.',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        name: 'block', schema: RawBlockSchema,
        description: '`{height, hash, block, certificate, result, genesis?}`: hex of the block\'s stored bytes, its finality certificate (empty when it'
          + ' has none) and the core\'s execution result (`null` for the genesis block); at height 0 also `genesis`, the encoded GenesisConfig'
          + ' (or `null` when this node\'s genesis flags do not give its block 0); `-32003` above the durable head. Format in'
          + ' [replay.md](replay.md) "Format"',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([height]) => {
        const raw = await chain.rawBlock(height);
        if (!raw) throw RpcError.app('NOT_FOUND', `no block at height ${height} (the head is ${chain.height})`, { height, head: chain.height });
        const { hash } = decodeStoredBlock(raw.block).header;
        const genesis = height === 0 ? await chain.genesisInput() : undefined;
        return {
          height, hash: encodeHash(hash), block: toHex(raw.block), certificate: toHex(raw.certificate), result: raw.result ? toHex(raw.result) : null,
          ...(height === 0 ? { genesis: genesis ? toHex(genesis) : null } : {}),
        };
      },
    }),
    defineMethod({
      name: 'svc_getEpochProofs',
      summary: 'Epoch records from a height on: each epoch boundary block\'s header, finality certificate and validator-set proof, for a light client that starts from a checkpoint (docs/light-client.md).',
      paramsNote: '— records of the epoch boundaries at or above `from_height` (default 0), at most `limit` (default 16, 1–64)',
      description: 'The epoch records of consecutive epoch boundaries from the first at or above from_height: each boundary block\'s header (the'
        + ' stored encoding cut after it), its finality certificate and the validator-set proof against its state root, taken when that'
        + ' block was the head and kept whatever the pruning mode. A light client starts from one (its `checkpoint`, height:hash) and'
        + ' crosses each later boundary with the next, checking headers by certificates alone (docs/light-client.md). Errors:'
        + ' UNAVAILABLE_ON_NODE when this node holds no record of the first boundary asked (restored from a snapshot after it).',
      params: [
        { name: 'from_height', schema: Height({ description: 'records of the boundaries at or above this height (default 0: genesis on)' }), required: false },
        { name: 'limit', schema: Type.Integer({ minimum: 1, maximum: MAX_EPOCH_RECORDS_PER_REQUEST, description: `records at most (default 16, at most ${MAX_EPOCH_RECORDS_PER_REQUEST})` }), required: false },
      ] as const,
      result: {
        name: 'proofs', schema: EpochProofsSchema,
        description: '`{epoch_length, head, records[{height, hash, checkpoint, record}]}`: per boundary block (height `k × epoch_length`, genesis'
          + ' included) its `height:hash` checkpoint and the hex epoch record (its header, finality certificate and validator-set proof'
          + ' against its state root, Borsh); consecutive, stopping before the first boundary this node holds no record of; `-32013` when it'
          + ' holds none of the first. Kept whatever the pruning mode. [light-client.md](light-client.md)',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NODE.code],
      handler: async ([fromHeight, limit]) => {
        const head = chain.height;
        const { first, records } = await chain.epochs.range(fromHeight ?? 0, head, limit ?? 16);
        if (records.length === 0 && first <= head) {
          throw RpcError.app('UNAVAILABLE_ON_NODE', `this node holds no epoch record of boundary ${first} (it was restored from a snapshot or export after it, ran a version without epoch records then, or crashed right after that block): ask another node`, { height: first, head });
        }
        return {
          epoch_length: chain.epochs.epochLength, head,
          records: records.map(({ height, bytes }) => {
            const hash = encodeHash(decodeEpochRecord(bytes).header.hash);
            return { height, hash, checkpoint: `${height}:${hash}`, record: toHex(bytes) };
          }),
        };
      },
    }),
    defineMethod({
      name: 'svc_getProof',
      summary: 'A state value with its inclusion (or absence) proof against the state root of the head block, or of the block at `height` (docs/replay.md "State proofs", docs/storage.md "State history").',
      paramsNote: '— an address (with `token`: its balance; without: its account record) or a state key as `0x` hex; `height`: the block whose state'
        + ' root the proof is against (default the head; past blocks as for `svc_getBalance`)',
      description: 'The value under a state key (an address\'s account record, or with a token its balance, or a raw 0x key) with the bucket record'
        + ' and 16 sibling hashes that prove it, or its absence, against the durable head\'s state root (docs/replay.md "State proofs";'
        + ' verify with the client library\'s verifyBalanceProof/verifyProofResult against a header you verified). Errors: UNKNOWN_TOKEN;'
        + ' NOT_FOUND for a height above the head; UNAVAILABLE_ON_NODE (-32013) for a height below the state window, naming the oldest'
        + ' height served (docs/storage.md "State history").',
      params: proofParams,
      result: {
        name: 'proof', schema: ProofSchema,
        description: '`{height, block_hash, state_root, key, value, balance?, proof {bucket, entries, siblings[16]}}`: the value (`null` when absent)'
          + ' as of that block with its inclusion or absence proof against that block\'s state root (the node checks it before answering);'
          + ' `-32003` for a height above the head, `-32013` below the state window (`data.oldest_height`), `-32009` unknown token, `-32602` a'
          + ' malformed key or a 0xF0/0xF1 tree key',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NODE.code],
      handler: async ([keyOrAddress, token, height]) => {
        const key = stateKeyParam(keyOrAddress, token, readers.tokens);
        const { header, proof } = height === undefined || height === null ? chain.stateProof(key.key) : await chain.stateProofAt(key.key, pastHeight(chain, height));
        return {
          height: header.height, block_hash: encodeHash(header.hash), state_root: encodeHash(header.stateRoot),
          key: toHex(proof.key), value: proof.value ? toHex(proof.value) : null,
          ...(key.balance ? { balance: (proof.value ? decodeBalance(proof.value) : 0n).toString() } : {}),
          proof: { bucket: proof.bucket, entries: toHex(proof.entries), siblings: proof.siblings.map(toHex) },
        };
      },
    }),
  ];
}

/** svc_getProof's first two params as a state key: an address's balance or account record, or a raw key. */
function stateKeyParam(value: string, token: string | undefined | null, tokens: MethodDependencies['readers']['tokens']): { key: Uint8Array; balance: boolean } {
  let address: Uint8Array | undefined;
  try {
    const parsed = parseAddressDetailed(value);
    if (parsed.kind !== 'hash') address = parsed.bytes;
  } catch {
    // not an address: a raw state key below
  }
  if (address) {
    if (token === undefined || token === null) return { key: accountKey(address), balance: false };
    return { key: balanceKey(address, tokenParam(tokens, token).mint), balance: true };
  }
  if (token !== undefined && token !== null) throw RpcError.invalidParam('key_or_address', positionIn(proofParams, 'key_or_address'), 'an address when a token is given');
  const match = /^0x((?:[0-9a-fA-F]{2})+)$/.exec(value);
  if (!match) throw RpcError.invalidParam('key_or_address', positionIn(proofParams, 'key_or_address'), KEY_EXPECTED);
  const key = new Uint8Array(Buffer.from(match[1]!, 'hex'));
  if (!isProvableKey(key)) throw RpcError.invalidParam('key_or_address', positionIn(proofParams, 'key_or_address'), 'a state key: prefixes 0xF0 and above are the state tree itself (docs/core-abi.md "State root")');
  return { key, balance: false };
}
