/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/presales.ts
 * (docs/presales.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  // Presales and token staking pools (docs/presales.md, docs/staking-pools.md): results recorded from a testnet node.
  svc_createPresale: [{
    name: "sell AUR for NTV: 2 AUR per NTV, soft 100, hard 300 NTV, 60% to liquidity locked 30 days",
    params: [{ name: "token", value: "AUR" }, { name: "pay_token", value: "NTV" }, { name: "rate", value: "2000000000" }, { name: "soft_cap", value: "100000000000" }, { name: "hard_cap", value: "300000000000" }, { name: "min_contribution", value: "10000000000" }, { name: "max_contribution", value: "200000000000" }, { name: "start_time", value: 1795694984 }, { name: "end_time", value: 1795694990 }, { name: "liquidity_bps", value: 6000 }, { name: "lp_lock_duration", value: 2592000 }, { name: "sender", value: ALICE }],
    result: { name: "receipt", value: {
      "bundle_hash": "Nxh4VWx6gcgNM2gHZtvoUVgFY2S8SBET3GRftxd2bCXV9qt",
      "block_height": 6,
      "block_hash": "Nxh9gQf6vxiu6B562sL42v9iF6HLWNpMR5vf4xRpzixMi76",
      "index": 0,
      "timestamp": 1795694984,
      "from": ALICE,
      "nonce": "1",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 65000,
      "fee": "650000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": ALICE,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "520000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "130000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": ALICE,
          "to": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "symbol": "AUR",
          "amount": "960000000000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": ALICE,
          "to": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "token": "Nx111111111111111111111111111111111",
          "symbol": "NTV",
          "amount": "100000000000"
        },
        {
          "type": "PresaleCreated",
          "op_index": 0,
          "presale": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "creator": ALICE,
          "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "pay_token": "Nx111111111111111111111111111111111"
        }
      ],
      "created": {
        "presale": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9"
      }
    } },
  }],
  svc_contributePresale: [{
    name: "contribute 150 NTV",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }, { name: "amount", value: "150000000000" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhFhZHnqu4fuiJomsvvbPLvZVPqBMwJJiZSaoQyLN7sCYq",
      "block_height": 7,
      "block_hash": "NxhAbLM7oFoj8hxGYwC7ug3AwqkYmLhrJEVthdCdwD9Sxux",
      "index": 0,
      "timestamp": 1795694985,
      "from": BOB,
      "nonce": "0",
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
          "to": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "token": "Nx111111111111111111111111111111111",
          "symbol": "NTV",
          "amount": "150000000000"
        }
      ]
    } },
  }],
  svc_finalizePresale: [{
    name: "finalize after the end: the AUR/NTV pool and the proceeds",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "NxhCaUizEWL6RSZ6Nmy49RNXBAcnyXxyVDY4THdpJQkEsRg",
      "block_height": 15,
      "block_hash": "NxhAxVYg1a4KaY7Ww7tEXq23poQ6LDKUnhFeFE2M6UBCBUb",
      "index": 0,
      "timestamp": 1795694992,
      "from": BOB,
      "nonce": "1",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 95000,
      "fee": "950000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": BOB,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "760000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "190000"
        },
        {
          "type": "PoolCreated",
          "op_index": 0,
          "pool": "Nx8FgVEz3kRzFgg5zjCrqxg8YDfHJawNsufzUFewvp3vbgK",
          "token0": "Nx111111111111111111111111111111111",
          "token1": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "creator": ALICE,
          "amount0": "90000000000",
          "amount1": "180000000000",
          "lp_total_supply": "127279220613",
          "lock_until": 1798286992,
          "fee": "100000000000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "to": ALICE,
          "token": "Nx111111111111111111111111111111111",
          "symbol": "NTV",
          "amount": "60000000000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "to": ALICE,
          "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "symbol": "AUR",
          "amount": "480000000000"
        }
      ],
      "created": {
        "pool": "Nx8FgVEz3kRzFgg5zjCrqxg8YDfHJawNsufzUFewvp3vbgK"
      }
    } },
  }],
  svc_refundPresale: [{
    name: "a contribution back from a failed presale",
    params: [{ name: "presale_address", value: "Nx0D7VMztUxvi27zRTePsrE1swE4w1RgWCGUgsMFvxzrBcW" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "Nxh2PK73tW8geSrNZXAxmHuMnnXfBRemqFLdXnZrEHMiagn",
      "block_height": 24,
      "block_hash": "Nxh943V65mpi4VyeHU84Yq6P3dV6jfkQZYhxHxjt2MwprUN",
      "index": 0,
      "timestamp": 1795694999,
      "from": BOB,
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
          "payer": BOB,
          "proposer": "Nx02ucd6nh9mq33dT9nX4v33u8ZobN5mYHKQbUy4UhdR4xA",
          "to_proposer": "280000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "70000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": "Nx0D7VMztUxvi27zRTePsrE1swE4w1RgWCGUgsMFvxzrBcW",
          "to": BOB,
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "200000000"
        }
      ]
    } },
  }],
  svc_claimPresaleTokens: [{
    name: "claim the AUR 150 NTV bought",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }, { name: "sender", value: BOB }],
    result: { name: "receipt", value: {
      "bundle_hash": "Nxh4ZhFhhB5gk8GATAxpQ6RLt73TQSZWzu9adBpg3AACtRZ",
      "block_height": 16,
      "block_hash": "Nxh9jXVmMjzvR7dUPXtVok2PhFdc34VYFkqf4aA6BSUZqwQ",
      "index": 0,
      "timestamp": 1795694993,
      "from": BOB,
      "nonce": "2",
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
          "from": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
          "to": BOB,
          "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
          "symbol": "AUR",
          "amount": "300000000000"
        }
      ]
    } },
  }],
  svc_getPresale: [{
    name: "a finalized presale",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }],
    result: { name: "presale", value: {
      "presale_address": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
      "id": 1,
      "creator": ALICE,
      "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
      "token_symbol": "AUR",
      "pay_token": "Nx111111111111111111111111111111111",
      "pay_token_symbol": "NTV",
      "rate": "2000000000",
      "rate_scale": "1000000000",
      "soft_cap": "100000000000",
      "hard_cap": "300000000000",
      "min_contribution": "10000000000",
      "max_contribution": "200000000000",
      "start_time": 1795694984,
      "end_time": 1795694990,
      "liquidity_bps": 6000,
      "lp_lock_duration": 2592000,
      "raised": "150000000000",
      "contributors": 1,
      "status": "finalized",
      "creator_refunded": false,
      "sale_escrow": "600000000000",
      "liquidity_escrow": "360000000000",
      "created_at": 1795694984,
      "created_height": 6,
      "dex_pool": "Nx8FgVEz3kRzFgg5zjCrqxg8YDfHJawNsufzUFewvp3vbgK",
      "finalized_at": 1795694992,
      "finalized_height": 15,
      "liquidity_paid": "90000000000",
      "liquidity_tokens": "180000000000",
      "lp_locked": "127279219613",
      "lp_lock_until": 1798286992,
      "tokens_sold": "300000000000",
      "creator_proceeds": "60000000000"
    } },
  }],
  svc_listPresales: [{
    name: "the newest presale",
    params: [{ name: "limit", value: 1 }],
    result: { name: "presales", value: [
      {
        "presale_address": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
        "id": 1,
        "creator": ALICE,
        "token": "Nx16Warfp6emroydfmLsFLUHjzzAiEtkseiz7XmYPfbirxF",
        "token_symbol": "AUR",
        "pay_token": "Nx111111111111111111111111111111111",
        "pay_token_symbol": "NTV",
        "rate": "2000000000",
        "rate_scale": "1000000000",
        "soft_cap": "100000000000",
        "hard_cap": "300000000000",
        "min_contribution": "10000000000",
        "max_contribution": "200000000000",
        "start_time": 1795694984,
        "end_time": 1795694990,
        "liquidity_bps": 6000,
        "lp_lock_duration": 2592000,
        "raised": "150000000000",
        "contributors": 1,
        "status": "finalized",
        "creator_refunded": false,
        "sale_escrow": "600000000000",
        "liquidity_escrow": "360000000000",
        "created_at": 1795694984,
        "created_height": 6,
        "dex_pool": "Nx8FgVEz3kRzFgg5zjCrqxg8YDfHJawNsufzUFewvp3vbgK",
        "finalized_at": 1795694992,
        "finalized_height": 15,
        "liquidity_paid": "90000000000",
        "liquidity_tokens": "180000000000",
        "lp_locked": "127279219613",
        "lp_lock_until": 1798286992,
        "tokens_sold": "300000000000",
        "creator_proceeds": "60000000000"
      }
    ] },
  }],
  svc_getPresaleContributions: [{
    name: "one contributor, tokens claimed",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }],
    result: { name: "contributions", value: {
      "presale_address": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
      "count": 1,
      "contributions": [
        {
          "contributor": BOB,
          "amount": "150000000000",
          "tokens": "300000000000",
          "state": "claimed"
        }
      ]
    } },
  }],
  svc_getPresaleStatus: [{
    name: "an active presale past its soft cap",
    params: [{ name: "presale_address", value: "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9" }],
    result: { name: "status", value: {
      "presale_address": "Nx093CHj5kDXcnBJ1VG6uKp7WcY2UYTQMjqxN4N5Drc4Pu9",
      "status": "active",
      "now": 1795694985,
      "raised": "150000000000",
      "soft_cap": "100000000000",
      "hard_cap": "300000000000",
      "progress_bps": 5000,
      "soft_cap_reached": true,
      "hard_cap_reached": false,
      "contributors": 1,
      "seconds_to_start": 0,
      "seconds_to_end": 5,
      "can_contribute": true,
      "can_finalize": false,
      "can_refund": false,
      "can_claim": false
    } },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  // Presales and token staking pools (docs/presales.md, docs/staking-pools.md)
  svc_getPresale:
    'Reads the presale record (docs/presales.md "State layout"): its terms, the raise, what is escrowed, its state at the head block time, and once finalized the DEX pool, the locked LP and its unlock time, the tokens reserved for claims and what the creator received. Errors: NOT_FOUND.',
  svc_listPresales:
    'Newest first; `status` keeps only presales in that state at the head block time (upcoming, active, succeeded: finalizable, failed: refundable, finalized). No application errors.',
  svc_getPresaleContributions:
    'One row per contributor with its total, the sale tokens it buys (floor(amount·rate/10^9)) and whether they were claimed or the contribution refunded; `count` is the number of contributors. Errors: NOT_FOUND.',
  svc_getPresaleStatus:
    'The presale state at the head block time with its progress towards the caps, the seconds to its start and end, and which operations would be accepted now (contribute, finalize, refund, claim). Errors: NOT_FOUND.',
};
