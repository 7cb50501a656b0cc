import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { expectRefusals } from "./expect-refusals.ts";

/** One spelling for each flag, statuses in any case, and refusals that name what the operator typed. */
describe("purse flags and messages", { timeout: 240_000 }, () => {
  let database: SeededDatabase;
  const purse = (...args: string[]) => purseCli(database, args);
  const overlapUntil = async (clientId: string) =>
    (
      await queryDatabase<{ seconds: number }>(
        database.url,
        "select extract(epoch from previous_webhook_secret_until - now())::int as seconds from clients where client_id = $1",
        [clientId],
      )
    )[0]?.seconds ?? Number.NaN;
  beforeAll(async () => {
    database = await createSeededDatabase();
  });
  afterAll(() => dropDatabase(database.name));

  it("rotate-webhook-secret takes --overlap 24h like the other rotations; --overlap-hours still works, with a warning", async () => {
    const rotated = await purse("--json", "clients", "rotate-webhook-secret", "acme", "--overlap", "90m");
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({
      client_id: "acme",
      overlap_seconds: 5400,
      overlap_hours: 1.5,
    });
    expect(rotated.stderr).toBe("");
    expect(await overlapUntil("acme")).toBeGreaterThan(5300);
    expect(await overlapUntil("acme")).toBeLessThanOrEqual(5400);

    const old = await purse("clients", "rotate-webhook-secret", "bolt", "--overlap-hours", "2");
    expect(old.code).toBe(0);
    expect(old.stdout).toContain("Deliveries carry both signatures for the next 2 hour(s).");
    expect(old.stderr.trim()).toBe(
      "purse: warning: --overlap-hours is deprecated and will be removed in a later version; use --overlap (e.g. --overlap 24h)",
    );
    expect(await overlapUntil("bolt")).toBeGreaterThan(7100);
    const help = await purse("clients", "rotate-webhook-secret", "--help");
    expect(help.stdout).toContain("--overlap <duration>");
    expect(help.stdout).not.toContain("--overlap-hours");
  });

  it("operators token takes --lifetime and vouchers issue --valid-for as durations; the old flags warn", async () => {
    const expiresIn = (run: { stdout: string }) =>
      (Date.parse((JSON.parse(run.stdout) as { expires_at: string }).expires_at) - Date.now()) / 60_000;
    const olga = ["--json", "operators", "token", "--client", "acme", "--operator", "olga"];
    const token = await purse(...olga, "--lifetime", "2h");
    expect(token.code).toBe(0);
    expect(expiresIn(token)).toBeGreaterThan(118);
    expect(expiresIn(token)).toBeLessThanOrEqual(120);
    const minutes = await purse(...olga, "--minutes", "5");
    expect(expiresIn(minutes)).toBeLessThanOrEqual(5);
    expect(JSON.parse(minutes.stderr)).toEqual({
      warning: expect.stringContaining("--minutes is deprecated"),
    });
    expect((await purse("operators", "token", "--client", "acme", "--lifetime", "2d")).stderr.trim()).toBe(
      'purse: --lifetime takes a duration from 1m to 24h (got "2d")',
    );

    const issue = ["vouchers", "issue", "--currency", "USD", "--amount", "5.00", "--creator", "bolt"];
    const voucher = await purse("--json", ...issue, "--valid-for", "12h");
    expect(voucher.code).toBe(0);
    const number = (JSON.parse(voucher.stdout) as { voucher_number: string }).voucher_number;
    const [row] = await queryDatabase<{ hours: number }>(
      database.url,
      "select round(extract(epoch from expired_at - now()) / 3600)::int as hours from vouchers where number = $1",
      [number],
    );
    expect(row?.hours).toBe(12);
    const days = await purse(...issue, "--days", "0");
    expect(days.stderr).toContain("purse: warning: --days is deprecated");
    expect(days.stderr).toContain('purse: --days takes a whole number from 1 to 3650 (got "0")');
  });

  it("accepts statuses, roles, directions and formats in any case", async () => {
    expect((await purse("wallets", "status", "U100000030", "deleted")).stdout).toContain(
      "Wallet U100000030 is DELETED.",
    );
    expect(
      await queryDatabase(database.url, "select status from wallets where number = 'U100000030'"),
    ).toEqual([{ status: 2 }]);
    expect((await purse("wallets", "status", "U100000030", "Active")).code).toBe(0);
    expect((await purse("currencies", "disable", "EUR", "--direction", "CHECKOUT")).stdout).toBe(
      "EUR checkout disabled.\n",
    );
    expect((await purse("--json", "checkouts", "list", "acme", "--status", "pending")).code).toBe(0);
    expect((await purse("--json", "webhooks", "list", "--status", "PENDING")).code).toBe(0);
    const csv = await purse("statement", "U100000010", "--from", "2020-01-01", "--format", "CSV");
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^transaction_id,at,type/);
    expect((await purse("wallets", "status", "U100000030", "gone")).stderr.trim()).toBe(
      'purse: <status> takes NEW, ACTIVE or DELETED (got "gone")',
    );
  });

  it("names the argument and the value given when a refusal is about one", async () => {
    await queryDatabase(database.url, "update wallets set status = 2 where number = 'U100000030'");
    const refusals: [string[], string][] = [
      [
        ["wallets", "credit", "U100000030", "1.00"],
        'purse: <number> "U100000030": no such wallet, or it is DELETED (purse wallets list shows them)',
      ],
      [
        ["wallets", "payout", "NOPE", "1.00"],
        'purse: <number> "NOPE": no such wallet, or it is DELETED (purse wallets list shows them)',
      ],
      [
        ["wallets", "credit", "U100000010", "1.001"],
        'purse: <amount> "1.001": This value should have at most 2 decimal places.',
      ],
      [
        ["wallets", "credit", "U100000010", "1.00", "--operator", "bad name"],
        'purse: --operator "bad name": takes letters, digits and . _ @ - (at most 64)',
      ],
      [["transactions", "reverse", "999999"], 'purse: <id> "999999": no such transaction'],
      [["transactions", "reverse", "abc"], 'purse: <id> "abc": not a transaction id'],
      [["users", "block", "nobody"], 'purse: <login> "nobody": no such user (purse users list shows them)'],
      [
        ["clients", "create", "--user", "nobody"],
        'purse: --user "nobody": no such user (purse users list shows them)',
      ],
      [
        ["clients", "revoke-tokens", "nobody"],
        'purse: <client_id> "nobody": no such client (purse clients list shows them)',
      ],
      [
        ["clients", "rotate-webhook-secret", "nobody"],
        'purse: <client_id> "nobody": no such client (purse clients list shows them)',
      ],
      [
        ["operators", "token", "--client", "nobody"],
        'purse: --client "nobody": no such client (purse clients list shows them)',
      ],
      [
        ["checkouts", "list", "nobody"],
        'purse: <login> "nobody": no such user (purse users list shows them)',
      ],
      [
        ["statement", "NOPE", "--from", "2020-01-01"],
        'purse: <wallet> "NOPE": no such wallet (purse wallets list shows them)',
      ],
      [
        ["wallets", "create", "--user", "acme", "--currency", "XYZ"],
        'purse: --currency "XYZ": no such currency',
      ],
      [
        ["wallets", "create", "--user", "acme", "--currency", "USD", "--limit", "lots"],
        'purse: --limit "lots": This value should be of type numeric.',
      ],
      [
        ["wallets", "create", "--user", "acme", "--currency", "USD", "--number", "U100000010"],
        'purse: --number "U100000010": a wallet with this number exists',
      ],
      [
        ["vouchers", "issue", "--currency", "USD", "--amount", "-5", "--creator", "bolt"],
        'purse: --amount "-5": This value should be positive.',
      ],
      [
        ["vouchers", "issue", "--currency", "USD", "--amount", "5", "--creator", "nobody"],
        'purse: --creator "nobody": no such user (purse users list shows them)',
      ],
      [["currencies", "enable", "XYZ"], 'purse: <code> "XYZ": no such currency'],
      [
        ["webhooks", "resend", "999999"],
        'purse: <id> "999999": no such webhook delivery (purse webhooks list shows them)',
      ],
      [
        ["webhooks", "resend", "1/999999"],
        'purse: <id> "1/999999": no such webhook delivery (purse webhooks list shows them)',
      ],
      [
        ["webhooks", "resend", "acme/1"],
        'purse: <id> "acme/1": not a delivery id (purse webhooks list shows them)',
      ],
    ];
    await expectRefusals(purse, refusals);
  });
});
