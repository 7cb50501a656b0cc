import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleFixture } from "@purse/testing";
import pg from "pg";
import { it } from "vitest";
import { restDoor } from "../doors/doors.ts";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import { startTestServer } from "../support/test-server.ts";

const ports = [37649, 42271, 39717];
it("dev", async () => {
  const name = `dev_${Date.now()}`;
  for (const port of ports) {
    const admin = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const c = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/${name}` });
    await c.connect();
    await c.query("create extension citus");
    if (port === 39717) {
      await c.query("select citus_set_coordinator_host('127.0.0.1', $1)", [39717]);
      await c.query("select citus_add_node('127.0.0.1', $1)", [37649]);
      await c.query("select citus_add_node('127.0.0.1', $1)", [42271]);
    }
    await c.end();
  }
  const database = { name, url: `postgresql://postgres@127.0.0.1:39717/${name}` };
  const env = { PURSE_SOURCE: "1" };
  console.log((await purseCli(database, ["migrate"], env)).code);
  console.log((await purseCli(database, ["citus", "distribute"], env)).code);
  const dir = await mkdtemp(join(tmpdir(), "fx-"));
  await writeFile(join(dir, "s.json"), JSON.stringify(sampleFixture()));
  console.log(await purseCli(database, ["seed", join(dir, "s.json")], env));
  const api = await startTestServer({ database });
  const acme = await api.token("acme");
  const bolt = await api.token("bolt");
  const step = async (what: string, run: () => Promise<unknown>) => {
    try {
      console.log(what, JSON.stringify(await run()).slice(0, 400));
    } catch (e) {
      console.log(what, "THREW", e);
    }
  };
  await step("transfer", () =>
    restDoor(api).transfer(acme, { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.25" }),
  );
  const checkout = await createCheckout(api, { url: "https://shop.example" }, "2.00");
  await step("pay", () =>
    api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    }),
  );
  const voucher = await api.call("POST", "/api/vouchers/buy", {
    token: bolt,
    body: { wallet_from: "U100000020", amount: "4.00" },
  });
  console.log("buy", JSON.stringify(voucher).slice(0, 400));
  await step("activate", () =>
    restDoor(api).activateVoucher(
      acme,
      voucher.body?.data?.voucherNumber,
      voucher.body?.data?.secret,
      "U100000010",
    ),
  );
  const today = new Date().toISOString().slice(0, 10);
  await step("history", () =>
    api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
      { token: acme },
    ),
  );
  console.log((await purseCli(database, ["audit"], env)).stdout.slice(-200));
  await api.close();
}, 300_000);
