import { Type } from '@sinclair/typebox';
import { ED25519_PUBLIC_KEY_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES } from '../../abi/constants.js';
import { encodeAccount, encodeEvm, deriveAccount } from '../../codec/address.js';
import { fromHex } from '../../codec/hash.js';
import { generateEd25519 } from '../../codec/keys.js';
import { clientVersion, CLIENT_NAME, NODE_VERSION } from '../../version.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { HexBytes, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';

/** The key type of a public key by its length (spec §2.5; sizes from abi/constants.mjs, docs/addresses-and-keys.md "Keys"). */
const KEY_TYPES: Record<number, string> = { [ED25519_PUBLIC_KEY_BYTES]: 'Ed25519', [ML_DSA_65_PUBLIC_KEY_BYTES]: 'ML-DSA-65' };

/** A public key as its bytes and key type, parsed once (issue 44 item 4): its length decides the type. */
const PublicKeyParam = () => parsed(HexBytes({ maxBytes: ML_DSA_65_PUBLIC_KEY_BYTES }), (hex, param, position) => {
  const publicKey = fromHex(hex, undefined, param);
  const keyType = KEY_TYPES[publicKey.length];
  if (!keyType) throw RpcError.invalidParam(param, position, 'a 32-byte Ed25519 or 1,952-byte ML-DSA-65 public key', { bytes: publicKey.length });
  return { publicKey, keyType };
});

/** Spec §4.17 node and utility methods of the foundation. */
export function nodeMethods({ chain, readers, network, validator }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_version',
      summary: 'Node version, network and chain ID (spec §4.17, §9.3).',
      description: 'The node\'s version, client string, network, EIP-155 chain ID and the validator address it produces blocks as (spec §4.17, §9.3).'
        + ' No application errors.',
      params: [] as const,
      result: {
        description: '`{version, client, network, chain_id, validator}`',
        name: 'version',
        schema: Type.Object({
          version: Type.String(), client: Type.String(), network: Type.String(), chain_id: Type.Integer(),
          validator: Type.String({ description: 'Nx0… address of this node\'s validator key' }),
        }),
      },
      handler: () => ({
        version: NODE_VERSION, client: `${CLIENT_NAME}/${NODE_VERSION}`, network, chain_id: chain.chainId,
        validator: encodeAccount(validator.address),
      }),
    }),
    defineMethod({
      name: 'svc_generateKeypair',
      summary: 'A fresh Ed25519 keypair (testnet only; disabled on mainnet, spec §2.5, §5.6). Never reuse testnet keys on mainnet.',
      description: 'Makes an Ed25519 keypair on the node and returns its secret: for testnet experiments only (spec §2.5, §5.6); the address is Nx0 +'
        + ' base58(SHA256(public key)). Errors: UNAVAILABLE_ON_NETWORK on mainnet.',
      params: [] as const,
      result: {
        description: '`{address, public_key, secret_key, key_type: "Ed25519"}`; testnet only',
        name: 'keypair',
        schema: Type.Object({
          address: Type.String(), public_key: Type.String({ description: '64 hex chars' }),
          secret_key: Type.String({ description: '64 hex chars (the Ed25519 seed)' }), key_type: Type.Literal('Ed25519'),
        }),
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code],
      handler: () => {
        if (network !== 'testnet') throw RpcError.app('UNAVAILABLE_ON_NETWORK', 'svc_generateKeypair is disabled on mainnet; generate keys offline');
        const { seed, publicKey } = generateEd25519();
        return {
          address: encodeAccount(deriveAccount(publicKey)),
          public_key: Buffer.from(publicKey).toString('hex'),
          secret_key: Buffer.from(seed).toString('hex'),
          key_type: 'Ed25519' as const,
        };
      },
    }),
    defineMethod({
      name: 'svc_deriveAddress',
      summary: 'The account address of a public key: Nx0 + base58(SHA256(public key)) (spec §1.6, §5.4).',
      paramsNote: '— 32-byte Ed25519 or 1,952-byte ML-DSA-65 key',
      description: 'Computes the account of a public key without touching state (spec §1.6, §5.4): 32 bytes are Ed25519, 1,952 bytes ML-DSA-65; other'
        + ' lengths are -32602. No application errors.',
      params: [{ name: 'pubkey_hex', schema: PublicKeyParam() }] as const,
      result: {
        description: '`{address, evm_address, key_type}`',
        name: 'address',
        schema: Type.Object({ address: Type.String(), evm_address: Type.String(), key_type: Type.String() }),
      },
      handler: ([{ publicKey, keyType }]) => {
        const account = deriveAccount(publicKey);
        return { address: encodeAccount(account), evm_address: encodeEvm(account), key_type: keyType };
      },
    }),
    defineMethod({
      name: 'web3_clientVersion',
      summary: 'Client name and version in the form EVM tooling expects (spec §4.18, §9.3).',
      description: 'The client name and version, "ntv-node/<version>", as EVM tooling prints it (spec §4.18, §9.3). No application errors.',
      params: [] as const,
      result: {
        name: 'version', schema: Type.String(),
        description: '`ntv-node/v<version>/<platform>/node<version>`',
      },
      handler: () => clientVersion(),
    }),
  ];
}
