// Contract suites (they call vitest's describe/it at import), kept apart from index.ts because
// the root globalSetup imports index.ts outside a test file.
export * from "./rate-limiter-contract.ts";
export * from "./route-lock-contract.ts";
