import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { appRouter } from "@purse/trpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repository = fileURLToPath(new URL("../../", import.meta.url));
const clientPackage = join(repository, "packages", "client");
const tsc = join(repository, "node_modules", "typescript", "bin", "tsc");
/** What a front end must never install: database drivers, ORMs, native modules, the server's HTTP stack. */
const serverOnly =
  /^(pg|pg-.+|postgres|kysely|ioredis|redis|argon2|@node-rs\/.+|@mikro-orm\/.+|@electric-sql\/.+|fastify|@fastify\/.+|graphql-yoga|@purse\/.+)$/;

/** The contract's configurations: strict, both resolutions, every flag a Vite or Node project sets. */
const configurations = {
  NodeNext: { module: "NodeNext", moduleResolution: "NodeNext" },
  Bundler: { module: "ESNext", moduleResolution: "Bundler" },
};

/** A front end's file: it compiles only while the declarations carry the router's names and shapes. */
const consumer = (procedures: string[]) => `
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter, PurseErrorCode, PurseInputs, TransactionNode, TransactionUpdate } from "purse-client";
import { transactionStatuses, transactionTypes } from "purse-client";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const names: [
  Same<TransactionNode["type"], (typeof transactionTypes)[number]>,
  Same<TransactionNode["status"], (typeof transactionStatuses)[number]>,
  Same<TransactionUpdate["type"], (typeof transactionTypes)[number]>,
  Same<TransactionUpdate["status"], (typeof transactionStatuses)[number]>,
  Same<TransactionNode["walletFrom"], string | null>,
  Same<TransactionNode["currency"], string>,
] = [true, true, true, true, true, true];
// @ts-expect-error a type is a name on tRPC, never REST's number
export const numeric: TransactionUpdate["type"] = 1;
export const code: PurseErrorCode = "INSUFFICIENT_FUNDS";
// Every procedure of the router, no more and no fewer (an excess or a missing key does not compile).
export const procedures: Record<keyof AppRouter["_def"]["record"], true> = {
${procedures.map((name) => `  ${name}: true,`).join("\n")}
};

const purse = createTRPCClient<AppRouter>({
  links: [httpLink({ url: "http://localhost:3000/trpc", headers: () => ({ authorization: "Bearer t" }) })],
});
export async function pay(input: PurseInputs["transfer"]): Promise<string> {
  try {
    return String((await purse.transfer.mutate(input)).id);
  } catch (error) {
    if (error instanceof TRPCClientError) return String(error.data?.purseCode);
    throw error;
  }
}
`;

describe("purse-client as a front end installs it (npm pack, outside the repository)", () => {
  let work: string;
  let tarball: { filename: string; size: number; files: { path: string }[] };
  beforeAll(async () => {
    // CI builds before it tests; a checkout that was never built builds the package here.
    if (!existsSync(join(clientPackage, "dist", "index.d.ts"))) {
      await run("npm", ["run", "build"], { cwd: clientPackage });
    }
    work = await mkdtemp(join(tmpdir(), "purse-client-"));
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: clientPackage });
    [tarball] = JSON.parse(packed.stdout);
    await writeFile(
      join(work, "package.json"),
      JSON.stringify({
        name: "front-end",
        private: true,
        type: "module",
        dependencies: { "purse-client": `file:${join(work, tarball.filename)}`, "@trpc/client": "11.25.2" },
      }),
    );
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: work,
    });
  }, 240_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("is a small tarball of declarations and the enum names, whose tree holds no server code", async () => {
    expect(tarball.size).toBeLessThan(200 * 1024);
    expect(tarball.files.map((file) => file.path).sort()).toEqual([
      "LICENSE",
      "dist/index.d.ts",
      "dist/index.js",
      "package.json",
    ]);
    // The licence it installs with is the repository's (npm packs a package's own LICENSE only).
    expect(await readFile(join(work, "node_modules", "purse-client", "LICENSE"), "utf8")).toBe(
      await readFile(join(repository, "LICENSE"), "utf8"),
    );
    const tree = JSON.parse((await run("npm", ["ls", "--all", "--json"], { cwd: work })).stdout);
    const installed = new Set<string>();
    interface Installed {
      version?: string;
      missing?: boolean;
      dependencies?: Record<string, Installed>;
    }
    const walk = (node: Installed) => {
      for (const [name, child] of Object.entries(node.dependencies ?? {})) {
        if (child.missing || !child.version) continue;
        installed.add(name);
        walk(child);
      }
    };
    walk(tree);
    expect([...installed].filter((name) => serverOnly.test(name))).toEqual([]);
    // Beside the front end's own @trpc/client: purse-client, its @trpc/server peer, and the TypeScript
    // that tRPC's packages name as their peer.
    const expected = /^(purse-client|@trpc\/client|@trpc\/server|typescript|@typescript\/.+)$/;
    expect([...installed].filter((name) => !expected.test(name))).toEqual([]);
    const { transactionTypes, transactionStatuses } = await import(
      join(work, "node_modules", "purse-client", "dist", "index.js")
    );
    expect([transactionTypes, transactionStatuses]).toEqual([
      ["TRANSFER", "DEPOSIT", "WITHDRAW"],
      ["PENDING", "FAIL", "SUCCESS", "CANCEL"],
    ]);
  });

  it("says which Purse it matches: its version is the server's", async () => {
    const read = async (path: string) =>
      JSON.parse(await readFile(join(repository, path, "package.json"), "utf8")) as { version: string };
    expect((await read("packages/client")).version).toBe((await read("packages/server")).version);
  });

  it.each(Object.entries(configurations))(
    "compiles a front end's use of it under %s resolution, strict, exactOptionalPropertyTypes, verbatimModuleSyntax, erasableSyntaxOnly, skipLibCheck false",
    async (name, resolution) => {
      await writeFile(join(work, "consumer.ts"), consumer(Object.keys(appRouter._def.record)));
      await writeFile(
        join(work, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: {
            target: "ES2023",
            // tRPC's own declarations name Disposable: ESNext.Disposable (or @types/node) provides it.
            lib: ["ES2023", "DOM", "ESNext.Disposable"],
            types: [],
            ...resolution,
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            verbatimModuleSyntax: true,
            erasableSyntaxOnly: true,
            isolatedModules: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files: ["consumer.ts"],
        }),
      );
      const compiled = await run(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], { cwd: work }).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(compiled).toBe("");
    },
    120_000,
  );
});
