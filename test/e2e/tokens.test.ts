// STD-7 tokens in full over JSON-RPC (spec §2.2, §2.3, §4.1): metadata updates and the one-way
// lock (creator only), the full record in svc_getTokenInfo/svc_listTokens, and the reputation factor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const creator = '0x' + 'c1'.repeat(32);
const other = '0x' + 'c2'.repeat(32);
const FIELDS = ['metadata_uri', 'image', 'description', 'external_url', 'twitter', 'discord', 'telegram', 'github'] as const;

let node: TestNode;
let mint: string;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const who of [creator, other]) await node.result('svc_transfer', [systemAddressHex(7), who, 'NTV', (1_000n * NTV).toString()]);
  const receipt = await node.result<{ created: { mint: string } }>('svc_createToken', ['Moon Coin', 'MOON', 6, '1000000000', creator]);
  mint = receipt.created.mint;
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('token metadata', () => {
  it('a new token is mutable with every metadata field null', async () => {
    const info = await node.result<Record<string, unknown>>('svc_getTokenInfo', [mint]);
    expect(info.is_mutable).toBe(true);
    for (const f of FIELDS) expect(info[f]).toBeNull();
  });

  it('svc_updateTokenMetadata sets every field; absent fields are kept, "" clears; svc_listTokens shows them', async () => {
    const values = ['ipfs://moon', 'https://img/moon.png', 'To the moon', 'https://moon.example', '@moon', 'moon#1', 't.me/moon', 'moon/coin'];
    const r = await node.result<{ status: string; events: Array<{ type: string; fields_set?: string[] }> }>('svc_updateTokenMetadata', [mint, creator, ...values]);
    expect(r.status).toBe('success');
    expect(r.events.find((e) => e.type === 'TokenMetadataUpdated')!.fields_set).toEqual([...FIELDS]);
    await node.result('svc_updateTokenMetadata', { mint, sender: creator, image: '', github: 'moon/v2' });
    const info = await node.result<Record<string, unknown>>('svc_getTokenInfo', ['moon']);
    expect(info).toMatchObject({ metadata_uri: 'ipfs://moon', image: null, description: 'To the moon', twitter: '@moon', github: 'moon/v2' });
    const listed = (await node.result<Array<Record<string, unknown>>>('svc_listTokens', [1000])).find((t) => t.mint_address === mint)!;
    expect(listed.github).toBe('moon/v2');
  });

  it('refuses non-creators, over-long fields and unknown tokens with clear errors and no change', async () => {
    const notCreator = await node.call('svc_updateTokenMetadata', [mint, other, 'ipfs://evil']);
    expect(notCreator.error?.code).toBe(-32011);
    expect(notCreator.error?.message).toMatch(/only the creator/);
    const long = await node.call('svc_updateTokenMetadata', [mint, creator, null, null, 'é'.repeat(600)]);
    expect(long.error?.code).toBe(-32602);
    expect(long.error?.message).toMatch(/description/);
    const unknown = await node.call('svc_lockTokenMetadata', ['NOPE', creator]);
    expect(unknown.error?.code).toBe(-32009);
    const genesisToken = await node.call('svc_updateTokenMetadata', ['USDC', creator, 'x']);
    expect(genesisToken.error?.code).toBe(-32011);
    const badSender = await node.call('svc_lockTokenMetadata', [mint, 'someone']);
    expect(badSender.error?.code).toBe(-32602);
    expect((await node.result<Record<string, unknown>>('svc_getTokenInfo', [mint])).metadata_uri).toBe('ipfs://moon');
  });

  it('svc_lockTokenMetadata is creator only and one-way', async () => {
    expect((await node.call('svc_lockTokenMetadata', [mint, other])).error?.code).toBe(-32011);
    const r = await node.result<{ status: string }>('svc_lockTokenMetadata', [mint, creator]);
    expect(r.status).toBe('success');
    expect((await node.result<{ is_mutable: boolean }>('svc_getTokenInfo', [mint])).is_mutable).toBe(false);
    const again = await node.call('svc_lockTokenMetadata', [mint, creator]);
    expect([again.error?.code, again.error?.data?.status]).toEqual([-32002, 'METADATA_LOCKED']);
    const update = await node.call('svc_updateTokenMetadata', [mint, creator, 'ipfs://new']);
    expect([update.error?.code, update.error?.data?.status]).toEqual([-32002, 'METADATA_LOCKED']);
  });
});

describe('svc_getTokenReputation', () => {
  it('scores the Verification Status factor of spec §2.2', async () => {
    const rep = async (m: string) => node.result<{ score: number; max_score: number; warnings: string[]; badge: string | null; factors: Array<{ status: string }> }>('svc_getTokenReputation', [m]);
    expect(await rep(mint)).toMatchObject({ score: 8, max_score: 15, warnings: [], factors: [{ status: 'Native STD-7 token' }] });
    expect(await rep('USDC')).toMatchObject({ score: 10, badge: 'Official Stablecoin' });
    expect(await rep('SOL')).toMatchObject({ score: 5 });
    expect(await rep('WIF')).toMatchObject({ score: 3, badge: 'Memecoin' });
    expect((await node.call('svc_getTokenReputation', ['NOPE'])).error?.code).toBe(-32009);
  });
});
