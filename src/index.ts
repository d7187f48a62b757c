/**
 * The package's main entry, `import … from 'ntv-node'` (issue 42 item 9; package.json "exports"):
 * the client library a wallet or service builds on, in Node — JSON-RPC client, signing wallet,
 * keys, the bundle and address codecs, and state proofs. The node itself runs from the CLI
 * (`npx ntv-node run`); its internals are not part of this surface. The browser build is
 * `ntv-node/browser` (src/browser/index.ts). Hashing (Blake3) is WebAssembly: call
 * `initHashing()` once before encoding addresses or hashing bundles outside a Wallet.
 */
export * from './client/index.js';
export {
  ACCOUNT_PREFIX, AddressError, HASH_PREFIX, MINT_PREFIX, NATIVE_MINT, accountAddressOf, deriveAccount, encodeAccount, encodeEvm, encodeHash, encodeMint,
  isAddress, parseAddress, parseAddressDetailed, parseHash, parseMint,
} from './codec/address.js';
export type { AddressErrorCode, AddressKind, ParsedAddress } from './codec/address.js';
export { CodecError, bundleHash, decodeBundle, decodeBundleHex, encodeBundle, encodeForSigning, signingHash } from './codec/bundle.js';
export type { Bundle, CodecErrorCode, Operation } from './codec/bundle.js';
export { blake3, fromHex, initHashing, sha256, toHex } from './codec/hash.js';
export { KeyType, Signer, generateEd25519, generateMlDsa65, parseKeyType, signBundle, verifyBundleSignature, verifySignature } from './codec/keys.js';
export type { KeyTypeName } from './codec/keys.js';
export { NODE_VERSION } from './version.js';
