import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcClient, RpcClientError, RpcTransportError, Wallet } from '../../src/client/index.js';
import { decodeBundle, type Bundle } from '../../src/codec/bundle.js';
import { verifyBundleSignature } from '../../src/codec/keys.js';
import { encodeAccount, encodeMint, systemAddress } from '../../src/codec/address.js';
import { fromHex } from '../../src/codec/hash.js';

// A tiny stand-in node: just enough of the svc_* methods the client calls, with real decoding
// and signature checks so the test proves the client sends what the node expects.
const USDC_MINT = new Uint8Array(32).fill(0xaa);
const nonces = new Map<string, bigint>();
const keys = new Map<string, string[]>();
const received: Bundle[] = [];

function handle(method: string, params: unknown[]): unknown {
  switch (method) {
    case 'svc_getAccount': {
      const address = params[0] as string;
      const n = nonces.get(address) ?? 0n;
      return { address, nonce: Number(n), pending_nonce: n.toString(), keys: keys.get(address) ?? [] };
    }
    case 'svc_getBalance':
      return params[1] === 'NTV' ? '1618000000000000000' : '0';
    case 'svc_getTokenInfo':
      if (params[0] === 'USDC') return { symbol: 'USDC', decimals: 6, mint_address: encodeMint(USDC_MINT) };
      throw { code: -32004, message: 'token not found', data: { status: 'TOKEN_NOT_FOUND' } };
    case 'svc_submitBundle': {
      const bundle = decodeBundle(fromHex(params[0] as string));
      const address = encodeAccount(bundle.userAccount);
      const expected = nonces.get(address) ?? 0n;
      if (bundle.nonce !== expected) throw { code: -32010, message: `nonce ${bundle.nonce} != ${expected}`, data: { status: 'BAD_NONCE' } };
      const pk = bundle.senderPubkey ?? fromHex(keys.get(address)![0]!);
      if (!verifyBundleSignature(bundle, pk)) throw { code: -32011, message: 'bad signature', data: { status: 'BAD_SIGNATURE' } };
      received.push(bundle);
      nonces.set(address, expected + 1n);
      if (bundle.senderPubkey) keys.set(address, [Buffer.from(bundle.senderPubkey).toString('hex')]);
      return { status: 'pending', nonce: bundle.nonce.toString() };
    }
    default:
      throw { code: -32601, message: `method ${method} not found` };
  }
}

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      if (req.url === '/broken') {
        res.writeHead(502).end('bad gateway');
        return;
      }
      const answer = (r: { id: unknown; method: string; params?: unknown[] }): unknown => {
        try {
          return { jsonrpc: '2.0', id: r.id, result: handle(r.method, r.params ?? []) };
        } catch (error) {
          return { jsonrpc: '2.0', id: r.id, error };
        }
      };
      const parsed = JSON.parse(body);
      // Answer batches in reverse order: the client must match by id.
      const out = Array.isArray(parsed) ? parsed.map(answer).reverse() : answer(parsed);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('RpcClient', () => {
  it('call returns result; a JSON-RPC error is an RpcClientError with code, message and data', async () => {
    const client = new RpcClient(url);
    expect(await client.call('svc_getBalance', ['x', 'NTV'])).toBe('1618000000000000000');
    const error = await client.call('svc_getTokenInfo', ['NOPE']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcClientError);
    expect(error).toMatchObject({ code: -32004, data: { status: 'TOKEN_NOT_FOUND' }, method: 'svc_getTokenInfo' });
    expect((error as Error).message).toContain('token not found');
  });

  it('batch keeps call order and per-call errors', async () => {
    const results = await new RpcClient(url).batch([
      { method: 'svc_getBalance', params: ['x', 'NTV'] },
      { method: 'svc_nope' },
      { method: 'svc_getBalance', params: ['x', 'USDC'] },
    ]);
    expect(results[0]).toEqual({ ok: true, result: '1618000000000000000' });
    expect(results[1]!.ok).toBe(false);
    expect(!results[1]!.ok && results[1]!.error.code).toBe(-32601);
    expect(results[2]).toEqual({ ok: true, result: '0' });
  });

  it('transport failures are RpcTransportError', async () => {
    await expect(new RpcClient(url + 'broken').call('svc_version')).rejects.toBeInstanceOf(RpcTransportError);
    await expect(new RpcClient('http://127.0.0.1:1/').call('svc_version')).rejects.toBeInstanceOf(RpcTransportError);
  });
});

describe('Wallet', () => {
  it('transfer: pending nonce, sender_pubkey on the first send only, defaults, signed, receipt returned', async () => {
    const wallet = Wallet.generate(url);
    const first = await wallet.transfer(encodeAccount(systemAddress(3)), 'NTV', 1_000n);
    expect(first.receipt).toEqual({ status: 'pending', nonce: '0' });
    expect(first.bundleHash).toMatch(/^Nxh/);
    const sent = received.at(-1)!;
    expect(sent.nonce).toBe(0n);
    expect(sent.senderPubkey).toEqual(wallet.publicKey);
    expect(sent.maxGas).toBe(100_000n);
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(sent.validUntil >= now + 3590n && sent.validUntil <= now + 3610n).toBe(true);
    expect(sent.operations).toEqual([{ type: 'Transfer', to: systemAddress(3), token: new Uint8Array(32), amount: 1_000n }]);

    await wallet.transfer('0x' + '00'.repeat(19) + '04', 'USDC', '25');
    const second = received.at(-1)!;
    expect(second.nonce).toBe(1n);
    expect(second.senderPubkey).toBeUndefined();
    expect(second.operations[0]).toMatchObject({ to: systemAddress(4), token: USDC_MINT, amount: 25n });
    expect(await wallet.getBalance()).toBe(1_618_000_000_000_000_000n);
  });

  it('ML-DSA-65 wallet and createToken', async () => {
    const wallet = Wallet.generate(new RpcClient(url), 'ML-DSA-65');
    await wallet.createToken({ name: 'Test Token', symbol: 'TST', decimals: 9, supply: '1000000' });
    const sent = received.at(-1)!;
    expect(sent.signature.length).toBe(3309);
    expect(sent.operations[0]).toEqual({ type: 'CreateToken', name: 'Test Token', symbol: 'TST', decimals: 9, supply: 1_000_000n, owner: wallet.account });
  });

  it('low-level path crafts bundles the node refuses: wrong nonce, bad signature, expired', async () => {
    const wallet = Wallet.fromSecretKey(Wallet.generate(url).signer.secretKeyHex, url);
    const ops = [{ type: 'Transfer' as const, to: systemAddress(1), token: new Uint8Array(32), amount: 1n }];
    const wrongNonce = wallet.signBundle(await wallet.buildBundle(ops, { nonce: 5n }));
    await expect(wallet.submit(wrongNonce)).rejects.toMatchObject({ code: -32010, data: { status: 'BAD_NONCE' } });
    const good = wallet.signBundle(await wallet.buildBundle(ops));
    const badSig = { ...good, signature: good.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    await expect(wallet.submit(badSig)).rejects.toMatchObject({ code: -32011 });
    const expired = await wallet.buildBundle(ops, { validUntil: 1n });
    expect(expired.validUntil).toBe(1n);
    expect(expired.nonce).toBe(0n); // the failed submit released the reserved nonce
    const ok = await wallet.submit(wallet.signBundle(expired)); // this stand-in node does not check expiry
    expect(ok.bundle?.validUntil).toBe(1n);
  });
});
