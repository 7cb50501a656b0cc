import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { hasBeenSeeded, seedFixture } from "@purse/engine";
import type { Runtime } from "../composition/runtime.ts";

export const demoFixturePath = fileURLToPath(new URL("../../../../fixtures/demo.json", import.meta.url));

interface DemoClient {
  client_id: string;
  client_secret: string;
}

/** Seeds the demo fixture into an empty embedded database; returns its clients for the welcome text. */
export async function seedDemoIfEmpty(runtime: Runtime): Promise<DemoClient[] | null> {
  if (await hasBeenSeeded(runtime.db)) return null;
  const fixture = JSON.parse(await readFile(demoFixturePath, "utf8")) as { clients?: DemoClient[] };
  await seedFixture(runtime.db, runtime.deps.secretBox, fixture);
  return fixture.clients ?? [];
}

export function welcomeText(baseUrl: string, clients: readonly DemoClient[]): string {
  const [first] = clients;
  const lines = [
    `Purse is serving on ${baseUrl} (embedded database, in-process locks: one process only).`,
    `API reference: ${baseUrl}/docs`,
  ];
  if (first) {
    lines.push(
      "Demo clients (client_id / client_secret):",
      ...clients.map((client) => `  ${client.client_id} / ${client.client_secret}`),
      "Get a token:",
      `  curl -s -X POST ${baseUrl}/token -H 'Content-Type: application/json' -d '${JSON.stringify({
        grant_type: "client_credentials",
        client_id: first.client_id,
        client_secret: first.client_secret,
        scope: "api",
      })}'`,
    );
  }
  return lines.join("\n");
}
