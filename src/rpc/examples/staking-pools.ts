/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/staking-pools.ts
 * (docs/staking-pools.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_createStakingPool: [{
    name: "stake AUR, earn 1 USDC per block, locked a day, at most 1,000 AUR each",
    params: [{ name: "token_mint", value: "AUR" }, { name: "reward_source", value: "USDC" }, { name: "reward_rate", value: "1000000" }, { name: "lock_period", value: 86400 }, { name: "capacity", value: "0" }, { name: "per_user_cap", value: "1000000000000" }, { name: "sender", value: ALICE }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhGsX4eaqRnJUyNcYtgiuubPGmkxTTDkauZBdinwgy4o4",
      "block_height": 25,
      "block_hash": "Nxh4JRFDSnjyBSPE7UP9sHP985tTRmYMj3DJ5yuAHRmQ8TF",
      "index": 0,
      "timestamp": 1795695000,
      "from": ALICE,
      "nonce": "3",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 45000,
      "fee": "450000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": ALICE,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "360000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "90000"
        },
        {
          "type": "StakingPoolCreated",
          "op_index": 0,
          "pool": "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o",
          "creator": ALICE,
          "token_mint": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "reward_mint": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb"
        }
      ],
      "created": {
        "staking_pool": "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o"
      }
    } },
  }],
  svc_fundStakingPool: [{
    name: "fund 500 USDC of rewards",
    params: [{ name: "pool_address", value: "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o" }, { name: "amount", value: "500000000" }, { name: "sender", value: ALICE }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhEkadh3GhCg3JETh9bkvjJQxfuQJKB76D1CybvQWuWX5w",
      "block_height": 26,
      "block_hash": "NxhFszugNacwwhpqyz6xABPamUVUe61JUPSkXwLYTbiBWXL",
      "index": 0,
      "timestamp": 1795695000,
      "from": ALICE,
      "nonce": "4",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 35000,
      "fee": "350000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": ALICE,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "280000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "70000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": ALICE,
          "to": "Nx0AzLA685txcFmpv4XGexygfFe7kQ6bVa3TNV4bQ9Y2ZRE",
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "500000000"
        }
      ]
    } },
  }],
  svc_stakeToPool: [{
    name: "stake 300 AUR",
    params: [{ name: "pool_address", value: "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o" }, { name: "amount", value: "300000000000" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhESWC5JWHN8LsowNNuwSniXD32jebQzUp2UsGegeeBCvx",
      "block_height": 27,
      "block_hash": "Nxh7cCS3Tu3o4pybU9T2K3H3RhoeZv3qfmDMYoLkR3rTxzm",
      "index": 0,
      "timestamp": 1795695001,
      "from": BOB,
      "nonce": "5",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 35000,
      "fee": "350000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": BOB,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "280000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "70000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": BOB,
          "to": "Nx06Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o",
          "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "symbol": "AUR",
          "amount": "300000000000"
        }
      ]
    } },
  }],
  svc_unstakeFromPool: [{
    name: "unstake after the lock",
    params: [{ name: "pool_address", value: "Nx6CPcTH8thFBdk1jG1WtGu4Np38CPika6mv3Rm1HZ9AeWX" }, { name: "amount", value: "1000" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "Nxh3TE1w1DfBXEViDeymN3qAgyKcw2jGrvdGWhgYLZh1R1a",
      "block_height": 34,
      "block_hash": "Nxhw94sDJFQ8XTnoCYDeh7E2ekz3vuQDViS2jz28Qqs1nM",
      "index": 0,
      "timestamp": 1795695006,
      "from": BOB,
      "nonce": "8",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 35000,
      "fee": "350000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": BOB,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "280000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "70000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": "Nx0CPcTH8thFBdk1jG1WtGu4Np38CPika6mv3Rm1HZ9AeWX",
          "to": BOB,
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "1000"
        }
      ]
    } },
  }],
  svc_claimPoolRewards: [{
    name: "claim the USDC earned",
    params: [{ name: "pool_address", value: "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhFwxNWbmfoP6KH5J5EvQC9he4dP3Q34uF3wDyvzo3mETi",
      "block_height": 31,
      "block_hash": "NxhJE8t3hzgHaE61eWyfnMZTJUYgiYMECZrvqCAfUQK5TKx",
      "index": 0,
      "timestamp": 1795695004,
      "from": BOB,
      "nonce": "6",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 35000,
      "fee": "350000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": BOB,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "280000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "70000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": "Nx0AzLA685txcFmpv4XGexygfFe7kQ6bVa3TNV4bQ9Y2ZRE",
          "to": BOB,
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "3999999"
        }
      ]
    } },
  }],
  svc_getStakingPool: [{
    name: "a funded pool with one staker",
    params: [{ name: "pool_address", value: "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o" }],
    result: { name: "pool", value: {
      "pool_address": "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o",
      "id": 1,
      "creator": ALICE,
      "token_mint": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
      "token_symbol": "AUR",
      "reward_source": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
      "reward_symbol": "USDC",
      "reward_account": "Nx0AzLA685txcFmpv4XGexygfFe7kQ6bVa3TNV4bQ9Y2ZRE",
      "reward_rate": "1000000",
      "lock_period": 86400,
      "capacity": "0",
      "per_user_cap": "1000000000000",
      "total_staked": "300000000000",
      "stakers": 1,
      "reward_balance": "496000001",
      "reward_available": "496000000",
      "allocated": "1",
      "total_paid": "3999999",
      "funded_blocks": 496,
      "acc_reward_per_share": "13333333333333",
      "last_update_height": 31,
      "created_at": 1795695000,
      "created_height": 25
    } },
  }],
  svc_listStakingPools: [{
    name: "the newest pool",
    params: [{ name: "limit", value: 1 }],
    result: { name: "pools", value: [
      {
        "pool_address": "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o",
        "id": 1,
        "creator": ALICE,
        "token_mint": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
        "token_symbol": "AUR",
        "reward_source": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
        "reward_symbol": "USDC",
        "reward_account": "Nx0AzLA685txcFmpv4XGexygfFe7kQ6bVa3TNV4bQ9Y2ZRE",
        "reward_rate": "1000000",
        "lock_period": 86400,
        "capacity": "0",
        "per_user_cap": "1000000000000",
        "total_staked": "300000000000",
        "stakers": 1,
        "reward_balance": "496000001",
        "reward_available": "496000000",
        "allocated": "1",
        "total_paid": "3999999",
        "funded_blocks": 496,
        "acc_reward_per_share": "13333333333333",
        "last_update_height": 31,
        "created_at": 1795695000,
        "created_height": 25
      }
    ] },
  }],
  svc_getPoolStake: [{
    name: "a locked stake with rewards to claim",
    params: [{ name: "pool_address", value: "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o" }, { name: "staker", value: BOB }],
    result: { name: "stake", value: {
      "pool_address": "Nx66Na2VxMkgpBFykCHFKwZENxf6NJQiiHeXo5fR61F8Y8o",
      "staker": BOB,
      "amount": "300000000000",
      "pending_rewards": "0",
      "unlock_at": 1795781401,
      "locked": true
    } },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_getStakingPool:
    'Reads the pool record (docs/staking-pools.md): its terms, total staked, stakers, the reward account with its balance, what is owed to stakers (allocated) and still available, and how many blocks that lasts at reward_rate. Errors: NOT_FOUND; a text that is not Nx6… is -32602.',
  svc_listStakingPools:
    'Newest first, with the same fields as svc_getStakingPool. No application errors.',
  svc_getPoolStake:
    "An account's position in a pool: its stake, the rewards a claim in a block at the head height would pay (the core's accrual formula applied to the committed records), and its lock. An account without a stake reads amount \"0\". Errors: NOT_FOUND.",
};
