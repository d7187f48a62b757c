import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import { parseAddress } from '../codec/address.js';
import { attest, decodeDepositProof, depositDigest, encodeDepositProof } from '../domains/bridge/proofs.js';
import { ed25519PublicKey } from '../codec/keys.js';
import { initHashing } from '../codec/hash.js';
import { CHAIN_IDS, type Network } from '../chain/genesis-data.js';
import { BRIDGE_CHAINS, isBridgeChain } from '../domains/bridge/reader.js';

/**
 * `ntv-node bridge attest`: sign a deposit proof with an attester key (docs/bridge.md "Attesters").
 * On testnet the dev attester is the first genesis validator's key, `validator.key` in its data dir,
 * so a user of a local node can try the bridge: the printed hex goes to svc_bridgeToken or
 * svc_autobridge. Several attesters' proofs of the same deposit combine with --add.
 */
export class BridgeAttestCommand extends Command {
  static override paths = [['bridge', 'attest']];

  static override usage = Command.Usage({
    description: 'Sign a bridge deposit (chain, tx hash, contract, symbol, amount, decimals, recipient) with an attester key and print the proof hex.',
    examples: [[
      'A 100 USDC deposit from ethereum, signed with the dev attester of a local testnet',
      'ntv-node bridge attest -d ./data --chain ethereum --tx-hash 0xabc… --contract 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 --symbol USDC --amount 100000000 --decimals 6 --recipient Nx0…',
    ]],
  });

  dataDir = Option.String('-d,--data-dir', './data', { description: 'the node data dir holding validator.key (the testnet dev attester)' });
  key = Option.String('--key', { description: 'an attester key file (64 hex chars) instead of <data-dir>/validator.key' });
  network = Option.String('--network', 'testnet', { description: 'testnet or mainnet: the chain id in the digest' });
  chain = Option.String('--chain', { required: true, description: `origin chain: ${BRIDGE_CHAINS.map((c) => c.chain).join(', ')}` });
  txHash = Option.String('--tx-hash', { required: true, description: 'the transfer on the origin chain' });
  contract = Option.String('--contract', { required: true, description: 'the token contract on the origin chain' });
  symbol = Option.String('--symbol', { required: true });
  amount = Option.String('--amount', { required: true, description: 'raw units' });
  decimals = Option.String('--decimals', { required: true });
  recipient = Option.String('--recipient', { required: true, description: 'Nx0… account credited' });
  add = Option.String('--add', { description: 'hex of a proof of the same deposit by other attesters: the new signature is appended' });

  async execute(): Promise<number> {
    await initHashing();
    if (!(this.network in CHAIN_IDS)) throw new Error(`--network must be testnet or mainnet, not ${this.network}`);
    if (!isBridgeChain(this.chain)) throw new Error(`--chain must be one of ${BRIDGE_CHAINS.map((c) => c.chain).join(', ')}`);
    if (!/^\d{1,39}$/.test(this.amount)) throw new Error('--amount must be raw units (a decimal integer)');
    const decimals = Number(this.decimals);
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new Error('--decimals must be 0–18');
    const file = this.key ?? join(this.dataDir, 'validator.key');
    const text = (await readFile(file, 'utf8')).trim();
    if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${file} must hold exactly 64 hex characters (an Ed25519 secret key)`);
    const seed = new Uint8Array(Buffer.from(text, 'hex'));
    const message = {
      chain: this.chain, txHash: this.txHash, contract: this.contract, symbol: this.symbol,
      amount: BigInt(this.amount), decimals, recipient: parseAddress(this.recipient),
    };
    const mine = attest(seed, depositDigest(CHAIN_IDS[this.network as Network], message));
    let earlier: Uint8Array = new Uint8Array(0);
    if (this.add) {
      earlier = decodeDepositProof(new Uint8Array(Buffer.from(this.add.replace(/^0x/, ''), 'hex'))).signatures;
    }
    const signatures = new Uint8Array(earlier.length + mine.length);
    signatures.set(earlier);
    signatures.set(mine, earlier.length);
    this.context.stdout.write(`${JSON.stringify({
      attester: Buffer.from(ed25519PublicKey(seed)).toString('hex'),
      proof: Buffer.from(encodeDepositProof({ ...message, signatures })).toString('hex'),
    }, null, 2)}\n`);
    return 0;
  }
}
