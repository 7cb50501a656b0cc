import type { Plugin } from "graphql-yoga";
import type { GraphQLContext } from "../context.ts";

/**
 * Every answer about test data says so (contract: "Test mode"): `extensions.livemode` is false on
 * a test token's answers, on the dashboard's with its test-mode switch on, and on a public call's
 * into test data (a checkout into a test wallet); live answers carry
 * no such extension, as before test mode.
 */
export function markTestMode(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue;
      return {
        onExecuteDone({ result, setResult }) {
          // After the resolvers: a public call (a checkout into a test wallet) may have been test mode's.
          if (Symbol.asyncIterator in result || !ctx.aboutTestData()) return;
          setResult({ ...result, extensions: { ...result.extensions, livemode: false } });
        },
      };
    },
  };
}
