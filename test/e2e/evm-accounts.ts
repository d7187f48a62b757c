// Fresh EVM accounts funded by the testnet's system accounts, for the wallet-library tests
// (eth-tools, eth-wallets, allowances): one place for how they are made and paid.
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestNode } from './harness.js';

export const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
export const SYSTEM_USDC = `0x${'00'.repeat(31)}07`;

/** A fresh EVM key with `ntv` nanoNTV for fees and `usdcRaw` USDC. */
export async function fundedEvm(node: TestNode, ntv: bigint, usdcRaw = 0n) {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await node.result('svc_transfer', [SYSTEM_NTV, account.address, 'NTV', ntv.toString()]);
  if (usdcRaw > 0n) await node.result('svc_transfer', [SYSTEM_USDC, account.address, 'USDC', usdcRaw.toString()]);
  return { key, account };
}

/** USDC's ERC-20 address (its mint's EVM form). */
export async function usdcEvmAddress(node: TestNode): Promise<Hex> {
  const info = await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC']);
  return (await node.result<{ evm_address: string }>('svc_getAccount', [info.mint_address])).evm_address as Hex;
}

/** A web3.js error's messages with its causes' (web3 wraps the node's answer in `cause` / `innerError`). */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as { message?: string; cause?: unknown; innerError?: unknown } | undefined, i = 0; e && i < 8; e = (e.cause ?? e.innerError) as typeof e, i++) parts.push(String(e.message ?? e));
  return parts.join(' | ');
}
