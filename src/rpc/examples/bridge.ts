/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/bridge.ts (docs/bridge.md),
 * the proof hex is shortened to its first field (a real one is printed by `ntv-node bridge
 * attest`). test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  "svc_bridgeToken": [
    {
      "name": "100 USDC from ethereum",
      "params": [
        {
          "name": "chain",
          "value": "ethereum"
        },
        {
          "name": "tx_hash",
          "value": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
        },
        {
          "name": "symbol",
          "value": "USDC"
        },
        {
          "name": "amount",
          "value": "100000000"
        },
        {
          "name": "recipient",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        },
        {
          "name": "proof",
          "value": "08000000657468657265756d"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhNKsqBCiSN2Nma5cc7BA3YuAh7YWEYcmUVsNDvZdDiDn",
          "block_height": 13,
          "block_hash": "NxhBbaGPZBJFc96k7bAviWJwAAJbxZW4PrcXFfy3c7KSwYR",
          "index": 0,
          "timestamp": 1795695077,
          "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "nonce": "0",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 65000,
          "fee": "650000",
          "events": []
        }
      }
    }
  ],
  "svc_autobridge": [
    {
      "name": "the fast path to the canonical USDC",
      "params": [
        {
          "name": "proof",
          "value": "08000000657468657265756d"
        }
      ],
      "result": {
        "name": "receive",
        "value": {
          "path": "std8",
          "deposit": {
            "chain": "ethereum",
            "tx_hash": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
            "contract": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
            "status": "completed",
            "reason": null,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "recipient": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "amount": "100000000",
            "height": 13,
            "credited_height": 13
          },
          "receipt": {
            "bundle_hash": "NxhNKsqBCiSN2Nma5cc7BA3YuAh7YWEYcmUVsNDvZdDiDn",
            "block_height": 13,
            "block_hash": "NxhBbaGPZBJFc96k7bAviWJwAAJbxZW4PrcXFfy3c7KSwYR",
            "index": 0,
            "timestamp": 1795695077,
            "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "nonce": "0",
            "status": "success",
            "status_code": 0,
            "status_name": "OK",
            "gas_used": 65000,
            "fee": "650000",
            "events": []
          }
        }
      }
    }
  ],
  "svc_getPendingReceives": [
    {
      "name": "a deposit held while USDC is paused",
      "params": [
        {
          "name": "address",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "pending",
        "value": [
          {
            "chain": "ethereum",
            "tx_hash": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
            "contract": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
            "status": "pending",
            "reason": "TOKEN_PAUSED",
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "recipient": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "amount": "100000000",
            "height": 13,
            "credited_height": null
          }
        ]
      }
    }
  ],
  "svc_bridgeWithdraw": [
    {
      "name": "40 USDC to ethereum",
      "params": [
        {
          "name": "token_mint",
          "value": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo"
        },
        {
          "name": "amount",
          "value": "40000000"
        },
        {
          "name": "chain",
          "value": "ethereum"
        },
        {
          "name": "destination",
          "value": "0x8ba1f109551bD432803012645Ac136ddd64DBA72"
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "withdrawal",
        "value": {
          "sequence": "1",
          "receipt": {
            "bundle_hash": "NxhNKsqBCiSN2Nma5cc7BA3YuAh7YWEYcmUVsNDvZdDiDn",
            "block_height": 13,
            "block_hash": "NxhBbaGPZBJFc96k7bAviWJwAAJbxZW4PrcXFfy3c7KSwYR",
            "index": 0,
            "timestamp": 1795695077,
            "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "nonce": "0",
            "status": "success",
            "status_code": 0,
            "status_name": "OK",
            "gas_used": 65000,
            "fee": "650000",
            "events": []
          }
        }
      }
    }
  ],
  "svc_getBridgeStatus": [
    {
      "name": "a credited deposit",
      "params": [
        {
          "name": "chain",
          "value": "ethereum"
        },
        {
          "name": "tx_hash",
          "value": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
        }
      ],
      "result": {
        "name": "status",
        "value": {
          "kind": "deposit",
          "status": "completed",
          "reason": null,
          "deposit": {
            "chain": "ethereum",
            "tx_hash": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
            "contract": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
            "status": "completed",
            "reason": null,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "recipient": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "amount": "100000000",
            "height": 13,
            "credited_height": 13
          },
          "withdrawal": null
        }
      }
    },
    {
      "name": "a withdrawal awaiting the attesters",
      "params": [
        {
          "name": "chain",
          "value": "ethereum"
        },
        {
          "name": "tx_hash",
          "value": "withdrawal:1"
        }
      ],
      "result": {
        "name": "status",
        "value": {
          "kind": "withdrawal",
          "status": "pending",
          "reason": "awaiting the attesters' signatures",
          "deposit": null,
          "withdrawal": {
            "sequence": "1",
            "chain": "ethereum",
            "destination": "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
            "status": "pending",
            "sender": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "amount": "40000000",
            "fee": "2000000000",
            "height": 15,
            "attested_height": null
          }
        }
      }
    }
  ],
  "svc_getBridgeHistory": [
    {
      "name": "a deposit and a withdrawal",
      "params": [
        {
          "name": "address",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        },
        {
          "name": "limit",
          "value": 10
        }
      ],
      "result": {
        "name": "history",
        "value": [
          {
            "kind": "withdrawal",
            "deposit": null,
            "withdrawal": {
              "sequence": "1",
              "chain": "ethereum",
              "destination": "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
              "status": "pending",
              "sender": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
              "amount": "40000000",
              "fee": "2000000000",
              "height": 15,
              "attested_height": null
            }
          },
          {
            "kind": "deposit",
            "deposit": {
              "chain": "ethereum",
              "tx_hash": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
              "contract": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
              "status": "completed",
              "reason": null,
              "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
              "recipient": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "amount": "100000000",
              "height": 13,
              "credited_height": 13
            },
            "withdrawal": null
          }
        ]
      }
    }
  ],
  "svc_getBridgeFees": [
    {
      "name": "ethereum",
      "params": [
        {
          "name": "chain",
          "value": "ethereum"
        }
      ],
      "result": {
        "name": "fees",
        "value": [
          {
            "chain": "ethereum",
            "fee": "2000000000",
            "fee_token": "NTV"
          }
        ]
      }
    }
  ],
  "svc_registerBridgeMapping": [
    {
      "name": "USDC on BNB Chain",
      "params": [
        {
          "name": "chain",
          "value": "bsc"
        },
        {
          "name": "contract",
          "value": "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d"
        },
        {
          "name": "mint",
          "value": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo"
        },
        {
          "name": "sender",
          "value": "0x0000000000000000000000000000000000000000000000000000000000000003"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhNKsqBCiSN2Nma5cc7BA3YuAh7YWEYcmUVsNDvZdDiDn",
          "block_height": 13,
          "block_hash": "NxhBbaGPZBJFc96k7bAviWJwAAJbxZW4PrcXFfy3c7KSwYR",
          "index": 0,
          "timestamp": 1795695077,
          "from": "Nx0111111111111111111111111111111112",
          "nonce": "0",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 65000,
          "fee": "650000",
          "events": []
        }
      }
    }
  ],
  "svc_getBridgeMappings": [
    {
      "name": "solana",
      "params": [
        {
          "name": "chain",
          "value": "solana"
        }
      ],
      "result": {
        "name": "mappings",
        "value": [
          {
            "chain": "solana",
            "contract": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "symbol": "USDC",
            "source": "std8_origin"
          }
        ]
      }
    }
  ],
  "svc_getContractSafety": [
    {
      "name": "a blocked contract",
      "params": [
        {
          "name": "chain",
          "value": "ethereum"
        },
        {
          "name": "contract_address",
          "value": "0xdeadbeef00000000000000000000000000000000"
        }
      ],
      "result": {
        "name": "safety",
        "value": {
          "chain": "ethereum",
          "contract_address": "0xdeadbeef00000000000000000000000000000000",
          "level": "blocked",
          "level_code": 3,
          "reason": "set by governance proposal 4",
          "proposal_id": "4",
          "height": 120
        }
      }
    }
  ],
  "svc_listContractSafety": [
    {
      "name": "all chains",
      "params": [
        {
          "name": "chain",
          "value": null
        },
        {
          "name": "limit",
          "value": 10
        }
      ],
      "result": {
        "name": "records",
        "value": [
          {
            "chain": "ethereum",
            "contract_address": "0xdeadbeef00000000000000000000000000000000",
            "level": "blocked",
            "level_code": 3,
            "reason": "set by governance proposal 4",
            "proposal_id": "4",
            "height": 120
          }
        ]
      }
    }
  ]
};
