/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/stablecoins.ts
 * (docs/stablecoins.md), recorded from a testnet node by calling them in this order (accounts from
 * svc_generateKeypair, governance 0x00…09 as the sender of its operations; the issuer-onboarding
 * ones with a viem admin key); positional params, named from the method's own list by ./index.ts.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */

/** Recorded as positional values; ./index.ts names them from the method's param list. */
export const POSITIONAL_EXAMPLES: Record<string, Array<{ name: string; params: unknown[]; result: unknown }>> = {
  "svc_stableIssuerOnboardingMessage": [
    {
      "name": "the message the USDC admin on Ethereum signs",
      "params": [
        "USDC",
        1
      ],
      "result": {
        "message": "NTV STD-8 issuer onboarding\nI control the admin address of this stablecoin on its origin chain.\ntoken: Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb\norigin chain id: 1\nnetwork chain id: 1618032",
        "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
        "origin_chain_id": 1,
        "network_chain_id": 1618032
      }
    }
  ],
  "svc_stableSubmitAdminSignature": [
    {
      "name": "the foundation records the admin signature (verified by the node)",
      "params": [
        "USDC",
        1,
        "0x1590BBbF111Ba04Dd1cd9029228E041da0c28440",
        "0x18672b34f75eca7ab2810d5c70c543cc115451354f2681f5bc89a098cb206bac49748c679c729819ead4fb4b4235d59213e2a6bff3743565164b21821c5918971c",
        "0x0000000000000000000000000000000000000000000000000000000000000003"
      ],
      "result": {
        "bundle_hash": "Nxh8TYiAtop4qmXMZ7Zcz5KYVF3eP86mR9bnwi1372VG8Ya",
        "block_height": 5,
        "block_hash": "NxhCq2ty68us63dmQ5zNb2ZZMebVW5YwXLwZESToDxbdodE",
        "index": 0,
        "timestamp": 1795706620,
        "from": "0x0000000000000000000000000000000000000000000000000000000000000003",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "proposer": "Nx0B4tRWftB6oKq7iT3V1VnQXJafNuVip7jLP41DHjo7LwF",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableIssuerProof",
            "op_index": 0,
            "mint": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
            "by": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "method": "admin_signature",
            "subject": "0x1590bbbf111ba04dd1cd9029228e041da0c28440",
            "proofs": 1,
            "verification_status": "Pending"
          }
        ]
      }
    }
  ],
  "svc_stableAttestIssuer": [
    {
      "name": "the foundation attests the corporate documents: the second proof makes the issuer Verified",
      "params": [
        "USDC",
        "documents",
        "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e",
        "Certificate of incorporation 2026-114",
        "0x0000000000000000000000000000000000000000000000000000000000000003"
      ],
      "result": {
        "bundle_hash": "Nxh5cdXDNfX4wGcf79R5mmHX8x1UeJivNzCmgaYZrgSV22u",
        "block_height": 6,
        "block_hash": "Nxh3Tooysn4AGv8XBMBrZ9moy9ihWxZWWemSo4RpPqkrtME",
        "index": 0,
        "timestamp": 1795706621,
        "from": "0x0000000000000000000000000000000000000000000000000000000000000003",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "proposer": "Nx0B4tRWftB6oKq7iT3V1VnQXJafNuVip7jLP41DHjo7LwF",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableIssuerProof",
            "op_index": 0,
            "mint": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
            "by": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "method": "documents",
            "subject": "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e",
            "proofs": 2,
            "verification_status": "Verified"
          }
        ]
      }
    }
  ],
  "svc_getIssuerOnboarding": [
    {
      "name": "USDC after two of three proofs",
      "params": [
        "USDC"
      ],
      "result": {
        "mint": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
        "symbol": "USDC",
        "verification_status": "Verified",
        "proofs_recorded": 2,
        "proofs_required": 2,
        "missing": [
          "domain"
        ],
        "proofs": [
          {
            "method": "admin_signature",
            "recorded_by": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "height": 5,
            "admin_address": "0x1590bbbf111ba04dd1cd9029228e041da0c28440",
            "origin_chain_id": 1,
            "signature": "0x18672b34f75eca7ab2810d5c70c543cc115451354f2681f5bc89a098cb206bac49748c679c729819ead4fb4b4235d59213e2a6bff3743565164b21821c5918971c",
            "message": "NTV STD-8 issuer onboarding\nI control the admin address of this stablecoin on its origin chain.\ntoken: Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb\norigin chain id: 1\nnetwork chain id: 1618032"
          },
          {
            "method": "documents",
            "recorded_by": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "height": 6,
            "evidence_digest": "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e",
            "detail": "Certificate of incorporation 2026-114"
          }
        ]
      }
    }
  ],
  "svc_createStableToken": [
    {
      "name": "create EURX (governance 0x00…09 as sender on testnet)",
      "params": [
        {
          "name": "Euro X",
          "symbol": "EURX",
          "decimals": 6,
          "currency": "EUR",
          "issuer": "X Bank",
          "owner": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
          "master_minter": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
          "pauser": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
          "blacklister": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
          "guardians": [
            "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz"
          ],
          "origin_mappings": [
            {
              "chain": "ethereum",
              "contract": "0x2222222222222222222222222222222222222222"
            }
          ],
          "supply_cap": "1000000000000",
          "mint_threshold": "5000000000",
          "required_signers": 2,
          "authorized_cosigners": [
            "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
            "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy"
          ],
          "timelock": 2,
          "epoch_length": 720
        },
        "0x0000000000000000000000000000000000000000000000000000000000000009"
      ],
      "result": {
        "bundle_hash": "NxhAbKDFBT2bY2AcbMpSZhiizPjHJVXRfPhMMmy2Y6h7SER",
        "block_height": 13,
        "block_hash": "Nxh6GQRy1sFpvJQixyf9XWb4BfLBXW8C7ri6fYYMEhhwYue",
        "index": 0,
        "timestamp": 1795695714,
        "from": "0x0000000000000000000000000000000000000000000000000000000000000009",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 85000,
        "fee": "850000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "680000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "170000"
          },
          {
            "type": "TokenCreated",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "creator": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "owner": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "supply": "0"
          },
          {
            "type": "StableCreated",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "owner": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "master_minter": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
            "pauser": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
            "blacklister": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy"
          }
        ],
        "created": {
          "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo"
        }
      }
    }
  ],
  "svc_stableConfigureMinter": [
    {
      "name": "queue a minter addition (timelocked)",
      "params": [
        "EURX",
        "add",
        "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
        "10000000000",
        "0",
        "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f"
      ],
      "result": {
        "bundle_hash": "Nxh3uEReb3zBh2c54ViRaamdGCE1CYi214fDHVA7HD8NrwQ",
        "block_height": 14,
        "block_hash": "Nxh37kkVhyWuV4qiRoiAaAm9p1zemD7MCNPJ23twECPi7ug",
        "index": 0,
        "timestamp": 1795695714,
        "from": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
            "pending_id": "0",
            "kind": "minter_addition",
            "outcome": "queued",
            "effective_height": 16
          }
        ]
      }
    }
  ],
  "svc_stableExecutePending": [
    {
      "name": "apply the minter addition once due",
      "params": [
        "EURX",
        "0",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG"
      ],
      "result": {
        "bundle_hash": "Nxh8k3xgt6LDMi8Ttbt4j1BUa4YEp6vqXaZug8EM5LP6fNq",
        "block_height": 17,
        "block_hash": "Nxh6oPPKuc8GsJgDxwDeb8uKBWU57rxARhQJfDLZUGqcxCH",
        "index": 0,
        "timestamp": 1795695716,
        "from": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableMinter",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "minter": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "action": "added",
            "allowance": "10000000000",
            "epoch_limit": "0"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "pending_id": "0",
            "kind": "minter_addition",
            "outcome": "executed",
            "effective_height": 16
          }
        ]
      }
    }
  ],
  "svc_stableMint": [
    {
      "name": "mint 1,000 EURX",
      "params": [
        "EURX",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "1000000000",
        "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp"
      ],
      "result": {
        "bundle_hash": "NxhJ1brrpTPrpkrJh7RA8sNBBr5kch2uXjQMMKjeHgYeFkw",
        "block_height": 18,
        "block_hash": "NxhkTFgEuu4kNXhpMbcPDxXXDR4nDSBa5cAauhmWtLd9dE",
        "index": 0,
        "timestamp": 1795695716,
        "from": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
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
            "payer": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "280000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "70000"
          },
          {
            "type": "Transfer",
            "op_index": 0,
            "from": "Nx011111111111111111111111111111111",
            "to": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "token": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "symbol": "EURX",
            "amount": "1000000000"
          }
        ]
      }
    },
    {
      "name": "a mint above mint_threshold waits for the cosigners",
      "params": [
        "EURX",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "6000000000",
        "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp"
      ],
      "result": {
        "bundle_hash": "NxhEDg7DxzcHtiimDtjfxqdQGDcwRAYB1aFdGzV14xpqycN",
        "block_height": 29,
        "block_hash": "Nxh8mu1tG9ezxmwtuHi8yzLNZcmr4jL3eHX75Vvto6tkj8Z",
        "index": 0,
        "timestamp": 1795695722,
        "from": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
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
            "payer": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "280000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "70000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "pending_id": "2",
            "kind": "mint",
            "outcome": "queued",
            "effective_height": 29
          }
        ]
      }
    }
  ],
  "svc_stableBurn": [
    {
      "name": "burn 250 EURX of the sender's own",
      "params": [
        "EURX",
        "250000000",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG"
      ],
      "result": {
        "bundle_hash": "NxhBwZojbaumjCNgkpFs1fJXbQrU7MzotffqjuVkbAAUWdH",
        "block_height": 19,
        "block_hash": "NxhC7RojoSiaU9qtRCiDqr9as1whyoEZqKemxZaFdUUuJKk",
        "index": 0,
        "timestamp": 1795695717,
        "from": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
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
            "payer": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "280000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "70000"
          },
          {
            "type": "Transfer",
            "op_index": 0,
            "from": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "to": "Nx011111111111111111111111111111111",
            "token": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "symbol": "EURX",
            "amount": "250000000"
          }
        ]
      }
    }
  ],
  "svc_stablePause": [
    {
      "name": "pause",
      "params": [
        "EURX",
        true,
        "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1"
      ],
      "result": {
        "bundle_hash": "NxhF53XJz1QN6VxxryiRQvJprFZPxkvBiQYBFwqPtB1utnK",
        "block_height": 20,
        "block_hash": "Nxh31qGCH7To7p2Sm98mjyBaYsrLFUX5GA1V9tpXYLW9AVh",
        "index": 0,
        "timestamp": 1795695718,
        "from": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
            "subject": "Nx011111111111111111111111111111111",
            "action": "pause",
            "value": 1
          }
        ]
      }
    },
    {
      "name": "unpause",
      "params": [
        "EURX",
        false,
        "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1"
      ],
      "result": {
        "bundle_hash": "Nxh9FVuCoJBKRazhdqEXLnsgNm1U4Aqp9b8vZhAkVz3KU5",
        "block_height": 21,
        "block_hash": "Nxh4JXvrRnPUEVXkK2mvpk5Nh7QD72ZrfxHu3dk2bdmBDbu",
        "index": 0,
        "timestamp": 1795695718,
        "from": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
            "subject": "Nx011111111111111111111111111111111",
            "action": "pause",
            "value": 0
          }
        ]
      }
    }
  ],
  "svc_stableBlacklist": [
    {
      "name": "blacklist an address",
      "params": [
        "EURX",
        "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy",
        true,
        "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy"
      ],
      "result": {
        "bundle_hash": "NxhEyhAfnnX3CvE4pn1jQTjTv2ccBTPzEjQZpa9wmQGNAU2",
        "block_height": 22,
        "block_hash": "Nxh5eRgGDQKxqb32ttGpoScbemseYQScCamTQVPGHhNJAyw",
        "index": 0,
        "timestamp": 1795695719,
        "from": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
            "subject": "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy",
            "action": "blacklist",
            "value": 1
          }
        ]
      }
    },
    {
      "name": "lift it again",
      "params": [
        "EURX",
        "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy",
        false,
        "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy"
      ],
      "result": {
        "bundle_hash": "NxhCHTs2to6qcphX114KaW4YNtZkA4siMSweYNLfqpgxaBR",
        "block_height": 23,
        "block_hash": "Nxh6NP63kaXDun2PUe2AuffkziqdmyCegxWSfmqngi4mvea",
        "index": 0,
        "timestamp": 1795695719,
        "from": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy",
            "subject": "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy",
            "action": "blacklist",
            "value": 0
          }
        ]
      }
    }
  ],
  "svc_isBlacklisted": [
    {
      "name": "a blacklisted address",
      "params": [
        "EURX",
        "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy"
      ],
      "result": true
    }
  ],
  "svc_stableTransferRole": [
    {
      "name": "queue the pauser role for a new holder",
      "params": [
        "EURX",
        "pauser",
        "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
        "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP"
      ],
      "result": {
        "bundle_hash": "Nxh4fJ7RkCn5XNfAqbct4PZvKs2uRwgU7FRA67TKZLa8vqu",
        "block_height": 24,
        "block_hash": "Nxh51H6eX2KsSh7euTkDZDuYx1p6Tnuc9wSsW8fyRqapvw4",
        "index": 0,
        "timestamp": 1795695720,
        "from": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "pending_id": "1",
            "kind": "role_change",
            "outcome": "queued",
            "effective_height": 26
          }
        ]
      }
    }
  ],
  "svc_stableCancelPending": [
    {
      "name": "a guardian cancels it",
      "params": [
        "EURX",
        "1",
        "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz"
      ],
      "result": {
        "bundle_hash": "Nxh72EyouWP9aiXWkk8QAtYizJ67YjiJBfc3TpXyKtfj5pB",
        "block_height": 25,
        "block_hash": "NxhHtvBTj2Z6NvurEsUDsMSP7URf6gnTA547ZsBXgiUj848",
        "index": 0,
        "timestamp": 1795695720,
        "from": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
        "nonce": "0",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
            "pending_id": "1",
            "kind": "role_change",
            "outcome": "cancelled",
            "effective_height": 26
          }
        ]
      }
    }
  ],
  "svc_stableFreezeMint": [
    {
      "name": "a guardian freezes minting",
      "params": [
        "EURX",
        "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz"
      ],
      "result": {
        "bundle_hash": "NxhD5otdnNBS3zxL8zrhqgK9LHDkySjczSbJFwj5PoiD4NC",
        "block_height": 26,
        "block_hash": "Nxh523nimgZQHkevE3y2VZBjiu6WpdAJQgReTFz7zwC8Afv",
        "index": 0,
        "timestamp": 1795695721,
        "from": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
            "subject": "Nx011111111111111111111111111111111",
            "action": "mint_freeze",
            "value": 1
          }
        ]
      }
    }
  ],
  "svc_stableUnfreezeMint": [
    {
      "name": "the owner lifts the freeze",
      "params": [
        "EURX",
        "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP"
      ],
      "result": {
        "bundle_hash": "Nxh4YtYWGjRzUPLVTtTE5ccFPGPcAtP7p7He9S4TGqDe9mb",
        "block_height": 27,
        "block_hash": "NxhCmLPpyAQhjPT8oTiHBwxTvjKewEtSuijm49KdYz6MjcT",
        "index": 0,
        "timestamp": 1795695721,
        "from": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "subject": "Nx011111111111111111111111111111111",
            "action": "mint_freeze",
            "value": 0
          }
        ]
      }
    }
  ],
  "svc_stableSetGuardians": [
    {
      "name": "two guardians",
      "params": [
        "EURX",
        [
          "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
          "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES"
        ],
        "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP"
      ],
      "result": {
        "bundle_hash": "NxhHXLTT2XQzDiWTYvbgLPevTFK4d3YD7vb853sGopwyKpE",
        "block_height": 28,
        "block_hash": "NxhAUyxyYNbp9zqesmMmGSo5kQmaNbfJJ1SJgpUMSrXHY65",
        "index": 0,
        "timestamp": 1795695722,
        "from": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
        "nonce": "2",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "subject": "Nx011111111111111111111111111111111",
            "action": "guardians",
            "value": 2
          }
        ]
      }
    }
  ],
  "svc_stableApproveMint": [
    {
      "name": "the first of two cosigners approves",
      "params": [
        "EURX",
        "2",
        "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES"
      ],
      "result": {
        "bundle_hash": "NxhAGkWZSeC1rzzaJpukXwhkS4KomciodMn8KjGehrheBfo",
        "block_height": 30,
        "block_hash": "NxhFsZCDpf5awjZYDvm7wrkgniUyYDBrPyL4WBgD8uRTmKi",
        "index": 0,
        "timestamp": 1795695723,
        "from": "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
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
            "payer": "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "280000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "70000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
            "pending_id": "2",
            "kind": "mint",
            "outcome": "approved",
            "effective_height": 29
          }
        ]
      }
    }
  ],
  "svc_stableRaiseSupplyCap": [
    {
      "name": "governance doubles the cap",
      "params": [
        "EURX",
        "2000000000000",
        "0x0000000000000000000000000000000000000000000000000000000000000009"
      ],
      "result": {
        "bundle_hash": "NxhDWvF8sWrx73Dgcxx8pFz2U9WhcsDkUV4VEjJENGzYse6",
        "block_height": 31,
        "block_hash": "Nxh4Dh6SSPdJ4rDb5EAgUrGqfEfda4emqbnYSivfBJjSmcM",
        "index": 0,
        "timestamp": 1795695723,
        "from": "0x0000000000000000000000000000000000000000000000000000000000000009",
        "nonce": "1",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "subject": "Nx011111111111111111111111111111111",
            "action": "supply_cap",
            "value": 1
          }
        ]
      }
    }
  ],
  "svc_stableVerifyIssuer": [
    {
      "name": "governance verifies the issuer",
      "params": [
        "EURX",
        "0x0000000000000000000000000000000000000000000000000000000000000009"
      ],
      "result": {
        "bundle_hash": "NxhMEEjUMbuacFi21Nyh7MgnoYewJcinQA3eUcsDM24VEX",
        "block_height": 32,
        "block_hash": "Nxh8jkRHfGqeQGaAQXWHajcADdrZhkBP7ZWfPJczSNfJ5D2",
        "index": 0,
        "timestamp": 1795695724,
        "from": "0x0000000000000000000000000000000000000000000000000000000000000009",
        "nonce": "2",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "subject": "Nx011111111111111111111111111111111",
            "action": "issuer_verified",
            "value": 1
          }
        ]
      }
    }
  ],
  "svc_stableHandover": [
    {
      "name": "queue the handover to the issuer",
      "params": [
        "EURX",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
        "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP"
      ],
      "result": {
        "bundle_hash": "NxhCifzTUeSXmPhNH56x4npi1BtzDRjTsXBoS2MKEvCdYJ1",
        "block_height": 33,
        "block_hash": "Nxh8TCYhkSiScsQF6E4XzngiUHf2Z5sWF3uezUqMwxNQjtp",
        "index": 0,
        "timestamp": 1795695724,
        "from": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
        "nonce": "3",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StablePending",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "pending_id": "3",
            "kind": "handover",
            "outcome": "queued",
            "effective_height": 753
          }
        ]
      }
    }
  ],
  "svc_stableConfigureSecurity": [
    {
      "name": "a 720-block timelock and two of two cosigners above 5,000 EURX",
      "params": [
        "EURX",
        {
          "timelock": 720,
          "mint_threshold": "5000000000",
          "required_signers": 2,
          "authorized_cosigners": [
            "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
            "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy"
          ],
          "quantum_required": false
        },
        "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP"
      ],
      "result": {
        "bundle_hash": "Nxh4n2sToSKMEiFfEA44Dx3WN1D3nfSRSU59VR9Zyw3MxQu",
        "block_height": 34,
        "block_hash": "Nxh3WVoi1i1hrBcQX1acuJ1bNam3X2GLiCmzEDQJcZtnwRw",
        "index": 0,
        "timestamp": 1795695725,
        "from": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
        "nonce": "4",
        "status": "success",
        "status_code": 0,
        "status_name": "OK",
        "gas_used": 30000,
        "fee": "300000",
        "events": [
          {
            "type": "Fee",
            "op_index": null,
            "payer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "proposer": "Nx0CmcMR4xGZEhDjmu3wtHyD5uBuXydEjh2ULwfKD4TKcTS",
            "to_proposer": "240000",
            "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
            "to_treasury": "60000"
          },
          {
            "type": "StableAdmin",
            "op_index": 0,
            "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
            "by": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "subject": "Nx011111111111111111111111111111111",
            "action": "security",
            "value": 0
          }
        ]
      }
    }
  ],
  "svc_getStablecoinInfo": [
    {
      "name": "EURX after the calls above",
      "params": [
        "EURX"
      ],
      "result": {
        "mint": "Nx1FCa5eENQE3a7zjfKaPFG5Y7eETgBMowyS5kM6UT7ygo",
        "symbol": "EURX",
        "name": "Euro X",
        "decimals": 6,
        "currency": "EUR",
        "issuer": "X Bank",
        "badge": "Official Stablecoin",
        "verification_status": "Verified",
        "reputation_points": 12,
        "total_supply": "750000000",
        "roles": {
          "owner": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
          "master_minter": "Nx0AzLBcjXWwBzeTGfJSRpJSDVrbmDex1GAemw5sFZZTk9f",
          "pauser": "Nx024uba8LVE5fy82zJHtTts3NfPKzxWZ4ZptUcDwNTfwk1",
          "blacklister": "Nx07B7ULU19p8RZ9f4YeCtKkNLy9Pa4thmkFfqem4Ku3HGy"
        },
        "guardians": [
          "Nx04fJYRgbLG6uBXrKVfedNhhy5XC7MaFZYd6P7p17SWZaz",
          "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES"
        ],
        "paused": false,
        "mint_frozen": false,
        "timelock": 720,
        "epoch_length": 720,
        "current_epoch": 0,
        "mint_threshold": "5000000000",
        "required_signers": 2,
        "authorized_cosigners": [
          "Nx0BHgySAyJCpmDeQ378TGwG4sLd3TGEiBXFUeGBmtDnrES",
          "Nx0BRQz8mNPXPjXA31GLnjYVNgNeuaNfj2KSqry93jz8kxy"
        ],
        "quantum_required": false,
        "supply_cap": "2000000000000",
        "blacklisted_count": 0,
        "minters": [
          {
            "minter": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "allowance_remaining": "9000000000",
            "epoch_limit": "0",
            "minted_in_epoch": "1000000000"
          }
        ],
        "origin_mappings": [
          {
            "chain": "ethereum",
            "contract": "0x2222222222222222222222222222222222222222"
          }
        ],
        "launch_origin": null,
        "pending": [
          {
            "id": "2",
            "kind": "mint",
            "effective_height": 29,
            "proposer": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "minter": "Nx0CWX94yv8SUeKVFpPzxXetPbQ2X9ZZ1WUk3qu89QwHfhp",
            "to": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
            "amount": "6000000000",
            "approvals": []
          },
          {
            "id": "3",
            "kind": "handover",
            "effective_height": 753,
            "proposer": "Nx0J3xfvcmPsr3bFDnhRT1edEYYYKFpLhj375F1d9hNiRHP",
            "new_roles": {
              "owner": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
              "master_minter": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
              "pauser": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG",
              "blacklister": "Nx0PDdHAyWCC7Zsmq6fnpGUkAejqyQTM1vKN63H9oSnKhG"
            }
          }
        ],
        "created_height": 13
      }
    }
  ],
  "svc_listStablecoins": [
    {
      "name": "the first two",
      "params": [
        2
      ],
      "result": [
        {
          "mint": "Nx1E7b1w4QxRXY89PD52j2XGQKy1pZ21jMNpNs4sVRLdB3M",
          "symbol": "BRZ",
          "name": "Brazilian Digital Token",
          "decimals": 4,
          "currency": "BRL",
          "issuer": "Transfero",
          "badge": "Official Stablecoin",
          "verification_status": "Pending",
          "reputation_points": 10,
          "total_supply": "10000000000000",
          "roles": {
            "owner": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "master_minter": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "pauser": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "blacklister": "0x0000000000000000000000000000000000000000000000000000000000000009"
          },
          "guardians": [],
          "paused": false,
          "mint_frozen": false,
          "timelock": 720,
          "epoch_length": 720,
          "current_epoch": 0,
          "mint_threshold": "0",
          "required_signers": 0,
          "authorized_cosigners": [],
          "quantum_required": false,
          "supply_cap": null,
          "blacklisted_count": 0,
          "minters": [],
          "origin_mappings": [],
          "launch_origin": null,
          "pending": [],
          "created_height": 0
        },
        {
          "mint": "Nx1FZPYkaJq8fK4V6DnNx5F7aovyXLjLKS7TFa93LTijyS",
          "symbol": "CADC",
          "name": "CAD Coin",
          "decimals": 18,
          "currency": "CAD",
          "issuer": "PayTrie",
          "badge": "Official Stablecoin",
          "verification_status": "Pending",
          "reputation_points": 10,
          "total_supply": "1000000000000000000000000000",
          "roles": {
            "owner": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "master_minter": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "pauser": "0x0000000000000000000000000000000000000000000000000000000000000009",
            "blacklister": "0x0000000000000000000000000000000000000000000000000000000000000009"
          },
          "guardians": [],
          "paused": false,
          "mint_frozen": false,
          "timelock": 720,
          "epoch_length": 720,
          "current_epoch": 0,
          "mint_threshold": "0",
          "required_signers": 0,
          "authorized_cosigners": [],
          "quantum_required": false,
          "supply_cap": null,
          "blacklisted_count": 0,
          "minters": [],
          "origin_mappings": [],
          "launch_origin": null,
          "pending": [],
          "created_height": 0
        }
      ]
    }
  ]
};
