// Stake and allocate intents over JSON-RPC against a running node (issue 41 item 1; spec §4.8, §4.10;
// docs/intents.md "Stake and allocate"): a stake intent delegates to the validator it names (staking
// account, consensus key, .vex name or metadata name) in English and other languages, or to the one
// the documented rule picks; the sender never becomes a validator; a plan the core would fail is
// refused before submission with its reason, and costs nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sleep, TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7);
const account = () => '0x' + randomBytes(32).toString('hex');
const v2 = account();
const v2Key = randomBytes(32).toString('hex');

interface Validator { address: string; consensus_key: string; delegated: string; self_stake: string }
interface Status { status: 'pending' | 'completed' | 'failed'; status_name?: string }
interface Step { type: string; validator?: string; operation: Record<string, unknown> }

let node: TestNode;
let own: string;
let v2Address: string;
const delegated = async (validator: string) => BigInt((await node.result<Validator>('svc_getValidator', [validator])).delegated);
const balance = async (who: string) => BigInt(await node.result<string>('svc_getBalance', [who, 'NTV']));
const nonce = async (who: string) => (await node.result<{ nonce: string }>('svc_getAccount', [who])).nonce;

async function funded(): Promise<string> {
  const who = account();
  await node.result('svc_transfer', [RICH, who, 'NTV', (10_000n * NTV).toString()]);
  return who;
}

async function completed(hash: string): Promise<Status> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await node.result<Status>('svc_getIntentStatus', [hash]);
    if (s.status !== 'pending' || Date.now() > deadline) return s;
    await sleep(200);
  }
}

/** Submit the intent from a fresh funded sender; the named validator's `delegated` grows by `amount` (1,000 NTV) and the sender is no validator. */
async function delegatesTo(intent: string, validator: string, amount = 1_000n * NTV): Promise<void> {
  const sender = await funded();
  const before = await delegated(validator);
  const status = await completed(await node.result<string>('svc_submitIntent', [intent, sender]));
  expect(status.status, `${intent}: ${status.status_name}`).toBe('completed');
  expect(await delegated(validator) - before).toBe(amount);
  const notValidator = await node.call('svc_getValidator', [sender]);
  expect(notValidator.error?.code, `${intent} must not make the sender a validator`).toBe(-32003);
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  own = (await node.result<{ validator: string }>('svc_version')).validator;
  await node.result('svc_transfer', [RICH, v2, 'NTV', (10_000n * NTV).toString()]);
  await node.result('svc_stake', [v2, (2_000n * NTV).toString(), v2Key]);
  await node.result('svc_registerName', ['valtwo', v2]);
  await node.result('svc_setValidatorMetadata', [v2, 'Lumen', 'a test validator', '', '']);
  v2Address = (await node.result<Validator>('svc_getValidator', [v2])).address;
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('a stake intent delegates to the validator it names', () => {
  it('by address: "stake 1000 NTV with validator <address>"', async () => {
    await delegatesTo(`stake 1000 NTV with validator ${v2Address}`, v2);
  });

  it('by .vex name: "stake 1000 NTV with <name>"', async () => {
    await delegatesTo('stake 1000 NTV with valtwo.vex', v2);
  });

  it('by consensus key and by the validator\'s metadata name', async () => {
    await delegatesTo(`stake 1000 NTV with validator ${v2Key}`, v2);
    await delegatesTo('stake 1000 NTV with validator lumen', v2);
  });

  it('in Spanish and French, by address and by name', async () => {
    await delegatesTo(`apostar 1000 NTV con validador ${v2Address}`, v2);
    await delegatesTo('apostar 1000 NTV con valtwo.vex', v2);
    await delegatesTo(`staker 1000 NTV avec validateur ${v2Address}`, v2);
    await delegatesTo('staker 1000 NTV avec validateur valtwo.vex', v2);
  });

  it('the preview and the execution plan show the Delegate and its validator', async () => {
    const sender = await funded();
    const preview = await node.result<{ summary: string; balance_sufficient: boolean; warnings: string[] }>('svc_previewIntent', [`stake 1000 NTV with valtwo`, sender]);
    expect(preview.summary).toBe(`Delegate 1000 NTV to validator ${v2Address} ("Lumen")`);
    expect(preview.balance_sufficient).toBe(true);
    const plan = await node.result<{ steps: Step[]; bundle: { operations: Array<Record<string, unknown>> } }>('svc_getExecutionPlan', [`stake 1000 NTV with valtwo.vex`, sender]);
    expect(plan.steps.map((s) => [s.type, s.validator])).toEqual([['Delegate', v2Address]]);
    expect(plan.bundle.operations).toEqual([expect.objectContaining({ type: 'Delegate', amount: (1_000n * NTV).toString() })]);
  });
});

describe('without a named validator', () => {
  it('"stake 1000 NTV" delegates by the default rule (the active validator of lowest commission) and says so', async () => {
    const sender = await funded();
    const preview = await node.result<{ summary: string; notes: string[] }>('svc_previewIntent', ['stake 1000 NTV', sender]);
    expect(preview.summary).toBe(`Delegate 1000 NTV to validator ${own}`);
    expect(preview.notes).toContainEqual(expect.stringMatching(/by the default rule/));
    await delegatesTo('stake 1000 NTV', own);
  });

  it('an allocate intent\'s stake part is a Delegate, and submitted it delegates', async () => {
    const sender = await funded();
    const sim = await node.result<{ success: boolean; operations: Array<{ type: string }> }>('svc_simulateIntent', ['put 2000 NTV split 100% stake 0% liquidity', sender]);
    expect(sim.operations[0]!.type).toBe('Delegate');
    expect(sim.success).toBe(true);
    // submitted, it delegates by the default rule (issue 41 item 2: no intent path could delegate)
    await delegatesTo('put 2000 NTV split 100% stake 0% liquidity', own, 2_000n * NTV);
  });
});

describe('a plan that cannot succeed is refused before submission, with the reason, at no cost', () => {
  it('an address that is no validator, a name nobody holds', async () => {
    const sender = await funded();
    for (const [intent, message] of [
      [`stake 1000 NTV with validator ${sender}`, /neither a validator's staking account nor a validator's consensus key/],
      ['stake 1000 NTV with nobody-here.vex', /no validator is named nobody-here\.vex/],
    ] as const) {
      const err = (await node.call('svc_submitIntent', [intent, sender])).error;
      expect(err?.code, intent).toBe(-32003);
      expect(err?.message).toMatch(message);
    }
    expect(await nonce(sender)).toBe('0');
  });

  it('below the validator pool\'s minimum delegation, or more NTV than the sender holds', async () => {
    await node.result('svc_setPoolConfig', [true, 'pool two', (5_000n * NTV).toString(), false, v2]);
    const sender = await funded();
    const before = await balance(sender);
    const low = (await node.call('svc_submitIntent', ['stake 1000 NTV with valtwo', sender])).error;
    expect(low?.message).toMatch(/min_delegation/);
    expect(low?.data).toMatchObject({ status: 'DELEGATION_BELOW_MINIMUM' });
    const preview = await node.result<{ notes: string[] }>('svc_simulateIntent', ['stake 1000 NTV with valtwo', sender]);
    expect(preview.notes).toContainEqual(expect.stringMatching(/^Submission would be refused: .*min_delegation/));
    const short = (await node.call('svc_submitIntent', ['stake 20000 NTV with valtwo', sender])).error;
    expect(short?.code).toBe(-32010);
    expect(await balance(sender)).toBe(before);
    expect(await nonce(sender)).toBe('0');
    await node.result('svc_setPoolConfig', [false, '', '0', false, v2]);
  });
});
