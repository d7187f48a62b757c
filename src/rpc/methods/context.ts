import type { ChainApi, DomainReaders } from '../../chain/interface.js';
import type { Network } from '../../chain/genesis-data.js';
import type { ValidatorIdentity } from '../../chain/producer.js';
import type { FaucetLedger } from '../../chain/faucet.js';
import type { SubscriptionHub } from '../subscriptions.js';
import type { P2PView } from '../../p2p/types.js';
import type { IntentService } from '../../intents/service.js';
import type { ConsensusService } from '../../consensus/service.js';

/** What the method files need from the node (imports point one way: rpc → chain → core). */
export interface MethodDependencies {
  chain: ChainApi;
  /** pools, collections, tokens, keys over committed state (built once in node.ts) */
  readers: DomainReaders;
  validator: ValidatorIdentity;
  network: Network;
  faucet: FaucetLedger;
  /** spec §6 WebSocket subscriptions (src/rpc/subscriptions.ts) */
  subscriptions: SubscriptionHub;
  /** the libp2p network, sync and forwarding (src/p2p); absent when the node runs without p2p */
  p2p?: P2PView;
  /** the intent engine (src/intents/service.ts); the intent methods are registered only with it */
  intents?: IntentService;
  /** consensus (src/consensus/service.ts); the consensus methods are registered only with it */
  consensus?: ConsensusService;
}
