// STD-8 issuer onboarding over JSON-RPC against one running node (spec §4.16; docs/stablecoins.md
// "Issuer onboarding"): the origin-chain admin signs the documented message with viem
// (personal_sign), the node verifies it (a wrong signer or a message for another origin is refused
// with INVALID_ISSUER_PROOF and changes nothing), the foundation records it and attests the
// corporate documents, and the second proof turns the genesis USDC issuer Verified. The signed path
// (a VerifyIssuer proposal carrying the proofs, from the client library) is refused at admission
// when its admin signature does not verify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { Wallet } from '../../src/client/index.js';
import { TestNode } from './harness.js';

const GOV = `0x${'00'.repeat(31)}09`;
const FOUNDATION = `0x${'00'.repeat(31)}03`;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const ALICE = `0x${'ab'.repeat(30)}0009`;
const DIGEST = `0x${'5e'.repeat(32)}`;

let node: TestNode;

interface Receipt { status: string; events: Array<Record<string, unknown> & { type: string }> }
interface Onboarding {
  verification_status: string; proofs_recorded: number; proofs_required: number; missing: string[];
  proofs: Array<{ method: string; recorded_by: string; admin_address?: string; origin_chain_id?: number; signature?: string; message?: string; evidence_digest?: string; detail?: string }>;
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '0.5'] });
  for (const a of [GOV, FOUNDATION, ALICE]) await node.result('svc_transfer', [SYSTEM_NTV, a, 'NTV', '1000000000000']);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const onboarding = (t = 'USDC') => node.result<Onboarding>('svc_getIssuerOnboarding', [t]);

