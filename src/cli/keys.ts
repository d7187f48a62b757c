import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'clipanion';
import { encodeAccount, deriveAccount } from '../codec/address.js';
import { generateEd25519 } from '../codec/keys.js';

/** `ntv-node keys generate`: a validator or wallet key file for --validator-key (spec §4.20). */
export class KeysGenerateCommand extends Command {
  static override paths = [['keys', 'generate']];

  static override usage = Command.Usage({
    description: 'Generate an Ed25519 key: writes 64 hex chars (the secret key) to a file with mode 0600 and prints its address.',
    examples: [['A validator key', 'ntv-node keys generate --out validator.key']],
  });

  out = Option.String('-o,--out', { required: true, description: 'File to create; an existing file is never overwritten' });

  async execute(): Promise<number> {
    const keypair = generateEd25519();
    await writeFile(this.out, `${Buffer.from(keypair.seed).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    this.context.stdout.write(`${JSON.stringify({
      address: encodeAccount(deriveAccount(keypair.publicKey)),
      public_key: Buffer.from(keypair.publicKey).toString('hex'),
      file: this.out,
    }, null, 2)}\n`);
    return 0;
  }
}
