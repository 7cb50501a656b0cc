import { sampleFixture } from "../sample-fixture.ts";

/**
 * The sample world plus the states the error tables need: a blocked merchant (dora), inactive
 * wallets, a disabled currency (GBP), a currency closed in both directions (CHF), a wallet that may
 * not send, a wallet near its amountLimit (cafe, limit 100), and vouchers in every refusable state.
 */
export function errorWorld() {
  const world = sampleFixture();
  world.users.push({
    id: 4,
    name: "Dora Blocked",
    role: "merchant",
    blocked: true,
    login: "dora",
    password: "dora-pass",
  });
  world.clients.push({
    user_id: 4,
    client_id: "dora",
    client_secret: "dora-secret",
    form_token: "dora-form-token",
  });
  world.currencies.push(
    currency(3, "GBP", { enabled: false }),
    currency(4, "CHF", { directions: { checkout: false, transfer: false } }),
  );
  world.wallets = world.wallets.map((wallet) =>
    wallet["number"] === "U100000030" ? { ...wallet, amountLimit: "100.00" } : wallet,
  );
  world.wallets.push(
    wallet(12, 1, "U100000012", "USD", { status: "NEW" }),
    wallet(22, 2, "U100000022", "USD", { status: "DELETED" }),
    wallet(15, 1, "U100000015", "USD", { can_use_for_withdraw_api_out: false }),
    wallet(40, 4, "U100000040", "USD"),
    wallet(13, 1, "G100000013", "GBP"),
    wallet(23, 2, "G100000023", "GBP"),
    wallet(14, 1, "C100000014", "CHF"),
    wallet(24, 2, "C100000024", "CHF"),
  );
  world.vouchers.push(
    voucher("V-0003", { status: 1 }),
    voucher("V-0004", { expired_at: "2020-01-01 00:00:00" }),
    voucher("V-0005", { transaction_status: 1 }),
    voucher("V-0006", { creator_user_id: 4 }),
    voucher("V-0007", {}),
    voucher("V-0008", {}),
  );
  return world;
}

function currency(id: number, code: string, overrides: Record<string, unknown>) {
  return {
    id,
    code,
    name: code,
    rate: "1.2",
    icon: `${code.toLowerCase()}.svg`,
    precession: 2,
    prefix: code,
    min_amount: "1.00",
    max_amount: "5000.00",
    ...overrides,
  };
}

function wallet(
  id: number,
  userId: number,
  number: string,
  code: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    id,
    user_id: userId,
    number,
    currency: code,
    amount: "100.00",
    amountLimit: "1000000.00",
    ...overrides,
  };
}

/** A partner-bought USD voucher (type 1, so merchants may activate it), code 0000-0000-0000. */
function voucher(number: string, overrides: Record<string, unknown>) {
  return {
    voucher_number: number,
    voucher_code: "0000-0000-0000",
    currency: "USD",
    amount: "10.00",
    type: 1,
    status: 0,
    expired_at: "2030-01-01 00:00:00",
    creator_user_id: 2,
    transaction_status: 3,
    ...overrides,
  };
}
