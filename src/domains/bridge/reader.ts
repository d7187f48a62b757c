// The bridge on the host side (spec §4.6; docs/bridge.md): the chains and fees the core serves,
// the ids it derives, and a reader of its records (0x48–0x4C) and the contract safety records
// (0x5B, set by governance). The rules are the core's (assembly/domains/bridge/ops.ts); the checks here
// only give RPC callers a clear error before a bundle is built.

import { Prefix } from '../../abi/constants.js';
import {
  BRIDGE_CONFIG_KEY, bridgeDepositKey, decodeBridgeConfigFields, decodeBridgeDepositRecordFields, decodeBridgeMappingFields,
  decodeBridgedTokenFields, decodeBridgeWithdrawalRecordFields, decodeContractSafetyFields, bridgeTokenKey, bridgeWithdrawalKey,
  type BridgeDepositRecordFields, type BridgeMappingFields, type BridgeWithdrawalRecordFields, type ContractSafetyFields,
} from '../../abi/state.js';
import { blake3 } from '../../codec/hash.js';
import type { StateReader, WatchableState } from '../../chain/state-reader.js';

/** docs/bridge.md "Chains": the chains the bridge serves and their withdrawal fee (raw NTV); the core's table (assembly/domains/bridge/ops.ts). */
export const BRIDGE_CHAINS: ReadonlyArray<{ chain: string; fee: bigint }> = [
  { chain: 'ethereum', fee: 2_000_000_000n }, { chain: 'solana', fee: 500_000_000n }, { chain: 'base', fee: 500_000_000n },
  { chain: 'bsc', fee: 500_000_000n }, { chain: 'polygon', fee: 500_000_000n }, { chain: 'arbitrum', fee: 500_000_000n },
  { chain: 'optimism', fee: 500_000_000n }, { chain: 'avalanche', fee: 500_000_000n }, { chain: 'bitcoin', fee: 2_000_000_000n },
  { chain: 'monad', fee: 500_000_000n }, { chain: 'dogecoin', fee: 1_000_000_000n }, { chain: 'litecoin', fee: 1_000_000_000n },
  { chain: 'ton', fee: 500_000_000n },
];
/** Chain, contract and destination texts: 1 to this many bytes (abi/constants.mjs). */
export { BRIDGE_MAX_TEXT } from '../../abi/constants.js';
const enc = new TextEncoder();

export function isBridgeChain(chain: string): boolean {
  return BRIDGE_CHAINS.some((c) => c.chain === chain);
}

