import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFile(new URL(path, root), "utf8");

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
}

/** The metric names a PromQL expression reads. */
const metricsIn = (expr: string) => [...expr.matchAll(/\bpurse_[a-z0-9_]+/g)].map(([name]) => name);

const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((path) => existsSync(path));

/**
 * deploy/prometheus/purse-rules.yml and deploy/grafana/purse-dashboard.json, against what Purse
 * really exports: every metric they name is one a real `/metrics` scrape serves (a rule on a
 * misspelt series never fires, and nothing says so), and the rules are docs/operations.md's alert
 * table, row for row. `promtool check rules` and `promtool test rules` run in CI (.ci/run).
 */
describe("the alert rules and the dashboard that ship in deploy/", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let exported: Set<string>;
  let rules: Rule[];
  let dashboardExprs: string[];

  beforeAll(async () => {
    database = await createSeededDatabase();
    // A "replica" that is the primary, so that the replica's series are registered too.
    api = await startTestServer({ database, env: { DATABASE_READ_URL: database.url } });
    const scrape = await api.call("GET", "/metrics");
    expect(scrape.status).toBe(200);
    exported = new Set([...String(scrape.body).matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(familySeries));
    const file = parse(await read("deploy/prometheus/purse-rules.yml")) as { groups: { rules: Rule[] }[] };
    rules = file.groups.flatMap((group) => group.rules);
    const dashboard = JSON.parse(await read("deploy/grafana/purse-dashboard.json")) as {
      panels: { targets?: { expr: string }[] }[];
    };
    dashboardExprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    if (database) await dropDatabase(database.name);
  });

  it("name only metrics Purse exports", () => {
    const named = [...rules.map((rule) => rule.expr), ...dashboardExprs].flatMap(metricsIn);
    expect(named.length).toBeGreaterThan(30);
    expect([...new Set(named.filter((name) => !exported.has(name)))]).toEqual([]);
  });

  it("are the alert table of docs/operations.md, expression and delay, row for row", async () => {
    const docs = await read("docs/operations.md");
    const table = docs.slice(docs.indexOf("### What to alert on"), docs.indexOf("Dashboards:"));
    const rows = [...table.matchAll(/^\| [^|]+ \| `(.+?)` \| (\d+m) \|/gm)].map(([, expr = "", delay]) => ({
      expr: expr.replaceAll("\\|", "|"),
      for: delay === "0m" ? undefined : delay,
    }));
    expect(rows.length).toBeGreaterThan(10);
    expect(rules.map((rule) => ({ expr: rule.expr, for: rule.for }))).toEqual(rows);
  });

  it("give the dashboard expressions Prometheus accepts", async () => {
    expect(
      promtool,
      "promtool is not installed: apt-get install prometheus (CI's .ci/run installs it)",
    ).toBeDefined();
    const directory = await mkdtemp(join(tmpdir(), "purse-dashboard-"));
    try {
      // Grafana's variables as Grafana fills them in, each panel query a recording rule to check.
      const asRules = dashboardExprs.map((expr, index) => ({
        record: `purse_dashboard:panel_${index}`,
        expr: expr.replaceAll("$__rate_interval", "5m").replaceAll("$instance", ".*"),
      }));
      const file = join(directory, "dashboard-queries.yml");
      await writeFile(file, JSON.stringify({ groups: [{ name: "dashboard", rules: asRules }] }));
      const check = await run(promtool ?? "promtool", ["check", "rules", file]);
      expect(check.output).toContain(`SUCCESS: ${asRules.length} rules found`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

/** A family's series names: a histogram's are its buckets, count and sum. */
function familySeries([, name = "", type]: RegExpMatchArray): string[] {
  return type === "histogram" ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name];
}

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, output: stdout + stderr });
    });
  });
}
