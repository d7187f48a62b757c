// The governance authority 0x00…09 on a fresh testnet node, exactly as docs/stablecoins.md
// "Authorities" tells a user to use it (issue 41 item 9): svc_createStableToken with sender
// 0x00…09 succeeds although the authority has no genesis NTV (the convenience path tops it up from
// the faucet account, src/chain/governance-fee.ts), and every answer shows the authority in spec
// §1.6's 0x 32-byte form, not as Nx01111…A.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNode } from './harness.js';

const GOV = `0x${'00'.repeat(31)}09`;
const FAUCET = `0x${'00'.repeat(31)}07`;
const NTV = 1_000_000_000n;
const acct = (n: number) => `0x${'cd'.repeat(30)}${n.toString(16).padStart(4, '0')}`;

interface Event { type: string; [k: string]: unknown }
interface Receipt { status: string; from: string; bundle_hash: string; block_height: number; fee: string; events: Event[]; created?: { mint?: string } }

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '0.5'] });
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('the governance authority on testnet', () => {
  it('svc_createStableToken with sender 0x00…09 works on a fresh node, paying its fee from a faucet top-up', async () => {
    expect(BigInt(await node.result<string>('svc_getBalance', [GOV, 'NTV']))).toBe(0n);
    const faucetBefore = BigInt(await node.result<string>('svc_getBalance', [FAUCET, 'NTV']));
    const created = await node.result<Receipt>('svc_createStableToken', [{
      name: 'Gov Dollar', symbol: 'GUSD', decimals: 6, currency: 'USD', issuer: 'Gov Test', owner: GOV, master_minter: acct(1), pauser: acct(2), blacklister: acct(3),
    }, GOV]);
    expect(created.status).toBe('success');
    // spec §1.6: the system address in its 0x 32-byte form wherever it is shown
    expect(created.from).toBe(GOV);
    expect(created.events.find((e) => e.type === 'Fee')).toMatchObject({ payer: GOV });
    expect(created.events.find((e) => e.type === 'StableCreated')).toMatchObject({ owner: GOV });
    expect(created.events.find((e) => e.type === 'TokenCreated')).toMatchObject({ creator: GOV });
    expect(JSON.stringify(created)).not.toContain('Nx01111111111111111111111111111111A');
    // the top-up: the faucet's 100 NTV, less this bundle's fee
    expect(BigInt(await node.result<string>('svc_getBalance', [GOV, 'NTV']))).toBe(100n * NTV - BigInt(created.fee));
    expect(faucetBefore - BigInt(await node.result<string>('svc_getBalance', [FAUCET, 'NTV']))).toBeGreaterThanOrEqual(100n * NTV);
    // the next governance call needs no top-up: the authority still holds enough
    const info = await node.result<{ roles: Record<string, string> }>('svc_getStablecoinInfo', ['GUSD']);
    expect(info.roles).toMatchObject({ owner: GOV });
    const account = await node.result<{ address: string }>('svc_getAccount', [GOV]);
    expect(account.address).toBe(GOV);
    const token = await node.result<{ creator?: string }>('svc_getTokenInfo', ['GUSD']);
    if (token.creator !== undefined) expect(token.creator).toBe(GOV);
    // the explorer's address page reads svc_getAddressHistory: the authority's bundle is listed under its 0x form
    const history = await node.result<Array<{ bundle_hash: string; from: string }>>('svc_getAddressHistory', [GOV, 10]);
    expect(history.find((h) => h.bundle_hash === created.bundle_hash)?.from).toBe(GOV);
  });

  it('a second governance call while funded sends no further top-up', async () => {
    const before = BigInt(await node.result<string>('svc_getBalance', [FAUCET, 'NTV']));
    const second = await node.result<Receipt>('svc_createStableToken', [{
      name: 'Gov Euro', symbol: 'GEUR', decimals: 6, currency: 'EUR', issuer: 'Gov Test', owner: acct(4), master_minter: acct(1), pauser: acct(2), blacklister: acct(3),
    }, GOV]);
    expect(second.status).toBe('success');
    expect(BigInt(await node.result<string>('svc_getBalance', [FAUCET, 'NTV']))).toBe(before);
  });
});
