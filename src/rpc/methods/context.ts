import type { Chain } from '../../chain/chain.js';
import type { Network } from '../../chain/genesis-data.js';
import type { ValidatorIdentity } from '../../chain/producer.js';
import type { FaucetLedger } from '../../chain/faucet.js';

/** What the method files need from the node (imports point one way: rpc → chain → core). */
export interface MethodDependencies {
  chain: Chain;
  validator: ValidatorIdentity;
  network: Network;
  faucet: FaucetLedger;
}
