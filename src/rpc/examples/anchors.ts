/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/anchors.ts
 * (docs/anchoring.md), recorded from a testnet node (fresh accounts funded from the system account
 * 0x…07): a tier-1 market maker matches and settles a USDC→NTV order, an audit report is anchored,
 * a passport and a chess profile are written. test/unit/rpc-openrpc.test.ts holds each to its
 * method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  "svc_anchor": [
    {
      "name": "an audit report",
      "params": [
        {
          "name": "namespace",
          "value": "acme.audits"
        },
        {
          "name": "key",
          "value": "reports/2026-q3.pdf"
        },
        {
          "name": "value_hash",
          "value": "0x9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f"
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
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
          "nonce": "4",
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
            }
          ]
        }
      }
    }
  ],
  "svc_verifyAnchor": [
    {
      "name": "anchored",
      "params": [
        {
          "name": "namespace",
          "value": "acme.audits"
        },
        {
          "name": "key",
          "value": "reports/2026-q3.pdf"
        }
      ],
      "result": {
        "name": "verification",
        "value": {
          "exists": true,
          "namespace": "acme.audits",
          "key": "reports/2026-q3.pdf",
          "value_hash": "NxhBk6zkt3d2RE2BPmhMVs6GBiHpFT167ANqsyLGS8FnyHQ",
          "anchorer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "height": 13,
          "time": 1795695077,
          "index": 0
        }
      }
    }
  ],
  "svc_getAnchors": [
    {
      "name": "latest anchors",
      "params": [
        {
          "name": "namespace",
          "value": "acme.audits"
        },
        {
          "name": "limit",
          "value": 10
        }
      ],
      "result": {
        "name": "anchors",
        "value": {
          "namespace": "acme.audits",
          "owner": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "count": 1,
          "anchors": [
            {
              "key": "reports/2026-q3.pdf",
              "value_hash": "NxhBk6zkt3d2RE2BPmhMVs6GBiHpFT167ANqsyLGS8FnyHQ",
              "anchorer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
              "height": 13,
              "time": 1795695077,
              "index": 0
            }
          ]
        }
      }
    }
  ],
  "svc_getAnchorsByAccount": [
    {
      "name": "the anchors of acme.audits' owner",
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
        "name": "anchors",
        "value": [
          {
            "namespace": "acme.audits",
            "key": "reports/2026-q3.pdf",
            "value_hash": "NxhBk6zkt3d2RE2BPmhMVs6GBiHpFT167ANqsyLGS8FnyHQ",
            "anchorer": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
            "height": 13,
            "time": 1795695077,
            "index": 0
          }
        ]
      }
    }
  ]
};