function tagged(tag: string, a: string, b: string): Uint8Array {
  const parts = [enc.encode(tag), enc.encode(a), new Uint8Array([0]), enc.encode(b)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return blake3(out);
}
/** Blake3("bridge-deposit" ‖ chain ‖ 0 ‖ tx_hash): a deposit's id (0x49). */
export const depositId = (chain: string, txHash: string) => tagged('bridge-deposit', chain, txHash);
/** Blake3("bridge-mapping" ‖ chain ‖ 0 ‖ contract) (0x4A). */
export const mappingTarget = (chain: string, contract: string) => tagged('bridge-mapping', chain, contract);
/** Blake3("contract-safety" ‖ chain ‖ 0 ‖ contract) (0x5B, docs/governance.md "Safety levels"). */
export const safetyTarget = (chain: string, contract: string) => tagged('contract-safety', chain, contract);
/** Blake3("<chain>_<SYMBOL>"): a bridge-canonical mint (spec §1.7). */
export const canonicalBridgeMint = (chain: string, symbol: string) => blake3(enc.encode(`${chain}_${symbol}`));

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * The bridge's records, indexed as state loads and as each block lands (StateView.watch): deposits
 * by recipient, withdrawals by sender, mappings and safety records by chain. Deposit, withdrawal
 * and mapping records are never deleted; safety records are (level 0 clears one).
 */
export class BridgeReader {
  private readonly deposits = new Map<string, BridgeDepositRecordFields>();
  private readonly withdrawals = new Map<bigint, BridgeWithdrawalRecordFields & { sequence: bigint }>();
  private readonly mappings = new Map<string, BridgeMappingFields>();
  private readonly safety = new Map<string, ContractSafetyFields>();

  constructor(private readonly state: WatchableState) {
    state.watch(Prefix.BRIDGE_DEPOSIT, (key, value) => {
      if (value) this.deposits.set(hex(key.subarray(1)), decodeBridgeDepositRecordFields(value));
    });
    state.watch(Prefix.BRIDGE_WITHDRAWAL, (key, value) => {
      const seq = Buffer.from(key.subarray(1)).readBigUInt64BE(0);
      if (value) this.withdrawals.set(seq, { ...decodeBridgeWithdrawalRecordFields(value), sequence: seq });
    });
    state.watch(Prefix.BRIDGE_MAPPING, (key, value) => {
      if (value) this.mappings.set(hex(key.subarray(1)), decodeBridgeMappingFields(value));
    });
    state.watch(Prefix.CONTRACT_SAFETY, (key, value) => {
      if (value) this.safety.set(hex(key.subarray(1)), decodeContractSafetyFields(value));
      else this.safety.delete(hex(key.subarray(1)));
    });
  }

  /** The attester set, or undefined when the bridge has none. */
  config(): { threshold: number; attesters: Uint8Array[]; nextSequence: bigint } | undefined {
    const v = this.state.get(BRIDGE_CONFIG_KEY);
    if (!v) return undefined;
    const c = decodeBridgeConfigFields(v);
    return { threshold: c.threshold, attesters: c.attesters, nextSequence: c.nextSequence };
  }

  deposit(chain: string, txHash: string): BridgeDepositRecordFields | undefined {
    const v = this.state.get(bridgeDepositKey(depositId(chain, txHash)));
    return v ? decodeBridgeDepositRecordFields(v) : undefined;
  }

  withdrawal(sequence: bigint): (BridgeWithdrawalRecordFields & { sequence: bigint }) | undefined {
    const v = this.state.get(bridgeWithdrawalKey(sequence));
    return v ? { ...decodeBridgeWithdrawalRecordFields(v), sequence } : undefined;
  }

  /** Deposits held as pending receives, oldest first; for one recipient when given. */
  pending(recipient?: Uint8Array): BridgeDepositRecordFields[] {
    return [...this.deposits.values()].filter((d) => d.state === 0 && (!recipient || hex(d.recipient) === hex(recipient)))
      .sort((a, b) => Number(a.height - b.height));
  }

  /** An account's deposits (as recipient) and withdrawals (as sender), newest first. */
  history(account: Uint8Array, limit: number): Array<{ kind: 'deposit'; record: BridgeDepositRecordFields } | { kind: 'withdrawal'; record: BridgeWithdrawalRecordFields & { sequence: bigint } }> {
    const a = hex(account);
    const out: Array<{ kind: 'deposit'; record: BridgeDepositRecordFields; height: bigint } | { kind: 'withdrawal'; record: BridgeWithdrawalRecordFields & { sequence: bigint }; height: bigint }> = [];
    for (const d of this.deposits.values()) if (hex(d.recipient) === a) out.push({ kind: 'deposit', record: d, height: d.height });
    for (const w of this.withdrawals.values()) if (hex(w.sender) === a) out.push({ kind: 'withdrawal', record: w, height: w.height });
    return out.sort((x, y) => (y.height > x.height ? 1 : y.height < x.height ? -1 : 0)).slice(0, limit).map(({ kind, record }) => ({ kind, record }) as never);
  }

  /** Registered mappings (svc_registerBridgeMapping), for one chain when given. */
  registeredMappings(chain?: string): BridgeMappingFields[] {
    return [...this.mappings.values()].filter((m) => chain === undefined || m.chain === chain);
  }

  contractSafety(chain: string, contract: string): ContractSafetyFields | undefined {
    const v = this.state.get(Uint8Array.of(Prefix.CONTRACT_SAFETY, ...safetyTarget(chain, contract)));
    return v ? decodeContractSafetyFields(v) : undefined;
  }

  /** Contract safety records, newest first, for one chain when given. */
  listSafety(chain: string | undefined, limit: number): ContractSafetyFields[] {
    return [...this.safety.values()].filter((s) => chain === undefined || s.chain === chain)
      .sort((a, b) => (b.height > a.height ? 1 : b.height < a.height ? -1 : 0)).slice(0, limit);
  }

  /** What the bridge minted and burned of a token, or undefined when it never touched it. */
  bridged(mint: Uint8Array): { impersonation: boolean; deposited: bigint; withdrawn: bigint } | undefined {
    const v = this.state.get(bridgeTokenKey(mint));
    if (!v) return undefined;
    const b = decodeBridgedTokenFields(v);
    return { impersonation: (b.flags & 1) !== 0, deposited: b.deposited, withdrawn: b.withdrawn };
  }
}

/** A reader over plain state (no index), for code that has only a StateReader. */
export function readDeposit(state: StateReader, chain: string, txHash: string): BridgeDepositRecordFields | undefined {
  const v = state.get(bridgeDepositKey(depositId(chain, txHash)));
  return v ? decodeBridgeDepositRecordFields(v) : undefined;
}
