import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restDoor } from "../doors/doors.ts";
import { buildDashboard, launchBrowser, pageProblems, signedInDashboard } from "../support/browser.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { type DistributedPurse, distributedPurse } from "../support/distributed-purse.ts";
import { purseCli } from "../support/purse-cli.ts";
import { openTestAccount } from "../support/test-mode.ts";
import { testSecretKey } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite, verifiedEvent } from "../support/webhook-receiver.ts";

/**
 * docs/sharding.md, "What is left": the operator's `purse` verbs that write, which
 * citus-cluster.test.ts does not call, run against a Purse whose tables Citus distributed by owner
 * (a coordinator and two workers; the sample world's acme, user 1, and bolt, user 2, on different
 * workers), each checked by what the operator reads back and what the API answers afterwards; and
 * test mode's voucher expiry by a test clock.
 */
const vendored = fileURLToPath(new URL("../../../shared/vendor/citus/citus-13.2.2.tar.gz", import.meta.url));
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

describe.skipIf(!installed && !existsSync(vendored))("the operator's verbs on a distributed Purse", () => {
  let cluster: CitusCluster;
  let purse: DistributedPurse;
  let site: MerchantSite;
  // The merchants' site is on 127.0.0.1, as on a developer's machine.
  const cli = (args: string[], input = "", env: Record<string, string> = {}) =>
    purseCli(purse.database, args, { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", ...env }, input);
  /** A verb that must succeed: its standard output. */
  const ran = async (args: string[], input = "", env: Record<string, string> = {}) => {
    const run = await cli(args, input, env);
    expect(run.stderr, `purse ${args.join(" ")}`).toBe("");
    expect(run.code).toBe(0);
    return run.stdout;
  };
  const transfer = async (token: string, walletFrom: string, walletTo: string, amount: string) => {
    const moved = await restDoor(purse.api).transfer(token, { walletFrom, walletTo, amount });
    return moved.ok ? "moved" : moved.message;
  };

  beforeAll(async () => {
    await ensureCitusInstalled();
    cluster = await startCitusCluster();
    purse = await distributedPurse(cluster, `purse_citus_verbs_${process.pid}`);
    site = await startMerchantSite();
  }, 30 * 60_000);
  afterAll(async () => {
    await purse?.api.close();
    await cluster?.stop();
    await site?.close();
  });

  it("creates a user with a client and a wallet of a limit, blocks and unblocks them, closes the wallet: the API follows each", async () => {
    const { api } = purse;
    expect(
      await ran(
        ["users", "create", "--login", "dora", "--name", "Dora", "--role", "partner", "--password-stdin"],
        "dora-pass\n",
      ),
    ).toMatch(/^Created partner dora \(user \d+\)\./);
    const issued = await ran(["--json", "clients", "create", "--user", "dora"]);
    const client = JSON.parse(issued) as { client_id: string; client_secret: string };
    const dora = await api.token(client.client_id, client.client_secret);
    expect(
      await ran([
        "wallets",
        "create",
        "--user",
        "dora",
        "--currency",
        "USD",
        "--limit",
        "10.00",
        "--number",
        "U100000044",
      ]),
    ).toContain("Opened wallet U100000044 (USD) for dora.");
    expect(await ran(["users", "list"])).toMatch(/^dora\tpartner\tactive\t1 wallet\(s\)\tDora/m);

    // acme (another owner, maybe on another worker) pays into the new wallet up to its limit.
    const acme = await api.token("acme");
    expect(await transfer(acme, "U100000010", "U100000044", "11.00")).toBe(
      "Maximum amount exceeded 10.00 for USD",
    );
    expect(await transfer(acme, "U100000010", "U100000044", "6.00")).toBe("moved");
    expect(await ran(["wallets", "list", "--user", "dora"])).toMatch(
      /^U100000044\tACTIVE\t6\.00 USD\tlimit 10\.00\tdora\t/m,
    );
    const wallets = await api.call("GET", "/api/wallets", { token: dora });
    expect(wallets.body.data).toEqual([expect.objectContaining({ number: "U100000044", amount: 6 })]);

    // Blocked, dora can be paid no more, and pays no more; unblocked, both again.
    expect(await ran(["users", "block", "dora"])).toContain("dora is blocked.");
    expect(await ran(["users", "list", "--role", "partner"])).toMatch(/^dora\tpartner\tblocked\t/m);
    expect(await transfer(acme, "U100000010", "U100000044", "1.00")).toBe("User is blocked");
    expect(await transfer(dora, "U100000044", "U100000010", "1.00")).toBe("User is blocked");
    expect(await ran(["users", "unblock", "dora"])).toContain("dora is unblocked.");
    expect(await transfer(dora, "U100000044", "U100000010", "1.00")).toBe("moved");

    // A wallet closed (DELETED) receives nothing; the list says so.
    expect(await ran(["wallets", "status", "U100000044", "deleted"])).toContain(
      "Wallet U100000044 is DELETED.",
    );
    expect(await transfer(acme, "U100000010", "U100000044", "1.00")).toBe("Wallet to not exists");
    expect(await ran(["wallets", "list", "--status", "DELETED"])).toMatch(/^U100000044\tDELETED\t/m);
    expect(await ran(["wallets", "status", "U100000044", "ACTIVE"])).toContain(
      "Wallet U100000044 is ACTIVE.",
    );
  }, 120_000);

  it("rotates a client's secret, form token and webhook secret and revokes its tokens: the old ones are refused", async () => {
    const { api } = purse;
    const token = await api.token("cafe");
    expect((await api.call("GET", "/api/wallets", { token })).status).toBe(200);
    const rotated = JSON.parse(
      await ran(["--json", "clients", "rotate-secret", "cafe", "--overlap", "0"]),
    ) as {
      client_secret: string;
    };
    expect(
      (
        await api.call("POST", "/token", {
          body: { grant_type: "client_credentials", client_id: "cafe", client_secret: "cafe-secret" },
        })
      ).status,
    ).toBe(401);
    const fresh = await api.token("cafe", rotated.client_secret);
    expect(await ran(["clients", "revoke-tokens", "cafe"])).toContain(
      "Revoked 2 live access token(s) of cafe",
    );
    // Without Redis between the command and the server, the server's token cache (1 s) bounds it.
    for (const revoked of [token, fresh])
      await expect
        .poll(async () => (await api.call("GET", "/api/wallets", { token: revoked })).status)
        .toBe(401);

    // The form token signs checkouts: the old one refused once the overlap is cut.
    const form = JSON.parse(
      await ran(["--json", "clients", "rotate-form-token", "cafe", "--overlap", "0"]),
    ) as {
      form_token: string;
    };
    expect(form.form_token).not.toBe("cafe-form-token");
    expect(await ran(["clients", "rotate-webhook-secret", "cafe", "--overlap", "0"])).toContain(
      "Deliveries are signed with the new secret only.",
    );
    expect(await ran(["clients", "list", "--user", "cafe"])).toMatch(/^cafe\tcafe\t/m);
  }, 60_000);

  it("switches a currency and a direction off and on: transfers follow", async () => {
    const { api } = purse;
    const acme = await api.token("acme");
    expect(await ran(["currencies", "disable", "EUR", "--direction", "transfer"])).toContain(
      "EUR transfer disabled.",
    );
    expect(await transfer(acme, "E100000011", "E100000021", "1.00")).toBe("Direction not active");
    expect(await ran(["currencies", "enable", "EUR", "--direction", "transfer"])).toContain(
      "EUR transfer enabled.",
    );
    expect(await transfer(acme, "E100000011", "E100000021", "1.00")).toBe("moved");
    expect(await ran(["currencies", "disable", "USD"])).toContain("USD disabled.");
    expect(await transfer(acme, "U100000010", "U100000020", "1.00")).toBe("Currency is disabled");
    expect(await ran(["currencies", "enable", "USD"])).toContain("USD enabled.");
    expect(await transfer(acme, "U100000010", "U100000020", "1.00")).toBe("moved");
  }, 60_000);

  it("issues a voucher another owner activates, and closes expired checkouts by the CLI", async () => {
    const { api } = purse;
    const issued = JSON.parse(
      await ran([
        "--json",
        "vouchers",
        "issue",
        "--currency",
        "USD",
        "--amount",
        "20.00",
        "--creator",
        "bolt",
      ]),
    ) as { voucher_number: string; voucher_code: string };
    const activated = await restDoor(api).activateVoucher(
      await api.token("acme"),
      issued.voucher_number,
      issued.voucher_code,
      "U100000010",
    );
    expect(activated.ok).toBe(true);

    const checkout = await createCheckout(api, { url: `${site.url}/expire` }, "4.00");
    expect(await ran(["checkouts", "list", "acme", "--status", "pending"])).toContain(checkout.paymentId);
    await cluster.coordinator.query(
      "update checkouts set expired_at = now() - interval '1 minute' where payment_id = $1",
      [checkout.paymentId],
      purse.database.name,
    );
    // `purse serve` closes expired checkouts too (every few seconds), so either may close this one:
    // the verb must run on the distributed schema, and the checkout end closed.
    expect(await ran(["checkouts", "expire"])).toMatch(/^Closed \d+ expired checkout\(s\)/);
    await expect
      .poll(() => ran(["checkouts", "list", "acme", "--status", "FAIL"]), { timeout: 15_000 })
      .toContain(checkout.paymentId);
  }, 60_000);

  it("manages a user's webhook endpoints, sends a test event, replays events and resends a delivery", async () => {
    const { api } = purse;
    const url = `${site.url}/endpoints`;
    const created = JSON.parse(
      await ran(["--json", "webhooks", "endpoints", "create", "acme", "--url", url]),
    ) as {
      id: string;
      secret: string;
    };
    expect(await ran(["webhooks", "endpoints", "list", "acme"])).toContain(created.id);
    expect(await transfer(await api.token("acme"), "U100000010", "U100000020", "1.00")).toBe("moved");
    const [sent] = await site.waitFor("/endpoints", 1, 20_000);
    expect(verifiedEvent(sent as NonNullable<typeof sent>, created.secret).type).toBe("transfer.sent");

    expect(await ran(["webhooks", "endpoints", "update", created.id, "--description", "orders"])).toContain(
      "orders",
    );
    const rotated = JSON.parse(
      await ran(["--json", "webhooks", "endpoints", "rotate", created.id, "--overlap", "0"]),
    ) as {
      secret: string;
    };
    expect(await ran(["webhooks", "trigger", "transfer.received", "--endpoint", created.id])).toMatch(
      /^Test event evt_/,
    );
    const events = await ran(["webhooks", "events", "list", "acme", "--type", "transfer.sent"]);
    const eventId = events.split("\t")[0] ?? "";
    expect(await ran(["webhooks", "replay", "--endpoint", created.id, "--events", eventId])).toContain(
      `Queued 1 event(s) for ${created.id}.`,
    );
    const arrived = await site.waitFor("/endpoints", 3, 20_000);
    expect(
      arrived
        .slice(1)
        .map((received) => verifiedEvent(received, rotated.secret).type)
        .sort(),
    ).toEqual(["transfer.received", "transfer.sent"]);

    // A status_url notification resent by its delivery id: it arrives again, the same webhook-id.
    const checkout = await createCheckout(api, { url: `${site.url}/resend` }, "2.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const [first] = await site.waitFor("/resend/webhook", 1, 20_000);
    const deliveries = JSON.parse(await ran(["--json", "webhooks", "list", "--status", "delivered"])) as {
      id: number;
      url: string;
    }[];
    const delivery = deliveries.find((found) => found.url.includes("/resend/"));
    expect(await ran(["webhooks", "resend", String(delivery?.id)])).toContain(
      `Delivery ${delivery?.id} is queued`,
    );
    const again = await site.waitFor("/resend/webhook", 2, 20_000);
    expect(again[1]?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);

    expect(await ran(["webhooks", "endpoints", "delete", created.id])).toContain(`Deleted ${created.id}.`);
    expect(await ran(["webhooks", "endpoints", "list", "acme"])).not.toContain(created.id);
  }, 90_000);

  it("in test mode: credentials and a funded wallet by the CLI, and a test voucher closed when its buyer's test clock passes its expiry", async () => {
    const { api } = purse;
    const credentials = JSON.parse(
      await ran(["--json", "clients", "create", "--test", "--user", "bolt"]),
    ) as {
      client_id: string;
      client_secret: string;
    };
    expect(credentials.client_id).toMatch(/^test_/);
    const bolt = await api.token(credentials.client_id, credentials.client_secret);
    const wallet = JSON.parse(
      await ran(["--json", "wallets", "create", "--test", "--user", "bolt", "--currency", "USD"]),
    ) as {
      number: string;
    };
    expect(await ran(["test", "fund", wallet.number, "30.00"])).toContain(
      `Test wallet ${wallet.number} funded with 30.00`,
    );
    const bought = await api.call("POST", "/api/vouchers/buy", {
      token: bolt,
      body: { wallet_from: wallet.number, amount: "5.00" },
    });
    expect(bought.body).toMatchObject({ status: true, livemode: false });
    const { voucherNumber, secret } = bought.body.data as { voucherNumber: string; secret: string };

    // acme's test mode (another owner, on the other worker) would activate it; 31 days on bolt's
    // clock close it first (the expiry sweep of bolt's test vouchers, one owner's update).
    const acme = await openTestAccount(api, "acme", { USD: "0" });
    const info = () =>
      api.call(
        "GET",
        `/api/vouchers/activation/info?voucher_number=${voucherNumber}&voucher_code=${secret}`,
        {
          token: acme.token,
        },
      );
    expect((await info()).body).toMatchObject({ status: true, livemode: false });
    expect(await ran(["test", "clock", "advance", "31d", "--user", "bolt"])).toContain(
      "bolt's test clock now reads",
    );
    expect(await ran(["test", "clock", "show", "--user", "bolt"])).toMatch(
      /\(2678400\d{3} ms ahead of real time\)/,
    );
    expect(
      await cluster.coordinator.query(
        "select status from purse_test.vouchers where number = $1",
        [voucherNumber],
        purse.database.name,
      ),
    ).toEqual([{ status: 2 }]);
    expect((await info()).body).toMatchObject({ status: false, message: "Voucher closed" });
    // acme's own clock has not moved: the voucher is closed for everyone, by its status.
    const listed = await api.call("GET", "/api/vouchers", {
      token: await api.token(credentials.client_id, credentials.client_secret),
    });
    expect(listed.body.data.items).toContainEqual(expect.objectContaining({ voucherNumber, status: 2 }));

    expect(await ran(["audit"])).toContain("The ledger is balanced.");
  }, 90_000);

  it("shows the dashboard in a browser: acme signs in and sees its balances and its history as the API gives them", async () => {
    const { api } = purse;
    await buildDashboard();
    const browser = await launchBrowser();
    try {
      let problems: string[] = [];
      const page = await signedInDashboard(browser, api.url, "acme", {
        viewport: { width: 1280, height: 800 },
        timeoutMs: 20_000,
        watch: (opened) => {
          problems = pageProblems(opened, new URL(api.url).origin);
        },
      });
      const acme = await api.token("acme");
      const wallets = (await api.call("GET", "/api/wallets", { token: acme })).body.data as {
        number: string;
        amount: string;
        currency: { code: string };
      }[];
      const balances = page.getByRole("region", { name: "Balances", exact: true });
      await expect
        .poll(() =>
          balances
            .locator(".wallet")
            .evaluateAll((items) =>
              items.map((item) =>
                [".wallet-number", ".amount", ".currency"]
                  .map((part) => item.querySelector(part)?.textContent?.replaceAll(",", "") ?? "")
                  .join(" "),
              ),
            ),
        )
        .toEqual(wallets.map((wallet) => `${wallet.number} ${wallet.amount} ${wallet.currency.code}`));

      // The history's rows as REST lists them, newest first: transfers received from bolt (its
      // shard on the other worker) among them.
      const today = new Date().toISOString().slice(0, 10);
      const history = await api.call(
        "GET",
        `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=20`,
        { token: acme },
      );
      const ids = (history.body.data.items as { id: number }[]).map((item) => item.id);
      expect(ids.length).toBeGreaterThan(3);
      const table = page.getByRole("table", { name: "Transactions" });
      await expect
        .poll(async () =>
          (
            await table
              .locator("tbody tr")
              .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")))
          )
            .filter((id): id is string => id !== null)
            .map(Number),
        )
        .toEqual(ids);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("last, re-seals every stored secret under a new key (purse keys rotate), the owned tables' rows included", async () => {
    const rotate = {
      PURSE_SECRET_KEY: "citus-rotated-secret-key-of-32-characters",
      PURSE_SECRET_KEY_PREVIOUS: testSecretKey,
    };
    // An endpoint and an open checkout link (a closed one keeps no link) to re-seal.
    await ran(["webhooks", "endpoints", "create", "bolt", "--url", `${site.url}/rotated`]);
    await createCheckout(purse.api, { url: `${site.url}/rotated` }, "1.00");
    const rotated = await ran(["keys", "rotate"], "", rotate);
    // The owned tables' values (an endpoint's secret, voucher codes, checkout links) each on its owner's shard.
    for (const column of ["webhook_endpoints.secret_sealed", "vouchers.code_sealed", "checkouts.link_sealed"])
      expect(rotated).toMatch(new RegExp(`${column}: ([1-9]\\d*)/\\1`));
    expect(rotated).toMatch(/^Done: [1-9]\d* re-sealed, 0 already under key/m);
    // Again: everything opens under the new key and is sealed with it already.
    expect(await ran(["keys", "rotate"], "", rotate)).toMatch(
      /^Done: 0 re-sealed, [1-9]\d* already under key/m,
    );
  }, 60_000);
});
