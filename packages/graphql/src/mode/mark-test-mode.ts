import type { Plugin } from "graphql-yoga";
import type { GraphQLContext } from "../context.ts";

/**
 * Every answer about test data says so (contract: "Test mode"): `extensions.livemode` is false on
 * a test token's answers and on the dashboard's with its test-mode switch on; live answers carry
 * no such extension, as before test mode.
 */
export function markTestMode(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue;
      if (!ctx.testMode && ctx.deps.db.mode !== "test") return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, livemode: false } });
        },
      };
    },
  };
}
