import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { expectRefusals } from "./expect-refusals.ts";

// Each verb is a process of its own: minutes on a loaded two-core machine, not seconds.
describe("purse users | wallets | clients list", { timeout: 180_000 }, () => {
  let database: SeededDatabase;
  const purse = (...args: string[]) => purseCli(database, args);
  const json = async <T>(...args: string[]): Promise<T> => {
    const run = await purse("--json", ...args);
    expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
    return JSON.parse(run.stdout) as T;
  };
  beforeAll(async () => {
    database = await createSeededDatabase();
    await queryDatabase(database.url, "update users set blocked = true where login = 'cafe'");
    await queryDatabase(database.url, "update wallets set status = 2 where number = 'U100000030'");
  });
  afterAll(() => dropDatabase(database.name));

  it("users: by login, with role, blocked and wallet count; --role in any case; pages with --after", async () => {
    const all = await json<{ login: string; role: string; blocked: boolean; wallets: number }[]>(
      "users",
      "list",
    );
    expect(all.map((u) => [u.login, u.role, u.blocked, u.wallets])).toEqual([
      ["acme", "merchant", false, 2],
      ["bolt", "partner", false, 2],
      ["cafe", "merchant", true, 1],
    ]);
    expect(JSON.stringify(all)).not.toMatch(/password|hash/i);
    expect(
      (await json<{ login: string }[]>("users", "list", "--role", "MERCHANT")).map((u) => u.login),
    ).toEqual(["acme", "cafe"]);
    const first = await purse("users", "list", "--limit", "2");
    expect(first.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^acme\tmerchant\tactive\t2 wallet\(s\)\tAcme Shop\tcreated \d{4}-/),
      expect.stringMatching(/^bolt\tpartner\tactive\t2 wallet\(s\)\tBolt Exchange\t/),
      "More follow: repeat with --after bolt",
    ]);
    const next = await purse("users", "list", "--limit", "2", "--after", "bolt");
    expect(next.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^cafe\tmerchant\tblocked\t1 wallet/),
    ]);
  });

  it("wallets: every owner's, exact balances, DELETED ones included; filters by user, currency, status", async () => {
    type Wallet = { number: string; user: string; currency: string; balance: string; status: string };
    const all = await json<Wallet[]>("wallets", "list");
    expect(all.map((w) => w.number)).toEqual([
      "E100000011",
      "E100000021",
      "U100000010",
      "U100000020",
      "U100000030",
    ]);
    expect(all.find((w) => w.number === "U100000030")).toMatchObject({
      user: "cafe",
      balance: "75.00",
      status: "DELETED",
    });
    expect((await json<Wallet[]>("wallets", "list", "--user", "acme")).map((w) => w.number)).toEqual([
      "E100000011",
      "U100000010",
    ]);
    expect(
      (await json<Wallet[]>("wallets", "list", "--currency", "EUR", "--status", "active")).map((w) => w.user),
    ).toEqual(["acme", "bolt"]);
    const text = await purse("wallets", "list", "--status", "Deleted");
    expect(text.stdout).toMatch(/^U100000030\tDELETED\t75\.00 USD\tlimit 2000\.00\tcafe\tcreated /);
  });

  it("clients: by client_id with their user and overlaps under way, never a secret", async () => {
    const rotated = await purse("clients", "rotate-secret", "bolt", "--overlap", "2h");
    expect(rotated.code).toBe(0);
    const clients = await json<{ clientId: string; user: string; secretOverlapUntil: string | null }[]>(
      "clients",
      "list",
    );
    expect(clients.map((k) => [k.clientId, k.user])).toEqual([
      ["acme", "acme"],
      ["bolt", "bolt"],
      ["cafe", "cafe"],
    ]);
    expect(clients[0]?.secretOverlapUntil).toBeNull();
    expect(clients[1]?.secretOverlapUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const text = await purse("clients", "list", "--user", "bolt");
    expect(text.stdout).toMatch(/^bolt\tbolt\tcreated .+\told secret until /);
    const everything = JSON.stringify(clients) + text.stdout;
    for (const secret of [
      "acme-secret",
      "acme-form-token",
      "whsec_",
      "bolt-secret",
      rotated.stdout.split("\n")[1] ?? "?",
    ])
      expect(everything).not.toContain(secret);
  });

  it("bounds every list and names what it cannot find", async () => {
    const refusals: [string[], string][] = [
      [
        ["users", "list", "--limit", "1001"],
        'purse: --limit takes a whole number from 1 to 1000 (got "1001")',
      ],
      [["wallets", "list", "--limit", "0"], 'purse: --limit takes a whole number from 1 to 1000 (got "0")'],
      [["users", "list", "--role", "admin"], 'purse: --role takes merchant or partner (got "admin")'],
      [["wallets", "list", "--status", "gone"], 'purse: --status takes NEW, ACTIVE or DELETED (got "gone")'],
      [
        ["wallets", "list", "--user", "nobody"],
        'purse: --user "nobody": no such user (purse users list shows them)',
      ],
      [["wallets", "list", "--currency", "XYZ"], 'purse: --currency "XYZ": no such currency'],
      [
        ["clients", "list", "--user", "nobody"],
        'purse: --user "nobody": no such user (purse users list shows them)',
      ],
    ];
    await expectRefusals(purse, refusals);
    expect((await purse("users", "list", "--after", "zzz")).stdout.trim()).toBe("No users.");
  });
});
