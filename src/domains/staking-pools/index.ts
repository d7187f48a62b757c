/**
 * The staking pools' host module (docs/staking-pools.md): its own ABI group, apart from the
 * validator staking of src/domains/staking/. Its operations carry no proof the core cannot check
 * and declare no NTV spend, so it adds no chain-level hook; it is registered so that its folder
 * (reader.ts, rpc.ts, examples.json) is a domain's, held to the registry's rules.
 */

import type { DomainModule } from '../module.js';
import { encodeStakingPool } from './reader.js';

export const stakingPools: DomainModule = { name: 'staking-pools', proofChecks: [], receiptFormats: { stakingPool: encodeStakingPool } };
