import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";

export const dashboardPath = "/dashboard";

/**
 * The dashboard's Content-Security-Policy: its own scripts, styles and fonts only, GraphQL and the
 * export on the same origin, never framed. The build holds no inline script or style
 * (packages/dashboard/vite.config.ts), so nothing needs 'unsafe-inline' or a nonce.
 */
export const dashboardPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

const mediaTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
};

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

interface DashboardBuild {
  readonly index: Buffer;
  /** By file name under assets/: only these names are ever answered (no path from the request). */
  readonly assets: ReadonlyMap<string, Asset>;
}

/** Where `npm run build` puts the dashboard: packages/dashboard/dist, found through its package. */
export function builtDashboardDirectory(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("@purse/dashboard/package.json")), "dist");
  } catch {
    return undefined;
  }
}

async function readBuild(directory: string): Promise<DashboardBuild | undefined> {
  let index: Buffer;
  try {
    index = await readFile(join(directory, "index.html"));
  } catch {
    return undefined;
  }
  const assets = new Map<string, Asset>();
  const names = await readdir(join(directory, "assets")).catch(() => [] as string[]);
  for (const name of names) {
    const type = mediaTypes[extname(name)];
    if (type) assets.set(name, { body: await readFile(join(directory, "assets", name)), type });
  }
  return { index, assets };
}

const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Purse dashboard not built</title></head>
<body><main><h1>The dashboard has not been built</h1>
<p>This Purse serves its API, but the dashboard's files are missing. Run <code>npm run build</code>
in the repository (it builds packages/dashboard/dist), then restart <code>purse serve</code>.</p>
</main></body></html>
`;

function secure(reply: FastifyReply): FastifyReply {
  return reply.header("content-security-policy", dashboardPolicy);
}

/**
 * The merchant dashboard at `/dashboard` (and `/dashboard/`): the static build of
 * packages/dashboard, read on the first request and kept in memory (about 100 kB). Hashed
 * assets are cached for a year; the page itself is revalidated, so a new build is picked up by
 * the next start. Without a build, a page that says how to make one (503), never a 500.
 */
export function registerDashboard(app: FastifyInstance, directory = builtDashboardDirectory()): void {
  let build: Promise<DashboardBuild | undefined> | undefined;
  const load = () => (build ??= directory ? readBuild(directory) : Promise.resolve(undefined));
  const hide = { schema: { hide: true } };

  app.get(dashboardPath, hide, async (_request, reply) => {
    const found = await load();
    secure(reply).type("text/html; charset=utf-8").header("cache-control", "no-cache");
    if (!found) return reply.code(503).header("cache-control", "no-store").send(notBuilt);
    return reply.send(found.index);
  });

  app.get<{ Params: { file: string } }>(`${dashboardPath}/assets/:file`, hide, async (request, reply) => {
    const asset = (await load())?.assets.get(request.params.file);
    secure(reply);
    if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    return reply
      .type(asset.type)
      .header("cache-control", "public, max-age=31536000, immutable")
      .send(asset.body);
  });
}
