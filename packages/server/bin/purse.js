#!/usr/bin/env node
// Runs the TypeScript sources directly (Turborepo "just-in-time" packages): no build step to forget.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
