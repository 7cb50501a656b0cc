// CI (`npm run check-examples`, after the build): the examples as a front-end developer meets them,
// outside the repository. purse-client is packed with `npm pack`; each example is copied to a
// temporary directory, installed there from the tarball and the public registry packages (npm's
// cache first, never a workspace link), type-checked with its own strict tsconfigs (NodeNext and
// Bundler), built (Vite) or generated (openapi-typescript, graphql-codegen) and run against a
// `purse serve` on PostgreSQL seeded with the demo data. Prints the tarball's size and the tRPC
// example's `npm ls --all`, and fails if that tree holds server code.
import { spawn, spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const repository = fileURLToPath(new URL("..", import.meta.url));
const adminUrl = process.env["PURSE_EXAMPLES_ADMIN_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const maxTarballBytes = 200 * 1024;
/** Modules a front end must never install: drivers, ORMs, native modules, the server's HTTP stack. */
const serverOnly =
  /^(pg|pg-.+|postgres|kysely|ioredis|redis|argon2|@node-rs\/.+|@mikro-orm\/.+|@electric-sql\/.+|fastify|@fastify\/.+|graphql-yoga|@purse\/.+|bullmq|better-sqlite3)$/;

const started = Date.now();
const work = await mkdtemp(join(tmpdir(), "purse-examples-"));
const database = `purse_examples_${process.pid}`;
let server;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: "pipe", ...options });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} (in ${options.cwd ?? repository}) exited ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

function step(name) {
  console.log(`\n--> ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const npm = (cwd, ...args) => run("npm", args, { cwd });
const install = (cwd) =>
  npm(cwd, "install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error");

/** Copies an example without what its last install or build left behind. */
async function copyExample(name) {
  const target = join(work, name);
  await cp(join(repository, "examples", name), target, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist|gql)([\\/]|$)/.test(source),
  });
  return target;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startPurse() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    PURSE_SECRET_KEY: "examples-secret-key-at-least-32-characters",
    PURSE_CAPTCHA: "off",
    PURSE_WEBHOOK_WORKER: "off",
    LOG_LEVEL: "warn",
  };
  const purse = join(repository, "node_modules", ".bin", "purse");
  run(purse, ["migrate"], { env });
  run(purse, ["seed", join(repository, "fixtures", "demo.json")], { env });
  server = spawn(purse, ["serve"], { env, stdio: ["ignore", "inherit", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`purse serve exited ${server.exitCode}`);
    const ready = await fetch(`${base}/readyz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return base;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("purse serve did not become ready within 60 s");
}

async function token(base) {
  const response = await fetch(`${base}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: "acme",
      client_secret: "acme-secret",
      scope: "api",
    }),
  });
  const body = await response.json();
  if (!body.access_token) throw new Error(`POST /token answered ${response.status}`);
  return body.access_token;
}

/** Every installed package's name in an `npm ls --all --json` tree (unmet optional peers are not). */
function packageNames(tree, found = new Set()) {
  for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
    if (child.missing || !child.version) continue;
    found.add(name);
    packageNames(child, found);
  }
  return found;
}

try {
  step("npm pack purse-client");
  const packed = JSON.parse(
    npm(join(repository, "packages", "client"), "pack", "--json", "--pack-destination", work),
  )[0];
  const tarball = join(work, packed.filename);
  const bytes = (await stat(tarball)).size;
  console.log(
    `${packed.filename}: ${bytes} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`,
  );
  if (bytes >= maxTarballBytes) throw new Error(`the tarball is ${bytes} bytes, over ${maxTarballBytes}`);

  step("purse serve on PostgreSQL with the demo data");
  const base = await startPurse();
  const accessToken = await token(base);
  const runEnv = {
    ...process.env,
    PURSE_URL: base,
    BASE_URL: base,
    PURSE_TOKEN: accessToken,
    NODE_NO_WARNINGS: "1",
  };

  step("examples/trpc-client: install from the tarball, type-check, build with Vite, run");
  const trpc = await copyExample("trpc-client");
  const manifest = JSON.parse(await readFile(join(trpc, "package.json"), "utf8"));
  manifest.dependencies["purse-client"] = `file:${tarball}`;
  await writeFile(join(trpc, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  install(trpc);
  const tree = JSON.parse(npm(trpc, "ls", "--all", "--json"));
  console.log(npm(trpc, "ls", "--all"));
  const clientTree = packageNames(tree.dependencies?.["purse-client"] ?? {});
  const offending = [...packageNames(tree)].filter((name) => serverOnly.test(name));
  if (offending.length > 0) throw new Error(`server code in the front end's tree: ${offending.join(", ")}`);
  console.log(
    `purse-client brings ${clientTree.size} packages of its own: ${[...clientTree].join(", ") || "none"}`,
  );
  npm(trpc, "run", "typecheck");
  npm(trpc, "run", "build");
  console.log(run(process.execPath, ["src/run.ts"], { cwd: trpc, env: runEnv }).trim());

  step("examples/rest-client: generate from the served OpenAPI document, type-check, run");
  const rest = await copyExample("rest-client");
  install(rest);
  run("npm", ["run", "generate"], { cwd: rest, env: { ...runEnv, PURSE_OPENAPI: `${base}/openapi.json` } });
  npm(rest, "run", "typecheck");
  console.log(run(process.execPath, ["src/main.ts"], { cwd: rest, env: runEnv }).trim());

  step("examples/graphql-client: graphql-codegen against the served schema, type-check, run");
  const graphql = await copyExample("graphql-client");
  install(graphql);
  run("npm", ["run", "generate"], { cwd: graphql, env: runEnv });
  npm(graphql, "run", "typecheck");
  console.log(run(process.execPath, ["src/main.ts"], { cwd: graphql, env: runEnv }).trim());

  step(`all three examples passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  server?.kill("SIGTERM");
  await new Promise((resolve) =>
    server && server.exitCode === null ? server.once("exit", resolve) : resolve(),
  );
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect().then(
    () => admin.query(`drop database if exists ${database} with (force)`).finally(() => admin.end()),
    () => undefined,
  );
  await rm(work, { recursive: true, force: true });
}
