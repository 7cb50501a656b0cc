/** 32 merchants with 32 USD wallets each: 1 024 wallets, so concurrent transfers rarely meet on one row. */
export const merchants = 32;
export const walletsPerMerchant = 32;
export const benchSecretKey = "bench-secret-key-of-at-least-32-characters";

export function walletNumber(merchant: number, index: number): string {
  return `B${String(merchant).padStart(4, "0")}${String(index).padStart(5, "0")}`;
}

export function benchFixture() {
  const ids = Array.from({ length: merchants }, (_, index) => index + 1);
  return {
    currencies: [
      {
        id: 1,
        code: "USD",
        rate: "1",
        precession: 2,
        min_amount: "0.01",
        max_amount: "100000.00",
        commission: { transfer: { percent: "1", fixed: "0.10" } },
      },
    ],
    users: ids.map((id) => ({
      id,
      name: `Bench ${id}`,
      role: "merchant",
      login: `bench${id}`,
      password: "bench",
    })),
    clients: ids.map((id) => ({
      user_id: id,
      client_id: `bench${id}`,
      client_secret: "bench-secret",
      form_token: `form${id}`,
    })),
    wallets: ids.flatMap((merchant) =>
      Array.from({ length: walletsPerMerchant }, (_, index) => ({
        id: merchant * 1000 + index,
        user_id: merchant,
        number: walletNumber(merchant, index),
        currency: "USD",
        amount: "1000000.00",
        amountLimit: "100000000.00",
      })),
    ),
  };
}

/**
 * How a phase's transfers meet: `spread` between random wallets of different merchants (rarely on
 * one row at once), `hot` from every other merchant's wallets into one merchant's wallet, as a
 * shop's checkouts pay it (every transfer waits for that wallet's row lock and chain head).
 */
export type TransferCase = "spread" | "hot";

/** The wallet every transfer of the `hot` case pays into: merchant 1's first. */
export const hotWallet = walletNumber(1, 0);

/** The n-th transfer of a run, with a payment_id as real clients send; `from` is the payer's merchant index. */
export function benchTransfer(sequence: number, runId: string, transferCase: TransferCase = "spread") {
  // The hot case's payers are merchants 2 to 32 (indexes 1 to 31); merchant 1 only receives.
  const from = transferCase === "hot" ? 1 + (sequence % (merchants - 1)) : sequence % merchants;
  const to = (from + 1 + (sequence % (merchants - 1))) % merchants;
  return {
    from,
    body: {
      wallet_from: walletNumber(from + 1, (sequence * 7) % walletsPerMerchant),
      wallet_to:
        transferCase === "hot" ? hotWallet : walletNumber(to + 1, (sequence * 13) % walletsPerMerchant),
      amount: "1.00",
      payment_id: `${runId}-${sequence}`,
      description: `bench ${sequence}`,
    },
  };
}
