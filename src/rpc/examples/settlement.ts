/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/settlement.ts
 * (docs/settlement.md), recorded from a testnet node (fresh accounts funded from the system
 * account 0x…07): a tier-1 market maker matches and settles a USDC→NTV order, an audit report is
 * anchored, a passport and a chess profile are written. test/unit/rpc-openrpc.test.ts holds each
 * to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  "svc_registerMarketMaker": [
    {
      "name": "tier 1",
      "params": [
        {
          "name": "tier",
          "value": 1
        },
        {
          "name": "sender",
          "value": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "Nxh4M7SxEAmdqk3LLbddmgtBEBPBgsRHrDk89hmELKq24fF",
          "block_height": 4,
          "block_hash": "Nxh9ETUEMRTAyShVXsoHVBaUoZ8V25UrW5pmoggbs2HtM3Q",
          "index": 0,
          "timestamp": 1795695072,
          "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
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
              "payer": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
              "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
              "to_proposer": "280000",
              "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
              "to_treasury": "70000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
              "to": "Nx0J4zy2q6R1DqGfToT6fw3M6KEuUgQNQkHiPvuXTzST2M9",
              "token": "Nx111111111111111111111111111111111",
              "symbol": "NTV",
              "amount": "10000000000000"
            }
          ]
        }
      }
    }
  ],
  "svc_createAtomenceOrder": [
    {
      "name": "sell 1 USDC for at least 2 NTV",
      "params": [
        {
          "name": "sell_token",
          "value": "USDC"
        },
        {
          "name": "sell_amount",
          "value": "1000000"
        },
        {
          "name": "buy_token",
          "value": "NTV"
        },
        {
          "name": "min_buy_amount",
          "value": "2000000000"
        },
        {
          "name": "expiry",
          "value": 1795698672
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "created",
        "value": {
          "order_id": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF",
          "receipt": {
            "bundle_hash": "NxhCb4wwfkV8i93cj3qPCkMSeXaJ3Ser8PztLdQvhYSYba7",
            "block_height": 5,
            "block_hash": "NxhGULMaK1Nnrgvm35dG3VqQ6Pkmi5U8UDALEXPNsaHvo3e",
            "index": 0,
            "timestamp": 1795695073,
            "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "nonce": "0",
            "status": "success",
            "status_code": 0,
            "status_name": "OK",
            "gas_used": 45000,
            "fee": "450000",
            "events": [
              {
                "type": "Fee",
                "op_index": null,
                "payer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
                "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
                "to_proposer": "360000",
                "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
                "to_treasury": "90000"
              },
              {
                "type": "Transfer",
                "op_index": 0,
                "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
                "to": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
                "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
                "symbol": "USDC",
                "amount": "1000000"
              }
            ]
          }
        }
      }
    }
  ],
  "svc_getAtomenceOrder": [
    {
      "name": "an open order",
      "params": [
        {
          "name": "order_id",
          "value": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF"
        }
      ],
      "result": {
        "name": "order",
        "value": {
          "order_id": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF",
          "state": "open",
          "expired": false,
          "creator": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "escrow": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
          "sell_token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "sell_amount": "1000000",
          "buy_token": "Nx111111111111111111111111111111111",
          "min_buy_amount": "2000000000",
          "expiry": 1795698672,
          "created_height": 5,
          "created_at": 1795695073,
          "market_maker": null,
          "bid_amount": null,
          "ask_amount": null,
          "spread_bps": null,
          "matched_height": null,
          "closed_height": null,
          "closed_at": null
        }
      }
    },
    {
      "name": "the settled order",
      "params": [
        {
          "name": "order_id",
          "value": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF"
        }
      ],
      "result": {
        "name": "order",
        "value": {
          "order_id": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF",
          "state": "settled",
          "expired": false,
          "creator": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "escrow": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
          "sell_token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "sell_amount": "1000000",
          "buy_token": "Nx111111111111111111111111111111111",
          "min_buy_amount": "2000000000",
          "expiry": 1795698672,
          "created_height": 5,
          "created_at": 1795695073,
          "market_maker": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
          "bid_amount": "2000000000",
          "ask_amount": "2010000000",
          "spread_bps": 50,
          "matched_height": 6,
          "closed_height": 7,
          "closed_at": 1795695074
        }
      }
    }
  ],
  "svc_matchAtomenceOrder": [
    {
      "name": "bid 2, ask 2.01 NTV (50 bps)",
      "params": [
        {
          "name": "order_id",
          "value": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF"
        },
        {
          "name": "bid_amount",
          "value": "2000000000"
        },
        {
          "name": "ask_amount",
          "value": "2010000000"
        },
        {
          "name": "sender",
          "value": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhAEBpZXaQm8tR1vnFCzs3Hyg8cEVqikTYzivRjBP9zUgQ",
          "block_height": 6,
          "block_hash": "NxhG9CH8rv3hBqTvfqaqzk3U4TM1gC45ygb5kJoQAtHwsBZ",
          "index": 0,
          "timestamp": 1795695073,
          "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
          "nonce": "1",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 45000,
          "fee": "450000",
          "events": [
            {
              "type": "Fee",
              "op_index": null,
              "payer": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
              "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
              "to_proposer": "360000",
              "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
              "to_treasury": "90000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
              "to": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
              "token": "Nx111111111111111111111111111111111",
              "symbol": "NTV",
              "amount": "2000000000"
            }
          ]
        }
      }
    }
  ],
  "svc_settleAtomenceOrder": [
    {
      "name": "the creator settles",
      "params": [
        {
          "name": "order_id",
          "value": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF"
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhBcQkzHTU2ByK18d2b4uaimpeHAxJyT2MbQ75k5bYeW8D",
          "block_height": 7,
          "block_hash": "Nxh6QUN77UkdqGrrv2M5T1pMByQkaayTtBV4b1xG3yvrgD3",
          "index": 0,
          "timestamp": 1795695074,
          "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
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
              "payer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
              "to_proposer": "520000",
              "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
              "to_treasury": "130000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
              "to": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
              "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
              "symbol": "USDC",
              "amount": "1000000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
              "to": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "token": "Nx111111111111111111111111111111111",
              "symbol": "NTV",
              "amount": "2000000000"
            }
          ]
        }
      }
    }
  ],
  "svc_cancelAtomenceOrder": [
    {
      "name": "the creator cancels an open order",
      "params": [
        {
          "name": "order_id",
          "value": "NxhBxcR1UVbkfVacERHgP9TH65QWBv3mJuTdo3XTTyTz9r"
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhC5rDMGrHXo2UgqqkEVK6pmtXNsmzHTtyYdsqVB2EB86e",
          "block_height": 9,
          "block_hash": "Nxh6vzfocBh4YbtupkrNLbGWSqPrFAzMLmrAKU1yaaZfJuo",
          "index": 0,
          "timestamp": 1795695075,
          "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "nonce": "3",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 40000,
          "fee": "400000",
          "events": [
            {
              "type": "Fee",
              "op_index": null,
              "payer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
              "to_proposer": "320000",
              "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
              "to_treasury": "80000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx0J4ns8ixePFzrchGW5v2PfsbdBYcSjyqFVWzEXWBvMSe7",
              "to": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
              "symbol": "USDC",
              "amount": "500000"
            }
          ]
        }
      }
    }
  ],
  "svc_listAtomenceSettlements": [
    {
      "name": "USDC settlements",
      "params": [
        {
          "name": "token",
          "value": "USDC"
        },
        {
          "name": "since_block",
          "value": 0
        },
        {
          "name": "limit",
          "value": 10
        }
      ],
      "result": {
        "name": "settlements",
        "value": [
          {
            "order_id": "NxhqhybE1bLSCaTBu7PMZtD8xj6n2D1uikqsz9vkzPAqFF",
            "state": "settled",
            "expired": false,
            "creator": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "escrow": "Nx0TJFreo1jq3CA7oEPio3DXCXEZ7f4kaFEXyDtxwCdmqm",
            "sell_token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
            "sell_amount": "1000000",
            "buy_token": "Nx111111111111111111111111111111111",
            "min_buy_amount": "2000000000",
            "expiry": 1795698672,
            "created_height": 5,
            "created_at": 1795695073,
            "market_maker": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
            "bid_amount": "2000000000",
            "ask_amount": "2010000000",
            "spread_bps": 50,
            "matched_height": 6,
            "closed_height": 7,
            "closed_at": 1795695074
          }
        ]
      }
    }
  ],
  "svc_getMarketMakers": [
    {
      "name": "tier 1",
      "params": [
        {
          "name": "tier",
          "value": 1
        }
      ],
      "result": {
        "name": "market_makers",
        "value": [
          {
            "address": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
            "tier": 1,
            "stake": "10000000000000",
            "stake_escrow": "Nx0J4zy2q6R1DqGfToT6fw3M6KEuUgQNQkHiPvuXTzST2M9",
            "max_spread_bps": 50,
            "registered_height": 4,
            "open_matches": 0,
            "settled_count": 1,
            "avg_spread_bps": 50
          }
        ]
      }
    }
  ],
  "svc_atomenceStats": [
    {
      "name": "all settlements",
      "params": [],
      "result": {
        "name": "stats",
        "value": {
          "settled_count": 1,
          "total_volume": "2001000000",
          "avg_spread_bps": 50,
          "last_settlement_block": 7,
          "active_mm_count": 1
        }
      }
    },
    {
      "name": "USDC",
      "params": [
        {
          "name": "token",
          "value": "USDC"
        }
      ],
      "result": {
        "name": "stats",
        "value": {
          "settled_count": 1,
          "total_volume": "1000000",
          "avg_spread_bps": 50,
          "last_settlement_block": 7,
          "active_mm_count": 1
        }
      }
    }
  ],
  "svc_deregisterMarketMaker": [
    {
      "name": "stake back",
      "params": [
        {
          "name": "sender",
          "value": "Nx02XCF2NvdGCJBDdMFvfGRuWZpKY9USgRfchCdKpRWs8zR"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "Nxh9pxfJkq4MyPY7zcVVgiEnnfNF14MEEhVHQqudWP2T1tN",
          "block_height": 12,
          "block_hash": "NxhGbcdWPFuzPLmcvcV8p5s6HbEoTWT5Un1bEBSnj24UQPj",
          "index": 0,
          "timestamp": 1795695076,
          "from": "Nx02XCF2NvdGCJBDdMFvfGRuWZpKY9USgRfchCdKpRWs8zR",
          "nonce": "1",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 35000,
          "fee": "350000",
          "events": [
            {
              "type": "Fee",
              "op_index": null,
              "payer": "Nx02XCF2NvdGCJBDdMFvfGRuWZpKY9USgRfchCdKpRWs8zR",
              "proposer": "Nx05N3sdbAcxtntdiWTc2fsHDSKuwRX79jVJ4deYP9TfkMF",
              "to_proposer": "280000",
              "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
              "to_treasury": "70000"
            },
            {
              "type": "Transfer",
              "op_index": 0,
              "from": "Nx05PK8mSyR62znnA3c8wYhs3BVznYhBczGJA1HvRDYZVF9",
              "to": "Nx02XCF2NvdGCJBDdMFvfGRuWZpKY9USgRfchCdKpRWs8zR",
              "token": "Nx111111111111111111111111111111111",
              "symbol": "NTV",
              "amount": "10000000000000"
            }
          ]
        }
      }
    }
  ],
};
