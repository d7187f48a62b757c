/** Accounts, a token and collections of the testnet run the examples were recorded from. */
export const ALICE = 'Nx079aj31QeXHEaGyRm5N9mRZjpt6c1uRAhEyfhvG24nThk';
export const BOB = 'Nx0Gf6wwRtQFtjV5N2k9wfGCTme6Ry7k7R7dGqemgC9CARo';
export const VALIDATOR = 'Nx0GFdJdiN8NAswTxkZeYnG1P9Wq7psZEZYEHH4H39SEioE';
export const AUR_MINT = 'Nx19fttRg6QSFzm1KexBXm9udAKcBxCdSHLUDk4kHbEn6xk';
export const ITEMS = 'Nx2BpbYAGtWPBsuJtsDqxp87f6rkK8q7cTwTd4DDeWCy6YB';
export const ART = 'Nx24s4iBdBu72999TtFu2kTBbJubpugHvY35raMfQdqqLnw';
export const GRANTS_DAO = 'Nx7E9avK2iHpyWsWhWnjtfJZYBxJy9rsPcg6uf8N8Y9TSxD';
export const GRANTS_ESCROW = 'Nx0C4gVXA5yVhCC6hXCgGwzzqsKrX7tmQ5VHguaULbAmE7o';
export const SUBSCRIPTION = '0x3f2a9c1d5e7b8a60';
