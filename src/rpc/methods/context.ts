import type { Chain } from '../../chain/chain.js';
import type { Network } from '../../chain/genesis-data.js';
import type { ValidatorIdentity } from '../../chain/producer.js';
import type { FaucetLedger } from '../../chain/faucet.js';
import type { SubscriptionHub } from '../subscriptions.js';

/** What the method files need from the node (imports point one way: rpc → chain → core). */
export interface MethodDependencies {
  chain: Chain;
  validator: ValidatorIdentity;
  network: Network;
  faucet: FaucetLedger;
  /** spec §6 WebSocket subscriptions (src/rpc/subscriptions.ts) */
  subscriptions: SubscriptionHub;
}
