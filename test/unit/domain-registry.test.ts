import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeBundle, type Bundle } from '../../src/codec/bundle.js';
import type { BridgeDepositOp, Operation } from '../../src/codec/operations.js';
import { attest, depositDigest } from '../../src/codec/bridge.js';
import { generateEd25519, verifyEd25519 } from '../../src/codec/keys.js';
import { admissionProofProblem } from '../../src/chain/admission/host-proofs.js';
import { blockProofOperations, blockProofProblem, blockProofRefusal } from '../../src/chain/block-proofs.js';
import { blockProofChecks } from '../../src/domains/block-proofs.js';
import { ntvCommitment } from '../../src/chain/admission/funds.js';
import { NTV_MINT } from '../../src/abi/constants.js';
import { domains } from '../../src/domains/index.js';

/**
 * The domain registry (issue 44 item 1; docs/adding-a-domain.md "Host checks"): each domain's host
 * proofs live in src/domains/<name>/ and the generic paths (admission, the block pipeline, import,
 * replay) reach them only through src/domains/index.ts, naming no domain.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const CHAIN_ID = 7;
const { operations: abiOperations } = (await import(join(ROOT, 'abi/operations.mjs'))) as { operations: { name: string; group: string }[] };

/** The block path and admission: the files that must iterate the registry rather than name a domain. */
const GENERIC = [
  ...['pipeline', 'admission'].flatMap((dir) => readdirSync(join(ROOT, 'src/chain', dir)).map((f) => `src/chain/${dir}/${f}`)),
  'src/chain/import.ts', 'src/chain/replay.ts', 'src/chain/block-checks.ts', 'src/chain/block-proofs.ts', 'src/chain/proof-checks.ts',
];

/** The code without its comments (a comment may cite a domain's docs). */
const codeOf = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');

/** A domain's words: its name (singular stem, any case, at a word or camelCase boundary) and its operations' names. */
function domainWords(name: string): RegExp[] {
  const stem = name.replace(/s$/, '');
  const cap = stem[0]!.toUpperCase() + stem.slice(1);
  const ops = abiOperations.filter((o) => o.group === name).map((o) => o.name);
  return [new RegExp(`(?:\\b(?:${stem}|${cap}|${stem.toUpperCase()})|(?<=[a-z])${cap})s?(?![a-z])`), ...ops.map((o) => new RegExp(`\\b${o}\\b`))];
}

