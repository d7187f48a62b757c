import { writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { deriveAccount, encodeAccount } from '../../codec/address.js';
import { encodeBundle, type Bundle } from '../../codec/bundle.js';
import { ed25519PublicKey, signBundle } from '../../codec/keys.js';
import { accountKey, decodeAccount } from '../../core/records.js';
import type { Logger } from '../../logger.js';
import { BUNDLE_GAS_CEILING } from '../../abi/constants.js';
import { activePlan, readUpgradeVote, upgradeInfoOf, type StateReader, type UpgradePlan } from './reader.js';

/** The file the node writes at an upgrade halt (spec §3; facts.md "Upgrade supervisor"). */
export const UPGRADE_INFO_FILE = 'upgrade-info.json';

/** Write <data-dir>/upgrade-info.json atomically (a supervisor may read it the moment we exit). */
export async function writeUpgradeInfo(dataDir: string, plan: UpgradePlan): Promise<string> {
  const path = join(dataDir, UPGRADE_INFO_FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify(upgradeInfoOf(plan), null, 2)}\n`);
  await rename(`${path}.tmp`, path);
  return path;
}

export interface AutoVoterDependencies {
  state: StateReader;
  logger: Logger;
  /** the account's next free nonce (mempool included) */
  pendingNonce(account: Uint8Array): bigint;
  /** admit a signed bundle; resolves once it waits for a block */
  enqueueBundle(bytes: Uint8Array): Promise<{ included: Promise<unknown> }>;
}

/**
 * `--auto-vote-seed` (spec §4.20; docs/upgrades.md "Automatic votes"): after each block, when a plan
 * is pending and the seed's account has not voted on it, sign and submit VoteUpgrade(name,
 * approve = true) from that account, once per plan. It is an ordinary signed bundle: the core
 * decides whether the account may vote (the upgrade authority in seed-authority mode, an active
 * validator in full mode), so a seed without that standing only costs its own fee.
 */
export class UpgradeAutoVoter {
  readonly account: Uint8Array;
  private readonly publicKey: Uint8Array;
  private readonly tried = new Set<string>();

  constructor(private readonly seed: Uint8Array, private readonly deps: AutoVoterDependencies) {
    this.publicKey = ed25519PublicKey(seed);
    this.account = deriveAccount(this.publicKey);
  }

  /** Called on each durable block. */
  onBlock(): void {
    const plan = activePlan(this.deps.state);
    if (!plan || plan.state !== 'pending' || this.tried.has(plan.name)) return;
    if (readUpgradeVote(this.deps.state, this.account, plan.name) !== undefined) return;
    this.tried.add(plan.name);
    const record = this.deps.state.get(accountKey(this.account));
    const revealed = record ? decodeAccount(record).keyCount > 0 : false;
    const bundle: Bundle = {
      userAccount: this.account,
      operations: [{ type: 'VoteUpgrade', name: plan.name, approve: true }],
      maxGas: BUNDLE_GAS_CEILING, maxPriorityFee: 0n, validUntil: BigInt(Math.floor(Date.now() / 1000) + 600),
      nonce: this.deps.pendingNonce(this.account), signature: new Uint8Array(0),
      ...(revealed ? {} : { senderPubkey: this.publicKey }),
    };
    const bytes = encodeBundle(signBundle(bundle, this.seed));
    const voter = encodeAccount(this.account);
    this.deps.logger.info('upgrade: voting for the pending plan (--auto-vote-seed)', { plan: plan.name, height: plan.height, voter });
    void this.deps.enqueueBundle(bytes).then(
      ({ included }) => included.then(
        (receipt) => this.deps.logger.info('upgrade: automatic vote included', { plan: plan.name, voter, status: (receipt as { status?: string }).status }),
        (error: unknown) => this.deps.logger.warn('upgrade: automatic vote failed', { plan: plan.name, voter, error: String(error) }),
      ),
      (error: unknown) => this.deps.logger.warn('upgrade: automatic vote refused', { plan: plan.name, voter, error: String(error) }),
    );
  }
}
