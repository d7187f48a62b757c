/**
 * The bridge's wallet helpers (26, 71–76; docs/bridge.md). A deposit proof is the attesters' signed
 * BridgeDeposit fields (src/domains/bridge/proofs.ts decodeDepositProof); only the first operation of a
 * bundle. Composed into Wallet (src/client/wallet.ts).
 */
import { parseMint } from '../../codec/address.js';
import { decodeDepositProof, type DepositProof } from './proofs.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount } from '../../client/args.js';

export class BridgeClient {
  /** BridgeDeposit (26): credit an attested deposit (hex or decoded proof) to its recipient. */
  async bridgeDeposit(this: WalletCore, proof: string | DepositProof, opts: BundleOptions = {}): Promise<SubmitResult> {
    const p = typeof proof === 'string' ? decodeDepositProof(fromHexText(proof)) : proof;
    return this.sendOperation({ type: 'BridgeDeposit', ...p }, opts);
  }

  /** ClaimBridgeDeposit (74): complete a pending receive once its coin can take it. */
  async claimBridgeDeposit(this: WalletCore, chain: string, txHash: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ClaimBridgeDeposit', chain, txHash }, opts);
  }

  /** BridgeWithdraw (71): burn `amount` of a bridged or STD-8 token for `destination` on `chain`; the chain's NTV fee goes to the treasury. */
  async bridgeWithdraw(this: WalletCore, token: string | Uint8Array, amount: Amount, chain: string, destination: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'BridgeWithdraw', token: typeof token === 'string' ? parseMint(token) : token, amount: toBigInt(amount, 'amount'), chain, destination }, opts);
  }

  /** RegisterBridgeMapping (72): foundation or governance only (a multi-sig or proposal carries it on mainnet). */
  async registerBridgeMapping(this: WalletCore, chain: string, contract: string, mint: string | Uint8Array, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RegisterBridgeMapping', chain, contract, mint: typeof mint === 'string' ? parseMint(mint) : mint }, opts);
  }
}

function fromHexText(text: string): Uint8Array {
  const body = text.startsWith('0x') ? text.slice(2) : text;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw new RangeError('proof: hex text expected');
  return new Uint8Array(Buffer.from(body, 'hex'));
}
