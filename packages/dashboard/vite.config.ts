import { defineConfig } from "vite";

// The dashboard is served by `purse serve` at BASE_URL/dashboard under a strict Content-Security-Policy
// (script-src 'self', style-src 'self', no 'unsafe-inline'): the build must hold no inline script or
// style, and load nothing from another origin.
export default defineConfig({
  base: "/dashboard/",
  // Preact's automatic JSX runtime, through Vite's own transform: no Babel plugin needed.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // `npm run dev`: the page from Vite, the API from a `purse serve` on port 3000 (same origin to the
  // browser, so the session cookie and its SameSite=Strict work as in production).
  server: {
    proxy: { "/graphql": "http://127.0.0.1:3000", "/api": "http://127.0.0.1:3000" },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Vite's module-preload polyfill is an inline script; every browser the dashboard supports
    // preloads modules natively.
    modulePreload: { polyfill: false },
    // Small assets (fonts, images) are files too: a data: URL would be fine for img-src, but
    // not for fonts or styles under this policy.
    assetsInlineLimit: 0,
    target: "es2022",
    sourcemap: false,
  },
});
