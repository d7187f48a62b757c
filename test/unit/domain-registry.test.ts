import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeBundle, type Bundle } from '../../src/codec/bundle.js';
import type { BridgeDepositOp, Operation } from '../../src/codec/operations.js';
import { attest, depositDigest } from '../../src/domains/bridge/proofs.js';
import { generateEd25519, verifyEd25519 } from '../../src/codec/keys.js';
import { admissionProofProblem } from '../../src/chain/admission/host-proofs.js';
import { blockProofOperations, blockProofProblem, blockProofRefusal } from '../../src/chain/block-proofs.js';
import { blockProofChecks } from '../../src/domains/block-proofs.js';
import { ntvCommitment } from '../../src/chain/admission/funds.js';
import { NTV_MINT } from '../../src/abi/constants.js';
import { domains, type ReceiptBlock } from '../../src/domains/index.js';
import { domainRpc } from '../../src/domains/rpc.js';
import type { MethodDependencies } from '../../src/rpc/methods/context.js';
import { Wallet } from '../../src/client/wallet.js';

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

const COMMON_WORDS = new Set(['name']);

/** A domain's words: its name (singular stem, any case, at a word or camelCase boundary) and its operations' names. */
function domainWords(name: string): RegExp[] {
  // A two-word name (staking-pools) is written stakingPool, StakingPool or STAKING_POOL in code.
  const parts = name.replace(/s$/, '').split('-');
  const stem = parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('');
  const cap = stem[0]!.toUpperCase() + stem.slice(1);
  const upper = parts.map((p) => p.toUpperCase()).join('_');
  const ops = abiOperations.filter((o) => o.group === name).map((o) => o.name);
  // A stem that is also an everyday identifier (an error's or a status's `name`, `[name, code]`) is
  // looked for only inside a compound: nameKey, resolveName, NAME_SUFFIX.
  const word = COMMON_WORDS.has(stem)
    ? new RegExp(`\\b(?:${stem}(?=[A-Z])|${upper}_)|(?<=[a-z])${cap}s?(?![a-z])`)
    : new RegExp(`(?:\\b(?:${stem}|${cap}|${upper})|(?<=[a-z])${cap})s?(?![a-z])`);
  return [word, ...ops.map((o) => new RegExp(`\\b${o}\\b`))];
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
    expect(domainWords('names').some((w) => w.test('const owner = resolveName(state, label);'))).toBe(true);
    expect(domainWords('names').some((w) => w.test('if (nameKey(label)) x(); const s = NAME_SUFFIX;'))).toBe(true);
    expect(domainWords('names').some((w) => w.test('this.name = "ImportError"; const [name, code] = e; statusOf(s).name;'))).toBe(false);
  });

  it('domain folders import no other domain; their chain-level files nothing above the chain (rpc, eth, intents, consensus, p2p, cli, client, node)', () => {
    const bad: string[] = [];
    for (const d of domains) {
      const dir = join(ROOT, 'src/domains', d.name);
      for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
        // rpc.ts (and <part>-rpc.ts) is the RPC layer's and client.ts the client's (test/unit/imports.test.ts "domains/ by layer").
        const chainLevel = !/^(?:[a-z-]+-)?rpc\.ts$/.test(f) && f !== 'client.ts';
        for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
          const spec = m[1]!;
          if (/^\.\.\/(?!module\.js)[^./]/.test(spec)) bad.push(`${d.name}/${f} → ${spec}`);
          if (chainLevel && /^\.\.\/\.\.\/(rpc|eth|intents|consensus|p2p|cli|client|node)\b/.test(spec)) bad.push(`${d.name}/${f} → ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

/** Every src/ file below `dir`, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []);
}

/** The JSON-RPC method names a file defines: `name: 'svc_…'` of a definition, or a helper's first argument (`amountWrite('svc_stakeToPool', …)`). */
const definedIn = (path: string) => [...codeOf(path).matchAll(/(?:\bname:\s*|\w\(\s*)'((?:svc|eth|net|web3|rpc)_[A-Za-z0-9]+)'/g)].map((m) => m[1]!);

/** Methods of a domain's operations still defined outside its folder, each with why: none. */
const NOT_YET_MOVED: Record<string, string[]> = {};

describe('domain RPC modules (src/domains/rpc.ts)', () => {
  const inert: unknown = new Proxy(function inert() {}, { get: (_t, key) => (key === 'then' ? undefined : inert), apply: () => inert, construct: () => inert as object });
  const deps = { chain: inert, readers: inert, validator: inert, network: 'testnet', faucet: inert, subscriptions: inert, p2p: inert, intents: inert, consensus: inert } as unknown as MethodDependencies;
  const outside = (name: string) => sources('src').filter((f) => !f.startsWith(`src/domains/${name}/`));

  it('each is a registered domain\'s, once, and every domain folder with an rpc.ts is listed', () => {
    const names = domainRpc.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(domains.map((d) => d.name), n).toContain(n);
    const withRpc = domains.map((d) => d.name).filter((n) => existsSync(join(ROOT, 'src/domains', n, 'rpc.ts')));
    expect([...names].sort()).toEqual(withRpc.sort());
  });

  it('a domain\'s methods are defined in its folder and nowhere else, and its examples describe only them', () => {
    const misplaced: string[] = [];
    for (const d of domainRpc) {
      const own = d.methods(deps).map((m) => m.name);
      expect(own.length, d.name).toBeGreaterThan(0);
      // rpc.ts, and the `<part>-rpc.ts` files of a domain that splits its methods (collections: NFTs and multi-tokens).
      const rpcFiles = readdirSync(join(ROOT, 'src/domains', d.name)).filter((f) => /^(?:[a-z-]+-)?rpc\.ts$/.test(f)).map((f) => `src/domains/${d.name}/${f}`);
      expect([...new Set(rpcFiles.flatMap(definedIn))].sort(), d.name).toEqual([...new Set(own)].sort());
      for (const f of outside(d.name)) for (const m of definedIn(f)) if (own.includes(m)) misplaced.push(`${f}: ${m} (${d.name})`);
      const documented = [...Object.keys(d.docs.EXAMPLES ?? {}), ...Object.keys(d.docs.POSITIONAL_EXAMPLES ?? {})];
      for (const m of documented) expect(own, `${d.name}/examples.json: ${m}`).toContain(m);
    }
    expect(misplaced).toEqual([]);
  });

  it('no method defined outside a domain\'s folder is named for that domain or one of its operations (svc_getBridgeStatus, svc_swap)', () => {
    const found: string[] = [];
    for (const d of domainRpc) {
      const words = domainWords(d.name).map((w) => new RegExp(w.source.replace(/\\b([A-Z])([A-Za-z]+)\\b/, (_m, a: string, b: string) => `(?<![A-Za-z])(?:${a}|${a.toLowerCase()})${b}(?![a-z])`)));
      // A domain whose name extends this one's (staking-pools of staking) names its methods for itself.
      for (const f of outside(d.name).filter((f) => !f.startsWith(`src/domains/${d.name}-`))) {
        for (const m of definedIn(f)) if (words.some((w) => w.test(m.replace(/^[a-z0-9]+_/, '')))) found.push(`${f}: ${m}`);
      }
    }
    const allowed = Object.entries(NOT_YET_MOVED).flatMap(([f, ms]) => ms.map((m) => `${f}: ${m}`));
    expect(found.filter((x) => !allowed.includes(x))).toEqual([]);
    // Each exception is still needed (a stale one would hide a method defined twice).
    expect(allowed.filter((x) => !found.includes(x))).toEqual([]);
  });

  it('the method-name scan finds a domain\'s method where one is (the scan itself works)', () => {
    const wordsOf = (name: string) => domainWords(name).map((w) => new RegExp(w.source.replace(/\\b([A-Z])([A-Za-z]+)\\b/, (_m, a: string, b: string) => `(?<![A-Za-z])(?:${a}|${a.toLowerCase()})${b}(?![a-z])`)));
    expect(wordsOf('dex').some((w) => w.test('swap'))).toBe(true);
    expect(wordsOf('bridge').some((w) => w.test('getBridgeStatus'))).toBe(true);
    expect(wordsOf('staking-pools').some((w) => w.test('getStakingPools'))).toBe(true);
    expect(wordsOf('dex').some((w) => w.test('getTransactionByBlockNumberAndIndex'))).toBe(false);
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

describe('receipt formats through the registry (src/chain/receipts.ts)', () => {
  it('each format a module gives is named in abi/events.mjs and given by that module only', async () => {
    const { events } = (await import(join(ROOT, 'abi/events.mjs'))) as { events: Array<{ fields: Array<[string, string, { as?: string; j?: string }?]>; receipt?: { extra?: Array<[string, string, string?]> } }> };
    const named = new Set(events.flatMap((r) => [...r.fields.flatMap((f) => [f[2]?.as, f[2]?.j]), ...(r.receipt?.extra ?? []).map((x) => x[2]?.replace(/\?$/, ''))]).filter((x): x is string => !!x));
    const givenBy = new Map<string, string[]>();
    // A block's formats (blockReceiptFormats) are made from its result and the token registry; making them reads neither.
    const block = { result: {}, tokens: {} } as unknown as ReceiptBlock;
    for (const d of domains) {
      const given = [...Object.keys(d.receiptFormats ?? {}), ...Object.keys(d.blockReceiptFormats?.(block) ?? {})];
      for (const f of given) givenBy.set(f, [...(givenBy.get(f) ?? []), d.name]);
    }
    expect(givenBy.size).toBeGreaterThanOrEqual(8);
    // the stablecoins' and the DEX's, once written in receipts.ts
    for (const f of ['stableAdminAction', 'issuerProofSubject', 'pool', 'pairToken0', 'swapTokenOut']) expect(givenBy.has(f), f).toBe(true);
    for (const [f, by] of givenBy) {
      expect(named.has(f), `${f} (${by.join(', ')}) is a format of abi/events.mjs`).toBe(true);
      expect(by, f).toHaveLength(1);
    }
    // src/chain/receipts.ts writes none of them again.
    const receipts = codeOf('src/chain/receipts.ts');
    for (const f of givenBy.keys()) expect(new RegExp(`^\\s+${f}:`, 'm').test(receipts), `${f} also in receipts.ts`).toBe(false);
  });
});

describe('domain client helpers (src/domains/<name>/client.ts)', () => {
  it('each exported helper class of a domain\'s client.ts is composed into Wallet, its methods the Wallet\'s own, and none is defined in src/client/wallet.ts too', async () => {
    const folders = domains.map((d) => d.name).filter((n) => existsSync(join(ROOT, 'src/domains', n, 'client.ts')));
    expect(folders.length).toBeGreaterThanOrEqual(5);
    const walletCode = codeOf('src/client/wallet.ts');
    for (const n of folders) {
      const mod = (await import(join(ROOT, 'src/domains', n, 'client.ts'))) as Record<string, unknown>;
      const classes = Object.values(mod).filter((v): v is { prototype: object } => typeof v === 'function' && /^class\s/.test(String(v)));
      expect(classes.length, n).toBe(1);
      const methods = Object.getOwnPropertyNames(classes[0]!.prototype).filter((m) => m !== 'constructor');
      expect(methods.length, n).toBeGreaterThan(0);
      for (const m of methods) {
        expect((Wallet.prototype as unknown as Record<string, unknown>)[m], `${n}: Wallet.${m}`).toBe((classes[0]!.prototype as Record<string, unknown>)[m]);
        expect(new RegExp(`\\basync\\s+${m}\\(`).test(walletCode), `${m} also in wallet.ts`).toBe(false);
      }
    }
  });
});
