import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { checkoutSignature, hasBeenSeeded, seedFixture } from "@purse/engine";
import type { Runtime } from "../composition/runtime.ts";

export const demoFixturePath = fileURLToPath(new URL("../../../../fixtures/demo.json", import.meta.url));

interface DemoClient {
  user_id: number;
  client_id: string;
  client_secret: string;
  form_token?: string;
  webhook_secret?: string;
}

interface DemoUser {
  id: number;
  login: string;
  password: string;
  role?: string;
}

interface DemoWallet {
  user_id: number;
  number: string;
  currency: string;
}

/** What of the demo fixture the welcome text shows. */
export interface DemoFixture {
  clients: DemoClient[];
  wallets: DemoWallet[];
  users?: DemoUser[];
}

async function readDemoFixture(): Promise<{ raw: unknown; demo: DemoFixture }> {
  const raw = JSON.parse(await readFile(demoFixturePath, "utf8")) as Partial<DemoFixture>;
  return { raw, demo: { clients: raw.clients ?? [], wallets: raw.wallets ?? [], users: raw.users ?? [] } };
}

/**
 * The embedded database's demo data: seeded into an empty database, and found again on later
 * starts while the demo's first client is still there. Null when the database holds other data.
 */
export async function seedDemoIfEmpty(runtime: Runtime): Promise<DemoFixture | null> {
  const { raw, demo } = await readDemoFixture();
  if (!(await hasBeenSeeded(runtime.db))) {
    await seedFixture(runtime.db, runtime.deps.secretBox, raw);
    return demo;
  }
  const [first] = demo.clients;
  if (!first) return null;
  const found = await runtime.db
    .em()
    .execute<{ found: number }[]>("select 1 as found from clients where client_id = ?", [first.client_id]);
  return found.length > 0 ? demo : null;
}

/**
 * The first-start banner: where Purse listens, and, for the demo data only, every credential a
 * first integration needs with one working curl line each for token, transfer and a signed
 * checkout. `demo` is null for real data and under NODE_ENV=production: no credential is printed.
 */
export function welcomeText(baseUrl: string, demo: DemoFixture | null, now: Date = new Date()): string {
  const lines = [
    `Purse is serving on ${baseUrl} (embedded database, in-process locks: one process only).`,
    `API reference: ${baseUrl}/docs   OpenAPI: ${baseUrl}/openapi.json   Dashboard: ${baseUrl}/dashboard`,
  ];
  const example = demo ? demoExample(demo) : null;
  if (!example) return lines.join("\n");
  const { client, wallet, other, clients } = example;
  const stamp = now.getTime().toString(36);
  const checkoutFields = { wallet_to: wallet, wallet_from: other, amount: "25.00", id: `demo-${stamp}` };
  const json = (value: unknown) => `'${JSON.stringify(value)}'`;
  lines.push(
    "",
    "Demo data (fixtures/demo.json; never seeded for DATABASE_URL or under NODE_ENV=production):",
    `  base URL:                 ${baseUrl}`,
    ...clients.map((each) => `  client_id / client_secret: ${each.client_id} / ${each.client_secret}`),
    `  form token (${client.client_id}, signs checkouts paying into ${wallet}): ${client.form_token}`,
    ...(client.webhook_secret ? [`  webhook secret (${client.client_id}): ${client.webhook_secret}`] : []),
    ...dashboardSignIn(example.users, client.user_id, baseUrl),
    "",
    `1. Get a token for ${client.client_id} (kept in $TOKEN):`,
    `  TOKEN=$(curl -s -X POST ${baseUrl}/token -H 'Content-Type: application/json' -d ${json({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: "api",
    })} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `2. Transfer 10.00 from ${wallet} to ${other}:`,
    `  curl -s -X POST ${baseUrl}/api/transaction/transfer -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d ${json(
      { wallet_from: wallet, wallet_to: other, amount: "10.00" },
    )}`,
    `3. A payment link for 25.00 from ${other} into ${wallet}, signed with the form token (docs/signing.md):`,
    `  curl -s -X POST ${baseUrl}/api/processing/checkout -H 'Content-Type: application/json' -d ${json({
      ...checkoutFields,
      signature: checkoutSignature(checkoutFields, client.form_token ?? ""),
      success_url: "https://shop.example/success",
      cancel_url: "https://shop.example/cancel",
      user_info: `demo-payer-${stamp}`,
    })}`,
  );
  return lines.join("\n");
}

/** The merchant's login and password for the dashboard, when the fixture has them. */
function dashboardSignIn(users: readonly DemoUser[], userId: number, baseUrl: string): string[] {
  const user = users.find((each) => each.id === userId);
  return user
    ? [`  dashboard sign-in (${baseUrl}/dashboard), login / password: ${user.login} / ${user.password}`]
    : [];
}

/** The first client with a form token, one of its USD wallets, and another user's USD wallet. */
function demoExample(demo: DemoFixture) {
  const client = demo.clients.find((each) => each.form_token);
  if (!client) return null;
  const usd = demo.wallets.filter((each) => each.currency === "USD");
  const wallet = usd.find((each) => each.user_id === client.user_id)?.number;
  const other = usd.find((each) => each.user_id !== client.user_id)?.number;
  if (!wallet || !other) return null;
  return { client, wallet, other, clients: demo.clients, users: demo.users ?? [] };
}
