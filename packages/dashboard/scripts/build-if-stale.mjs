// `npm start` runs this before `purse serve`: the dashboard is served from its build
// (packages/dashboard/dist), so a fresh `npm install && npm start` builds it once here (a few
// seconds), and again only when a source is newer than the build. Never stops the start: without
// Vite (a production install without dev dependencies) or on a failed build, /dashboard answers a
// page that says how to build it, and the API is served all the same.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = new URL("../dist/index.html", import.meta.url);

function modified(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSource() {
  let newest = Math.max(modified(`${root}/index.html`), modified(`${root}/vite.config.ts`));
  for (const entry of readdirSync(`${root}/src`, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, modified(`${entry.parentPath}/${entry.name}`));
  }
  return newest;
}

const builtAt = modified(built);
if (builtAt === 0 || builtAt < newestSource()) {
  let vite;
  try {
    vite = await import("vite");
  } catch {
    console.warn("purse: the dashboard is not built and Vite is not installed; run `npm run build`.");
  }
  if (vite) {
    console.log("purse: building the dashboard (packages/dashboard/dist)…");
    try {
      await vite.build({ root, logLevel: "warn" });
    } catch (error) {
      console.warn(`purse: the dashboard did not build (${error.message}); /dashboard says how to build it.`);
    }
  }
}
