import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAccount } from '../../src/codec/address.js';
import { encodeBundle } from '../../src/codec/bundle.js';
import { Signer } from '../../src/codec/keys.js';
import { TestNode, sleep } from './harness.js';
import { bundleFor, signedHex, transferOp } from './bundles.js';

/**
 * The mempool's bounds over JSON-RPC (docs/mempool.md), on one node with small limits so each is
 * reached with a handful of bundles. Unsigned bundles (testnet, spec §5.6) from fresh accounts:
 * a queued one never executes, so only the accounts whose gaps are filled need the faucet.
 */
const MAX = 8;
const PER_ACCOUNT = 3;
const GAP = 16;
let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({
    args: ['--block-time', '1', '--mempool-max', String(MAX), '--mempool-max-queued', '100',
      '--mempool-max-queued-per-account', String(PER_ACCOUNT), '--mempool-max-nonce-gap', String(GAP)],
  });
});

afterAll(async () => {
  await node?.stop();
});

const RECIPIENT = new Uint8Array(32).fill(9);

function hexBundle(account: Uint8Array, nonce: bigint, opts: { fee?: bigint; amount?: bigint; validFor?: number } = {}): string {
  return Buffer.from(encodeBundle({
    userAccount: account, operations: [{ type: 'Transfer', to: RECIPIENT, token: new Uint8Array(32), amount: opts.amount ?? 1n }],
    maxGas: 100_000n, maxPriorityFee: opts.fee ?? 0n, validUntil: BigInt(Math.floor(Date.now() / 1000) + (opts.validFor ?? 3600)), nonce,
    signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
  })).toString('hex');
}

async function fundedAccount(): Promise<Uint8Array> {
  const account = new Uint8Array(randomBytes(32));
  await node.result('svc_faucet', [encodeAccount(account)]);
  return account;
}

/** Funded accounts (admission refuses a sender that cannot pay, docs/mempool.md "Funds"), one at a time: the pool here holds 8. */
async function fundedAccounts(n: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) out.push(await fundedAccount());
  return out;
}

