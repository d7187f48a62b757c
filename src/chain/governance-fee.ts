// The governance authority's fees on testnet (issue 41 item 9; docs/stablecoins.md "Authorities").
// 0x00…09 has no key and no genesis allocation (spec §1.9 shares the supply among 0x00…01–08 only),
// yet testnet users are told to name it as `sender` of the governance-only convenience methods
// (svc_createStableToken and the rest), standing in for a passed proposal. Its bundle pays the fee
// like any other, so a fresh testnet refused the documented call. The convenience path therefore
// tops it up from the testnet faucet account (0x00…07, "testnet rewards", spec §1.9) before
// submitting, as a user would with svc_faucet: an ordinary, visible Transfer, no change to any
// state rule, genesis or root. Mainnet never reaches this: the unsigned path is testnet only.
import { GOVERNANCE } from '../abi/constants.js';
import { isGovernanceAddress, systemAddress } from '../codec/address.js';
import type { Operation } from '../codec/bundle.js';
import { FAUCET_AMOUNT_NTV } from './faucet.js';
import { FAUCET_INDEX, NTV_UNIT } from './genesis-data.js';
import type { Receipt } from './receipts.js';

/** Below this NTV balance the authority is topped up: far above a governance operation's fee. */
export const GOVERNANCE_FEE_FLOOR = NTV_UNIT;
/** What one top-up moves: the faucet's draw (spec §1.11). */
export const GOVERNANCE_TOP_UP = FAUCET_AMOUNT_NTV * NTV_UNIT;

export interface GovernanceFeeDeps {
  /** NTV balance at the committed state */
  balance(account: Uint8Array): bigint;
  /** the unsigned convenience submission, resolving with the receipt once included */
  submit(from: Uint8Array, operations: Operation[]): Promise<Receipt>;
}

export class GovernanceFeeFunding {
  /** A top-up in flight: concurrent governance calls wait for the same one. */
  private pending: Promise<void> | undefined;

  constructor(private readonly deps: GovernanceFeeDeps) {}

  /** Before a convenience bundle of `from`: when it is the governance authority and low, fund it. */
  async before(from: Uint8Array): Promise<void> {
    if (!isGovernanceAddress(from) || this.deps.balance(GOVERNANCE) >= GOVERNANCE_FEE_FLOOR) return;
    this.pending ??= this.topUp().finally(() => {
      this.pending = undefined;
    });
    await this.pending;
  }

  private async topUp(): Promise<void> {
    const receipt = await this.deps.submit(systemAddress(FAUCET_INDEX), [{ type: 'Transfer', to: GOVERNANCE, token: new Uint8Array(32), amount: GOVERNANCE_TOP_UP }]);
    if (receipt.status !== 'success') throw new Error(`topping up the governance authority's fees failed: ${receipt.status_name}`);
  }
}