describe('STD-8 issuer onboarding over JSON-RPC', () => {
  const admin = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());

  it('an admin signature verified by the node and a foundation attestation make the issuer Verified', async () => {
    const usdc = await node.result<{ mint: string; verification_status: string; reputation_points: number }>('svc_getStablecoinInfo', ['USDC']);
    expect(usdc.verification_status).toBe('Pending');
    const m = await node.result<{ message: string; token: string; origin_chain_id: number; network_chain_id: number }>('svc_stableIssuerOnboardingMessage', ['USDC', 1]);
    expect(m.token).toBe(usdc.mint);
    expect(m.message).toContain(`token: ${usdc.mint}`);
    expect(m.message).toContain('origin chain id: 1');
    expect(m.message).toContain('network chain id: 1618032');
    const signature = await admin.signMessage({ message: m.message });

    // refusals: each names the rule and records nothing
    const wrongSigner = await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 1, admin.address, await stranger.signMessage({ message: m.message }), FOUNDATION]);
    expect([wrongSigner.code, wrongSigner.data?.status, wrongSigner.data?.param]).toEqual([-32602, 'INVALID_ISSUER_PROOF', 'signature']);
    expect(wrongSigner.message).toContain(stranger.address.toLowerCase());
    const otherOrigin = await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 5, admin.address, signature, FOUNDATION]);
    expect(otherOrigin.data?.status).toBe('INVALID_ISSUER_PROOF');
    const notSignature = await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 1, admin.address, `0x${'00'.repeat(65)}`, FOUNDATION]);
    expect(notSignature.data?.status).toBe('INVALID_ISSUER_PROOF');
    const notFoundation = await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 1, admin.address, signature, ALICE]);
    expect([notFoundation.code, notFoundation.data?.status]).toEqual([-32011, 'NOT_FOUNDATION']);
    expect((await node.rpcError('svc_stableSubmitAdminSignature', ['NTV', 1, admin.address, signature, FOUNDATION])).code).toBe(-32602);
    expect((await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 1, 'not-an-address', signature, FOUNDATION])).code).toBe(-32602);
    expect((await onboarding()).proofs_recorded).toBe(0);

    // the admin signature: recorded, one of three
    const first = await node.result<Receipt>('svc_stableSubmitAdminSignature', ['USDC', 1, admin.address, signature, FOUNDATION]);
    expect(first.status).toBe('success');
    expect(first.events.find((e) => e.type === 'StableIssuerProof')).toMatchObject({ method: 'admin_signature', subject: admin.address.toLowerCase(), proofs: 1, verification_status: 'Pending' });
    expect((await node.rpcError('svc_stableSubmitAdminSignature', ['USDC', 1, admin.address, signature, GOV])).data?.status).toBe('PROOF_ALREADY_RECORDED');

    // the documents: a zero digest refused; then the second proof makes the issuer Verified
    expect((await node.rpcError('svc_stableAttestIssuer', ['USDC', 'documents', `0x${'00'.repeat(32)}`, 'Incorporation', FOUNDATION])).data?.status).toBe('INVALID_ISSUER_PROOF');
    expect((await node.rpcError('svc_stableAttestIssuer', ['USDC', 'domain', DIGEST, 'circle.com', ALICE])).data?.status).toBe('NOT_FOUNDATION');
    expect((await node.rpcError('svc_stableAttestIssuer', ['USDC', 'passport', DIGEST, 'x', FOUNDATION])).code).toBe(-32602);
    const second = await node.result<Receipt>('svc_stableAttestIssuer', ['USDC', 'documents', DIGEST, 'Certificate of incorporation 2026-114', FOUNDATION]);
    expect(second.events.find((e) => e.type === 'StableIssuerProof')).toMatchObject({ method: 'documents', subject: DIGEST, proofs: 2, verification_status: 'Verified' });
    const after = await node.result<{ verification_status: string; reputation_points: number }>('svc_getStablecoinInfo', ['USDC']);
    expect([after.verification_status, after.reputation_points]).toEqual(['Verified', 12]);

    const o = await onboarding();
    expect(o).toMatchObject({ verification_status: 'Verified', proofs_recorded: 2, proofs_required: 2, missing: ['domain'] });
    expect(o.proofs[0]).toMatchObject({ method: 'admin_signature', admin_address: admin.address.toLowerCase(), origin_chain_id: 1, signature, message: m.message });
    expect(o.proofs[1]).toMatchObject({ method: 'documents', evidence_digest: DIGEST, detail: 'Certificate of incorporation 2026-114' });
    expect((await node.rpcError('svc_getIssuerOnboarding', ['NTV'])).code).toBe(-32003);
  }, 60_000);

  it('the signed path: a VerifyIssuer proposal carrying a bad admin signature is refused at admission', async () => {
    const w = Wallet.generate(node.url, 'Ed25519');
    await node.result('svc_transfer', [SYSTEM_NTV, w.address, 'NTV', '1000000000000']);
    const message = await w.stableOnboardingMessage('EURC', 1n);
    expect(message).toBe((await node.result<{ message: string }>('svc_stableIssuerOnboardingMessage', ['EURC', 1])).message);
    const forged = await w.stableIssuerProofOp('EURC', { method: 'admin_signature', originChainId: 1n, adminAddress: admin.address, signature: await stranger.signMessage({ message }) as Hex });
    const res = await w.stableProposeIssuerProofs('Verify EURC', 'forged', [forged]).catch((e: Error & { data?: { status?: string } }) => e) as Error & { data?: { status?: string } };
    expect(res.data?.status ?? res.message).toBe('INVALID_ISSUER_PROOF');
    // a well-signed one passes admission (the core then decides: only a passed proposal runs it as governance)
    const good = await w.stableIssuerProofOp('EURC', { method: 'admin_signature', originChainId: 1n, adminAddress: admin.address, signature: await admin.signMessage({ message }) as Hex });
    const direct = await w.send([good]).catch((e: Error & { code?: number; data?: { status?: string } }) => e) as Error & { code?: number; data?: { status?: string } };
    expect([direct.code, direct.data?.status ?? direct.message]).toEqual([-32002, 'NOT_FOUNDATION']);
    expect((await onboarding('EURC')).proofs_recorded).toBe(0);
  }, 60_000);
});
