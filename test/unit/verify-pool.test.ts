import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SignatureVerifierPool, type VerifyItem } from '../../src/codec/verify-pool.js';
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { generateEd25519, generateMlDsa65, signEd25519, signMlDsa65, verifyEd25519OpenSsl, verifySignature } from '../../src/codec/keys.js';
import { sodiumVerifyEd25519 } from '../../src/codec/ed25519-native.js';

function mixedBatch(n: number): VerifyItem[] {
  const signers = Array.from({ length: 8 }, () => generateEd25519());
  const items: VerifyItem[] = [];
  for (let i = 0; i < n; i++) {
    const s = signers[i % signers.length]!;
    const message = randomBytes(32);
    const signature = signEd25519(s.seed, message);
    switch (i % 6) {
      case 0: items.push({ message, signature, publicKey: s.publicKey }); break;
      case 1: items.push({ message: randomBytes(32), signature, publicKey: s.publicKey }); break; // wrong message
      case 2: { const bad = signature.slice(); bad[40]! ^= 0x10; items.push({ message, signature: bad, publicKey: s.publicKey }); break; }
      case 3: items.push({ message, signature, publicKey: signers[(i + 1) % signers.length]!.publicKey }); break; // wrong key
      case 4: items.push({ message, signature: signature.subarray(0, 63), publicKey: s.publicKey }); break; // bad length
      default: items.push({ message, signature, publicKey: s.publicKey });
    }
  }
  return items;
}

describe('SignatureVerifierPool', () => {
  const pool = new SignatureVerifierPool({ size: 3, maxBatchItems: 100 });
  afterAll(() => pool.close());

  it('matches single-thread verification on a mixed batch, in order', async () => {
    const items = mixedBatch(1000);
    const expected = items.map((it) => verifySignature(it.publicKey, it.message, it.signature));
    expect(expected.filter(Boolean).length).toBeGreaterThan(300);
    expect(expected.filter((x) => !x).length).toBeGreaterThan(600);
    expect(await pool.verifyBatch(items)).toEqual(expected);
  });

  it('answers the rule where libsodium refuses: a small-order R that satisfies the equation', async () => {
    // R = identity and S = k·a for A = [a]B: the rule (OpenSSL's equation after the prechecks)
    // accepts, libsodium refuses; the worker asks OpenSSL about libsodium's refusals (ed25519-native.ts).
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const le = (n: bigint): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
    const items: VerifyItem[] = [];
    for (let i = 1n; i <= 4n; i++) {
      const a = 987654321987654321n * i;
      const publicKey = ed.Point.BASE.multiply(a).toBytes();
      const R = ed.Point.ZERO.toBytes();
      const message = randomBytes(32);
      const h = createHash('sha512').update(R).update(publicKey).update(message).digest();
      const k = h.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n) % L;
      const signature = Uint8Array.from([...R, ...le((k * a) % L)]);
      expect(sodiumVerifyEd25519(publicKey, message, signature)).toBe(false);
      items.push({ message, signature, publicKey }, { message: randomBytes(32), signature, publicKey });
    }
    const expected = items.map((it) => verifyEd25519OpenSsl(it.publicKey, it.message, it.signature));
    expect(expected).toEqual([true, false, true, false, true, false, true, false]);
    expect(await pool.verifyBatch(items)).toEqual(expected);
  });

  it('verifies ML-DSA-65 items in the worker too', async () => {
    const kp = generateMlDsa65();
    const message = randomBytes(32);
    const signature = signMlDsa65(kp.secretKey, message);
    const ed = generateEd25519();
    const edSig = signEd25519(ed.seed, message);
    expect(await pool.verifyBatch([
      { message, signature, publicKey: kp.publicKey },
      { message: randomBytes(32), signature, publicKey: kp.publicKey },
      { message, signature: edSig, publicKey: ed.publicKey },
      { message, signature, publicKey: ed.publicKey },
    ])).toEqual([true, false, true, false]);
  });

  it('coalesces single verify() calls made in one turn, answering each in order', async () => {
    const items = mixedBatch(60);
    const expected = items.map((it) => verifySignature(it.publicKey, it.message, it.signature));
    const got = await Promise.all(items.map((it) => pool.verify(it.message, it.signature, it.publicKey)));
    expect(got).toEqual(expected);
    expect(await pool.verifyBatch([])).toEqual([]);
  });

  it('default size is cores − 1, at least 1; close() finishes in-flight work, then refuses', async () => {
    expect(new SignatureVerifierPool().size).toBeGreaterThanOrEqual(1);
    const own = new SignatureVerifierPool({ size: 2 });
    const items = mixedBatch(200);
    const pending = own.verifyBatch(items);
    const closing = own.close();
    expect(await pending).toEqual(items.map((it) => verifySignature(it.publicKey, it.message, it.signature)));
    await closing;
    await expect(own.verifyBatch(items)).rejects.toThrow(/closed/);
    await expect(own.verify(items[0]!.message, items[0]!.signature, items[0]!.publicKey)).rejects.toThrow(/closed/);
  });

  it.runIf(process.platform === 'linux')('a nice value lowers the workers\' threads only, not the process', async () => {
    const niceOf = (task: string): number => {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]); // field 19, after pid and comm
    };
    const before = new Map(readdirSync('/proc/self/task').map((task) => [task, niceOf(task)]));
    const own = new SignatureVerifierPool({ size: 2, nice: 7 });
    const items = mixedBatch(60);
    // the workers start on first use and set their priority before they answer
    expect(await own.verifyBatch(items)).toEqual(items.map((it) => verifySignature(it.publicKey, it.message, it.signature)));
    const added = readdirSync('/proc/self/task').filter((task) => !before.has(task)).map(niceOf);
    expect(added.filter((nice) => nice === 7)).toHaveLength(2);
    for (const [task, nice] of before) if (existsSync(`/proc/self/task/${task}`)) expect(niceOf(task)).toBe(nice);
    expect(niceOf(String(process.pid))).toBe(before.get(String(process.pid)));
    await own.close();
  });

  it('measures pool throughput against one thread', async () => {
    const s = generateEd25519();
    const items = Array.from({ length: 12_000 }, (_, i) => {
      const message = randomBytes(32);
      return { message, signature: signEd25519(s.seed, message), publicKey: i % 2 ? s.publicKey : generateEd25519().publicKey };
    });
    await pool.verifyBatch(items.slice(0, 500)); // spawn and warm the workers
    let t = performance.now();
    for (const it of items) verifySignature(it.publicKey, it.message, it.signature);
    const single = items.length / ((performance.now() - t) / 1000);
    t = performance.now();
    const results = await pool.verifyBatch(items);
    const pooled = items.length / ((performance.now() - t) / 1000);
    console.log(`Ed25519 verify: 1 thread ${Math.round(single)}/s, pool of ${pool.size} ${Math.round(pooled)}/s (ratio ${(pooled / single).toFixed(2)})`);
    expect(results.filter(Boolean).length).toBe(items.length / 2);
  });
});