describe('domain registry', () => {
  it('names each domain once, as its ABI group, its folder and its docs page', () => {
    const groups = new Set(abiOperations.map((o) => o.group));
    expect(domains.length).toBeGreaterThanOrEqual(3);
    for (const d of domains) {
      expect(groups.has(d.name), `${d.name} is an ABI group (abi/operations.mjs)`).toBe(true);
      expect(existsSync(join(ROOT, 'src/domains', d.name, 'index.ts')), `src/domains/${d.name}/index.ts`).toBe(true);
      expect(existsSync(join(ROOT, 'docs', `${d.name}.md`)), `docs/${d.name}.md`).toBe(true);
    }
    expect(new Set(domains.map((d) => d.name)).size).toBe(domains.length);
    const folders = readdirSync(join(ROOT, 'src/domains'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(folders).toEqual(domains.map((d) => d.name).sort());
  });

  it('a check of every block can run in the replay too (problemAsync), and each check is of an operation of its own domain', () => {
    for (const d of domains) {
      for (const c of d.proofChecks) {
        expect(abiOperations.find((o) => o.name === c.operation)?.group).toBe(d.name);
        if (c.checked === 'every block') expect(typeof c.problemAsync).toBe('function');
      }
    }
  });

  it('the list import and replay load (src/domains/block-proofs.ts) is exactly the registry\'s checks of every block', () => {
    const everyBlock = domains.flatMap((d) => d.proofChecks).filter((c) => c.checked === 'every block');
    expect(new Set(blockProofChecks)).toEqual(new Set(everyBlock));
    expect(blockProofChecks.length).toBe(everyBlock.length);
  });

  it('admission, the block pipeline, import and replay name no registered domain, and reach domain code only through the registry', () => {
    const found: string[] = [];
    for (const file of GENERIC) {
      const code = codeOf(file);
      for (const d of domains) for (const w of domainWords(d.name)) if (w.test(code)) found.push(`${file}: ${d.name} (${w.source})`);
      for (const m of code.matchAll(/from\s+['"]([^'"]+)['"]/g)) if (/\/domains\/[^/]+\//.test(m[1]!)) found.push(`${file} imports ${m[1]}`);
    }
    expect(found).toEqual([]);
  });

  it('the word scan finds a domain where one is named (the scan itself works)', () => {
    const code = 'const bad = bridgeSignatureProblem(bytes); if (op.type === "StableIssuerProof") x(); staking.check();';
    expect(domainWords('bridge').some((w) => w.test(code))).toBe(true);
    expect(domainWords('stablecoins').some((w) => w.test(code))).toBe(true);
    expect(domainWords('staking').some((w) => w.test(code))).toBe(true);
    expect(domainWords('dex').some((w) => w.test('const index = 1; indexer.put();'))).toBe(false);
  });

  it('domain folders import no other domain, and nothing above the chain (rpc, eth, intents, consensus, p2p, cli, client, node)', () => {
    const bad: string[] = [];
    for (const d of domains) {
      const dir = join(ROOT, 'src/domains', d.name);
      for (const f of readdirSync(dir)) {
        for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
          const spec = m[1]!;
          if (/^\.\.\/(?!module\.js)[^./]/.test(spec)) bad.push(`${d.name}/${f} → ${spec}`);
          if (/^\.\.\/\.\.\/(rpc|eth|intents|consensus|p2p|cli|client|node)\b/.test(spec)) bad.push(`${d.name}/${f} → ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('host proofs through the registry', () => {
  /** What step 1 of the block path does with a bundle under a verifier that may be asynchronous (the browser replay's). */
  const blockProofProblemAsync = async (bytes: Uint8Array, chainId: number, verify: (p: Uint8Array, m: Uint8Array, s: Uint8Array) => Promise<boolean>) => {
    const ops = blockProofOperations(bytes);
    return ops && blockProofRefusal(ops, chainId, verify);
  };
  const attester = generateEd25519();
  const deposit = (recipient: Uint8Array): BridgeDepositOp => {
    const op: BridgeDepositOp = {
      type: 'BridgeDeposit', chain: 'ethereum', txHash: '0x' + 'ab'.repeat(32), contract: '0x' + 'cd'.repeat(20), symbol: 'USDC',
      amount: 5_000_000n, decimals: 6, recipient, signatures: new Uint8Array(0),
    };
    op.signatures = attest(attester.seed, depositDigest(CHAIN_ID, op));
    return op;
  };
  const bundle = (operations: Operation[]): Uint8Array => encodeBundle({
    userAccount: new Uint8Array(32).fill(3), operations, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 10n ** 10n, nonce: 0n, signature: new Uint8Array(0),
  } satisfies Bundle);

  it('a bridge deposit first in a bundle: a good attestation passes admission, import and replay; one flipped bit is BAD_SIGNATURE in all three', async () => {
    const good = deposit(new Uint8Array(32).fill(1));
    expect(admissionProofProblem([good], CHAIN_ID)).toBeUndefined();
    expect(blockProofProblem(bundle([good]), CHAIN_ID)).toBeUndefined();
    expect(await blockProofProblemAsync(bundle([good]), CHAIN_ID, async (...a) => verifyEd25519(...a))).toBeUndefined();
    const bad = { ...good, signatures: good.signatures.slice() };
    bad.signatures[40]! ^= 1;
    for (const refusal of [admissionProofProblem([bad], CHAIN_ID), blockProofProblem(bundle([bad]), CHAIN_ID), await blockProofProblemAsync(bundle([bad]), CHAIN_ID, async (...a) => verifyEd25519(...a))]) {
      expect(refusal).toEqual({ status: 'BAD_SIGNATURE', message: expect.stringMatching(/^bridge deposit proof: attester signature 0 \(key [0-9a-f]{64}\) does not verify over the digest$/) });
    }
    // Another network's chain id is another digest.
    expect(blockProofProblem(bundle([good]), CHAIN_ID + 1)?.status).toBe('BAD_SIGNATURE');
  });

  it('a block check looks only where the core allows the operation, and leaves a bundle that does not decode to the core', () => {
    const transfer: Operation = { type: 'Transfer', to: new Uint8Array(32).fill(2), token: new Uint8Array(32), amount: 1n } as Operation;
    const bad = deposit(new Uint8Array(32).fill(1));
    bad.signatures = bad.signatures.slice();
    bad.signatures[0]! ^= 1;
    // Not first: the core refuses the bundle (a bridge operation is first or nowhere), so the host does not look.
    expect(blockProofProblem(bundle([transfer, bad]), CHAIN_ID)).toBeUndefined();
    const bytes = bundle([bad]);
    expect(blockProofProblem(bytes.subarray(0, bytes.length - 10), CHAIN_ID)).toBeUndefined();
  });

  it('admission-only proofs are refused at admission, also nested in a proposal, and are not checked on a certified block', () => {
    const proof: Operation = {
      type: 'StableIssuerProof', token: new Uint8Array(32).fill(9), method: 'admin_signature', chainId: 1n,
      subject: new Uint8Array(32).fill(4), detail: new Uint8Array(0), signature: new Uint8Array(65).fill(1),
    };
    expect(admissionProofProblem([proof], CHAIN_ID)?.status).toBe('INVALID_ISSUER_PROOF');
    const proposal = { type: 'CreateProposal', title: 't', description: 'd', action: { kind: 'VerifyIssuer', operations: [proof] } } as unknown as Operation;
    expect(admissionProofProblem([proposal], CHAIN_ID)).toEqual({ status: 'INVALID_ISSUER_PROOF', message: expect.stringMatching(/^invalid issuer-onboarding proof: /) });
    const evidence: Operation = {
      type: 'ReportDoubleSign', validator: new Uint8Array(32), height: 5n,
      headerA: new Uint8Array(10), sigA: new Uint8Array(64), headerB: new Uint8Array(10), sigB: new Uint8Array(64),
    } as Operation;
    expect(admissionProofProblem([evidence], CHAIN_ID)).toEqual({ status: 'INVALID_EVIDENCE', message: expect.stringMatching(/^invalid double-sign evidence: header_a is not a block header/) });
    expect(blockProofProblem(bundle([evidence]), CHAIN_ID)).toBeUndefined();
  });
});

describe('the funds rule through the registry (docs/mempool.md "Funds")', () => {
  const token = new Uint8Array(32).fill(5);
  const to = new Uint8Array(32).fill(2);
  const ops = {
    transferNtv: { type: 'Transfer', to, token: NTV_MINT, amount: 100n },
    transferToken: { type: 'Transfer', to, token, amount: 7n },
    stake: { type: 'Stake', amount: 1_000n },
    delegate: { type: 'Delegate', amount: 30n },
    swapFromNtv: { type: 'Swap', fromToken: NTV_MINT, toToken: token, amountIn: 50n },
    swapToNtv: { type: 'Swap', fromToken: token, toToken: NTV_MINT, amountIn: 9n },
  } as unknown as Record<string, Operation>;

  it('counts the leading spends the envelope and the domain modules declare, plus the most fee, and stops at an operation that may pay NTV in', () => {
    const fee = 10n * (3n + 1n);
    expect(ntvCommitment([ops.transferNtv!, ops.transferToken!, ops.stake!, ops.delegate!, ops.swapFromNtv!], 10n, 1n, 3n)).toBe(fee + 100n + 1_000n + 30n + 50n);
    expect(ntvCommitment([ops.transferNtv!, ops.swapToNtv!, ops.stake!], 10n, 1n, 3n)).toBe(fee + 100n);
    const createPool = { type: 'CreatePool' } as unknown as Operation;
    expect(ntvCommitment([createPool, ops.stake!], 10n, 1n, 3n)).toBe(fee);
  });

  it('every spend a module declares is of an operation of its own domain', () => {
    for (const d of domains) {
      for (const spend of d.ntvSpends ?? []) expect(abiOperations.find((o) => o.name === spend.operation)?.group).toBe(d.name);
    }
  });
});