async function mempoolSize(): Promise<number> {
  return (await node.result<{ mempoolSize: number }>('svc_getNetworkStats')).mempoolSize;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface Queued { bundle_hash: string; from: string; nonce: string; status: string; next_nonce: string }

describe('mempool bounds over JSON-RPC (docs/mempool.md)', () => {
  it('answers a bundle behind a nonce gap at once as queued, and an executable one with its receipt', async () => {
    const account = await fundedAccount();
    const started = Date.now();
    // One encoding for both submissions: hexBundle's valid_until follows the clock's second, and a
    // second encoded across a second's turn is another bundle of the same nonce (a replacement).
    const second = hexBundle(account, 2n);
    const queued = await node.call<Queued>('svc_submitBundle', [second]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(queued.result).toMatchObject({ status: 'queued', nonce: '2', next_nonce: '0', from: encodeAccount(account) });
    expect(queued.result!.bundle_hash).toMatch(/^Nxh/);
    // Resubmitting it answers the same way rather than waiting.
    expect((await node.call<Queued>('svc_submitBundle', [second])).result).toMatchObject({ status: 'queued', bundle_hash: queued.result!.bundle_hash });
    expect((await node.call<Queued>('svc_submitBundle', [hexBundle(account, 1n)])).result).toMatchObject({ status: 'queued', next_nonce: '0' });
    // Nonce 0 can execute: its call waits for the receipt as before, and the queued ones follow it.
    const receipt = await node.call<{ status: string; nonce: string }>('svc_submitBundle', [hexBundle(account, 0n)]);
    expect(receipt.result).toMatchObject({ status: 'success', nonce: '0' });
    await until('the queued bundle to execute', async () =>
      (await node.call<{ status: string } | null>('svc_getTransactionReceipt', [queued.result!.bundle_hash])).result?.status === 'success');
    expect((await node.result<{ nonce: string }>('svc_getAccount', [encodeAccount(account)])).nonce).toBe('3');
  });

  it('refuses a nonce further ahead than --mempool-max-nonce-gap, and nonce 2^64−1', async () => {
    const account = await fundedAccount();
    const far = await node.call('svc_submitBundle', [hexBundle(account, BigInt(GAP + 1))]);
    expect(far.error).toMatchObject({ code: -32016, data: { status: 'NONCE_GAP_TOO_LARGE', limit: GAP, next_nonce: '0', flag: '--mempool-max-nonce-gap' } });
    expect(far.error!.message).toContain(`at most ${GAP} nonces ahead (--mempool-max-nonce-gap)`);
    const max = await node.call('svc_submitBundle', [hexBundle(account, 2n ** 64n - 1n)]);
    expect(max.error).toMatchObject({ code: -32016, data: { status: 'NONCE_GAP_TOO_LARGE', nonce: '18446744073709551615' } });
    expect(await mempoolSize()).toBe(0);
  });

  it('caps the bundles one account has queued (--mempool-max-queued-per-account)', async () => {
    const account = await fundedAccount();
    for (let n = 1n; n <= BigInt(PER_ACCOUNT); n++) {
      expect((await node.call<Queued>('svc_submitBundle', [hexBundle(account, n)])).result).toMatchObject({ status: 'queued' });
    }
    const over = await node.call('svc_submitBundle', [hexBundle(account, BigInt(PER_ACCOUNT + 1))]);
    expect(over.error).toMatchObject({ code: -32016, data: { status: 'ACCOUNT_QUEUE_FULL', limit: PER_ACCOUNT, flag: '--mempool-max-queued-per-account' } });
    expect(over.error!.message).toContain('send nonce 0 first');
    // Filling the gap drains the queue, and the account may queue again.
    expect((await node.call<{ status: string }>('svc_submitBundle', [hexBundle(account, 0n)])).result).toMatchObject({ status: 'success' });
    await until('the queue to drain', async () => (await mempoolSize()) === 0);
    expect((await node.call<Queued>('svc_submitBundle', [hexBundle(account, BigInt(PER_ACCOUNT + 2), { fee: 20n })])).result).toMatchObject({ status: 'queued' });
  });

  it('a squatted nonce cannot block its owner: another key\'s bundle for the account is refused, queued or not (issue 46 item 8)', async () => {
    const owner = Signer.generate();
    const squatter = Signer.generate();
    await node.result('svc_faucet', [owner.address]);
    // the owner's first signed send reveals (registers) its key
    const first = await node.call<{ status: string }>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 0n, [transferOp(squatter.address, 1n)], { senderPubkey: owner.publicKey }))]);
    expect(first.result).toMatchObject({ status: 'success' });
    const pool = await mempoolSize();
    // The squatter signs the owner's next nonces with its own key, revealed, paying a tip: never
    // executable, so refused at admission, at the next nonce and behind a gap alike.
    for (const nonce of [1n, 2n, 3n]) {
      const squat = await node.call('svc_submitBundle', [signedHex(squatter, bundleFor(owner, nonce, [transferOp(squatter.address, 1n)], { senderPubkey: squatter.publicKey, maxPriorityFee: 1000n }))]);
      expect(squat.error, `nonce ${nonce}`).toMatchObject({ code: -32001, data: { status: 'KEY_NOT_AUTHORIZED' } });
      expect(squat.error!.message).toContain(`is not registered for account ${owner.address}`);
    }
    expect(await mempoolSize()).toBe(pool);
    // The owner pipelines nonce 2 behind the gap, then 1: both execute, neither refused as an underpriced replacement.
    const queued = await node.call<Queued>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 2n, [transferOp(squatter.address, 2n)]))]);
    expect(queued.result).toMatchObject({ status: 'queued', nonce: '2', next_nonce: '1' });
    const next = await node.call<{ status: string }>('svc_submitBundle', [signedHex(owner, bundleFor(owner, 1n, [transferOp(squatter.address, 3n)]))]);
    expect(next.result).toMatchObject({ status: 'success' });
    await until('the owner\'s queued bundle to execute', async () =>
      (await node.call<{ status: string } | null>('svc_getTransactionReceipt', [queued.result!.bundle_hash])).result?.status === 'success');
    expect((await node.result<{ nonce: string }>('svc_getAccount', [owner.address])).nonce).toBe('3');
    expect(await node.result('svc_getBalance', [squatter.address, 'NTV'])).toBe('6');
  });

  it('an unfunded account cannot park bundles behind a nonce gap: the queue is not free to fill (issue 46 item 8)', async () => {
    // The review filled the 20,000-bundle queue from unfunded accounts in 4 s; a queued bundle now
    // meets the funds rule as a ready one does (docs/mempool.md "Queued bundles: funded").
    const pool = await mempoolSize();
    for (let i = 0; i < 5; i++) {
      const account = new Uint8Array(randomBytes(32));
      const parked = await node.call('svc_submitBundle', [hexBundle(account, BigInt(1 + i))]);
      expect(parked.error, `account ${i}`).toMatchObject({ code: -32010, data: { status: 'INSUFFICIENT_FUNDS', address: encodeAccount(account), have: '0' } });
    }
    expect(await mempoolSize()).toBe(pool);
  });

  it('drops a queued bundle once its valid_until has passed', async () => {
    const before = await mempoolSize();
    const queued = await node.call<Queued>('svc_submitBundle', [hexBundle(await fundedAccount(), 1n, { validFor: 1 })]);
    expect(queued.result).toMatchObject({ status: 'queued' });
    expect(await mempoolSize()).toBe(before + 1);
    await until('the expired bundle to leave the mempool', async () => (await mempoolSize()) === before, 6_000);
  });

  it('replaces a same-nonce bundle only for 10% more max_priority_fee', async () => {
    const account = await fundedAccount();
    const first = await node.call<Queued>('svc_submitBundle', [hexBundle(account, 1n, { fee: 10n })]);
    expect(first.result).toMatchObject({ status: 'queued' });
    const same = await node.call('svc_submitBundle', [hexBundle(account, 1n, { fee: 10n, amount: 2n })]);
    expect(same.error).toMatchObject({
      code: -32001, data: { status: 'REPLACEMENT_UNDERPRICED', min_priority_fee: '11', pending_bundle_hash: first.result!.bundle_hash },
    });
    const better = await node.call<Queued>('svc_submitBundle', [hexBundle(account, 1n, { fee: 11n, amount: 2n })]);
    expect(better.result).toMatchObject({ status: 'queued' });
    // The replaced one is gone: sending it again is a replacement that pays too little.
    expect((await node.call('svc_submitBundle', [hexBundle(account, 1n, { fee: 10n })])).error).toMatchObject({ data: { status: 'REPLACEMENT_UNDERPRICED' } });
  });

  it('when full (--mempool-max), a better-paying bundle evicts the cheapest and a cheaper or equal one is refused', async () => {
    // The bundles left by the tests above pay 11 and 20: richer than any sent here.
    const accounts = await fundedAccounts(2 * Math.ceil(MAX / PER_ACCOUNT) + 4);
    const free = MAX - (await mempoolSize());
    expect(free).toBeGreaterThan(0);
    // Fill the pool with queued bundles paying a tip of 1, PER_ACCOUNT per account.
    const cheap: string[] = [];
    let account: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < free; i++) {
      if (i % PER_ACCOUNT === 0) account = accounts.pop()!;
      const hex = hexBundle(account, BigInt(1 + (i % PER_ACCOUNT)), { fee: 1n });
      expect((await node.call<Queued>('svc_submitBundle', [hex])).result).toMatchObject({ status: 'queued' });
      cheap.push(hex);
    }
    expect(await mempoolSize()).toBe(MAX);
    const equal = await node.call('svc_submitBundle', [hexBundle(accounts.pop()!, 1n, { fee: 1n })]);
    expect(equal.error).toMatchObject({ code: -32007, data: { status: 'MEMPOOL_FULL', limit: MAX, min_priority_fee: '2', flag: '--mempool-max' } });
    expect(equal.error!.message).toContain('--mempool-max');
    // As many bundles paying 3 get in, each evicting one paying 1.
    for (let i = 0; i < free; i++) {
      if (i % PER_ACCOUNT === 0) account = accounts.pop()!;
      const rich = await node.call<Queued>('svc_submitBundle', [hexBundle(account, BigInt(1 + (i % PER_ACCOUNT)), { fee: 3n })]);
      expect(rich.result).toMatchObject({ status: 'queued' });
    }
    expect(await mempoolSize()).toBe(MAX);
    // Every cheap one was evicted (resubmitted, it is refused rather than known), and a bundle
    // paying 2 or 3 cannot evict one paying 3.
    for (const hex of cheap) expect((await node.call('svc_submitBundle', [hex])).error).toMatchObject({ code: -32007 });
    for (const fee of [2n, 3n]) {
      const poorer = await node.call('svc_submitBundle', [hexBundle(accounts.pop()!, 1n, { fee })]);
      expect(poorer.error).toMatchObject({ code: -32007, data: { status: 'MEMPOOL_FULL', min_priority_fee: '4' } });
    }
    // An executable bundle is refused the same way: eviction is by fee, not by kind.
    const ready = await node.call('svc_submitBundle', [hexBundle(accounts.pop()!, 0n)]);
    expect(ready.error).toMatchObject({ code: -32007 });
  });
});

