type FixtureRecord = Record<string, unknown>;

export interface SampleFixture {
  settings: { voucher_activation_enabled: boolean };
  currencies: FixtureRecord[];
  rates: FixtureRecord[];
  users: FixtureRecord[];
  clients: FixtureRecord[];
  wallets: FixtureRecord[];
  vouchers: FixtureRecord[];
}

/**
 * A small world for tests: a merchant (acme) and a partner (bolt) with USD wallets, plus a second
 * merchant (cafe), EUR wallets and vouchers. Tests override what they need.
 */
export function sampleFixture(): SampleFixture {
  return {
    settings: { voucher_activation_enabled: true },
    currencies: [
      {
        id: 1,
        code: "USD",
        name: "US Dollar",
        rate: "1",
        icon: "usd.svg",
        precession: 2,
        prefix: "$",
        min_amount: "1.00",
        max_amount: "10000.00",
        enabled: true,
        directions: { checkout: true, transfer: true },
        commission: {
          checkout: { percent: "1.5", fixed: "0" },
          transfer: { percent: "1", fixed: "0.10" },
          voucher: { percent: "2", fixed: "0" },
        },
      },
      {
        id: 2,
        code: "EUR",
        name: "Euro",
        rate: "1.087",
        icon: "eur.svg",
        precession: 2,
        prefix: "€",
        min_amount: "1.00",
        max_amount: "5000.00",
        commission: {
          checkout: { percent: "1.5", fixed: "0" },
          transfer: { percent: "0.5", fixed: "0.05" },
          voucher: { percent: "2", fixed: "0" },
        },
      },
    ],
    rates: [{ name: "USD/EUR", group: "USD", value: "0.92" }],
    users: [
      { id: 1, name: "Acme Shop", role: "merchant", login: "acme", password: "acme-pass" },
      { id: 2, name: "Bolt Exchange", role: "partner", login: "bolt", password: "bolt-pass" },
      { id: 3, name: "Corner Cafe", role: "merchant", login: "cafe", password: "cafe-pass" },
    ],
    clients: [
      {
        user_id: 1,
        client_id: "acme",
        client_secret: "acme-secret",
        form_token: "acme-form-token",
        webhook_secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      },
      { user_id: 2, client_id: "bolt", client_secret: "bolt-secret", form_token: "bolt-form-token" },
      { user_id: 3, client_id: "cafe", client_secret: "cafe-secret", form_token: "cafe-form-token" },
    ],
    wallets: [
      {
        id: 10,
        user_id: 1,
        number: "U100000010",
        currency: "USD",
        amount: "500.00",
        amountLimit: "1000000.00",
      },
      {
        id: 11,
        user_id: 1,
        number: "E100000011",
        currency: "EUR",
        amount: "300.00",
        amountLimit: "1000000.00",
      },
      {
        id: 20,
        user_id: 2,
        number: "U100000020",
        currency: "USD",
        amount: "250.00",
        amountLimit: "1000000.00",
      },
      {
        id: 21,
        user_id: 2,
        number: "E100000021",
        currency: "EUR",
        amount: "120.00",
        amountLimit: "1000000.00",
      },
      { id: 30, user_id: 3, number: "U100000030", currency: "USD", amount: "75.00", amountLimit: "2000.00" },
    ],
    vouchers: [
      {
        voucher_number: "V-0001",
        voucher_code: "1111-2222-3333",
        currency: "USD",
        amount: "50.00",
        type: 1,
        status: 0,
        expired_at: "2030-01-01 00:00:00",
        creator_user_id: 2,
        transaction_status: 3,
      },
      {
        voucher_number: "V-0002",
        voucher_code: "4444-5555-6666",
        currency: "USD",
        amount: "20.00",
        type: 2,
        status: 0,
        expired_at: "2030-01-01 00:00:00",
        creator_user_id: 1,
        transaction_status: 3,
      },
    ],
  };
}

/**
 * The sample world plus a second partner, Dora (user 4, client `dora`), with a USD wallet
 * U100000040 (100.00 of a 1000.00 limit); `blocked` for the refusals of a blocked user.
 */
export function sampleFixtureWithDora({ blocked = false }: { blocked?: boolean } = {}): SampleFixture {
  const fixture = sampleFixture();
  fixture.users.push({ id: 4, name: "Dora", role: "partner", login: "dora", password: "dora-pass", blocked });
  fixture.clients.push({
    user_id: 4,
    client_id: "dora",
    client_secret: "dora-secret",
    form_token: "dora-form",
  });
  fixture.wallets.push({
    id: 40,
    user_id: 4,
    number: "U100000040",
    currency: "USD",
    amount: "100.00",
    amountLimit: "1000.00",
  });
  return fixture;
}
