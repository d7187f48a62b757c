/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/passports.ts
 * (docs/passports.md), recorded from a testnet node (fresh accounts funded from the system account
 * 0x…07): a tier-1 market maker matches and settles a USDC→NTV order, an audit report is anchored,
 * a passport and a chess profile are written. test/unit/rpc-openrpc.test.ts holds each to its
 * method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  "svc_createPassport": [
    {
      "name": "Neo_1",
      "params": [
        {
          "name": "gamertag",
          "value": "Neo_1"
        },
        {
          "name": "sender",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "Nxh24MznD89hJub9LEjutwpcT4LAr2FiiP8Tqm8TLwiL21N",
          "block_height": 14,
          "block_hash": "Nxh3eFZXj5MF5S3gdPCnEd8PLJ65VwDF9GGxUwPgFRhx1hZ",
          "index": 0,
          "timestamp": 1795695077,
          "from": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "nonce": "5",
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
  "svc_registerGame": [
    {
      "name": "chess.v1",
      "params": [
        {
          "name": "game_id",
          "value": "chess.v1"
        },
        {
          "name": "name",
          "value": "Chess"
        },
        {
          "name": "sender",
          "value": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhFa3i6XBQt5SqeAkLEgdx4Bzx8y7WktMdbVzwj5BLDy8Z",
          "block_height": 15,
          "block_hash": "NxhDBRFbpWzcRLn23aQWdgir28wFTc83fpmU6bRmSKrPdsj",
          "index": 0,
          "timestamp": 1795695078,
          "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
          "nonce": "2",
          "status": "success",
          "status_code": 0,
          "status_name": "OK",
          "gas_used": 40000,
          "fee": "400000",
          "events": [
            {
              "type": "Fee",
              "op_index": null,
              "payer": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
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
  "svc_setGameProfile": [
    {
      "name": "an Elo rating",
      "params": [
        {
          "name": "game_id",
          "value": "chess.v1"
        },
        {
          "name": "player",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        },
        {
          "name": "score",
          "value": "1200"
        },
        {
          "name": "data",
          "value": "{\"elo\":1200}"
        },
        {
          "name": "sender",
          "value": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H"
        }
      ],
      "result": {
        "name": "receipt",
        "value": {
          "bundle_hash": "NxhDfevdS8xt7iLNiViL17BJ2bhGZuriQpuJV9r7WrZCeDJ",
          "block_height": 16,
          "block_hash": "Nxh7ec5AjdVi8wD2hncz1QXQtg77inY26TEgN3F1SBiAhsK",
          "index": 0,
          "timestamp": 1795695078,
          "from": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
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
              "payer": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
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
  "svc_getPassport": [
    {
      "name": "by owner",
      "params": [
        {
          "name": "owner",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        }
      ],
      "result": {
        "name": "passport",
        "value": {
          "owner": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "gamertag": "Neo_1",
          "created_height": 14,
          "created_at": 1795695077,
          "games": 1
        }
      }
    }
  ],
  "svc_lookupPassport": [
    {
      "name": "by gamertag, any case",
      "params": [
        {
          "name": "gamertag",
          "value": "neo_1"
        }
      ],
      "result": {
        "name": "passport",
        "value": {
          "owner": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "gamertag": "Neo_1",
          "created_height": 14,
          "created_at": 1795695077,
          "games": 1
        }
      }
    }
  ],
  "svc_getPassportStats": [
    {
      "name": "counts",
      "params": [],
      "result": {
        "name": "stats",
        "value": {
          "total_passports": 1,
          "total_games": 1,
          "total_profiles": 1
        }
      }
    }
  ],
  "svc_getGameProfile": [
    {
      "name": "a chess profile",
      "params": [
        {
          "name": "passport_owner",
          "value": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH"
        },
        {
          "name": "game_id",
          "value": "chess.v1"
        }
      ],
      "result": {
        "name": "profile",
        "value": {
          "passport_owner": "Nx0FYtc48pK9jjmcipRcHNbwUG9c7QcgMCxAaBjrhu3AwDH",
          "gamertag": "Neo_1",
          "game_id": "chess.v1",
          "game_name": "Chess",
          "publisher": "Nx056Wbe7axvK3Wv612145J1pfxuw4RPu3isTeMb7V9qb9H",
          "score": "1200",
          "data": "{\"elo\":1200}",
          "revision": 1,
          "created_height": 16,
          "updated_height": 16,
          "updated_at": 1795695078
        }
      }
    }
  ],
};