describe('a full queue is shared fairly over JSON-RPC (--mempool-max-queued; issue 46 item 8, docs/mempool.md "Queued bundles")', () => {
  // A node of its own: 4 queued bundles in all, 3 per account, so the queue fills with a handful.
  const QUEUED = 4;
  let share: TestNode;

  beforeAll(async () => {
    share = await TestNode.start({ args: ['--block-time', '1', '--mempool-max-queued', String(QUEUED), '--mempool-max-queued-per-account', String(PER_ACCOUNT)] });
  });

  afterAll(async () => {
    await share?.stop();
  });

  const funded = async (): Promise<Uint8Array> => {
    const account = new Uint8Array(randomBytes(32));
    await share.result('svc_faucet', [encodeAccount(account)]);
    return account;
  };
  const submit = (hex: string) => share.call<Queued>('svc_submitBundle', [hex]);
  const size = async () => (await share.result<{ mempoolSize: number }>('svc_getNetworkStats')).mempoolSize;
  const queueFull = { code: -32007, data: { status: 'QUEUE_FULL', limit: QUEUED, flag: '--mempool-max-queued' } };

  it('an account holding fewer takes the largest holder\'s newest queued bundle; the largest holder and level holdings are refused QUEUE_FULL', async () => {
    const [a, b, c, d, e] = [await funded(), await funded(), await funded(), await funded(), await funded()];
    // a parks 3 behind its gap (its share), b 1: the queue is full.
    const aHex = [1n, 2n, 3n].map((n) => hexBundle(a, n));
    for (const hex of aHex) expect((await submit(hex)).result).toMatchObject({ status: 'queued' });
    expect((await submit(hexBundle(b, 1n))).result).toMatchObject({ status: 'queued' });
    expect(await size()).toBe(QUEUED);
    // b holds fewer than a: its next queued bundle gets in, and a's newest (nonce 3) leaves, so no
    // gap opens in a's run; sent again, a's nonce 3 is refused (a is now level with b), not known.
    expect((await submit(hexBundle(b, 2n))).result).toMatchObject({ status: 'queued' });
    expect(await size()).toBe(QUEUED);
    expect((await submit(aHex[2]!)).error).toMatchObject(queueFull);
    // c and d, holding none, each get one slot at a largest holder's expense.
    expect((await submit(hexBundle(c, 1n))).result).toMatchObject({ status: 'queued' });
    expect((await submit(hexBundle(d, 1n))).result).toMatchObject({ status: 'queued' });
    expect(await size()).toBe(QUEUED);
    // Level holdings (1 each): a fifth account would only push one of them out to hold as many, so
    // it is refused, as is a second bundle from any of the four.
    const refused = await share.call('svc_submitBundle', [hexBundle(e, 1n)]);
    expect(refused.error).toMatchObject(queueFull);
    expect(refused.error!.message).toContain('send nonce 0 first');
    expect((await submit(hexBundle(c, 2n))).error).toMatchObject(queueFull);
    // Filling a's gap runs its one queued bundle left (nonce 1): the slot it frees takes e's.
    expect((await submit(hexBundle(a, 0n))).result).toMatchObject({ status: 'success' });
    await until('a\'s queued bundle to execute', async () => (await share.result<{ nonce: string }>('svc_getAccount', [encodeAccount(a)])).nonce === '2', 15_000);
    expect((await submit(hexBundle(e, 1n))).result).toMatchObject({ status: 'queued' });
  });
});
