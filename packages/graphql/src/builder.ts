import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import ErrorsPlugin from "@pothos/plugin-errors";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import { type AccessScope, holdsScope, PurseError } from "@purse/engine";
import type { GraphQLContext } from "./context.ts";
import { inputRefused } from "./limits/input-bounds.ts";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  AuthScopes: Record<AccessScope, boolean>;
}>({
  // Plugins wrap resolvers outermost first: the errors plugin turns a refused scope (SCOPE_MISSED)
  // into the field's PurseError result; arguments are validated before the caller is looked up,
  // so a too-long argument is a 400 whoever calls.
  plugins: [ErrorsPlugin, ValidationPlugin, ScopeAuthPlugin, DataloaderPlugin],
  errors: { defaultTypes: [] },
  validation: { validationError: inputRefused },
  scopeAuth: {
    // A subscription is refused when it starts, not at its first event.
    authorizeOnSubscribe: true,
    // Each scope looks the caller up once per request; no or a bad token rejects with the 401
    // (`ctx.actor()`), which the plugin lets through as the field's error, before any scope says no.
    authScopes: (ctx) => {
      const holds = (scope: AccessScope) => async () => holdsScope(await ctx.actor(), scope);
      return { user: holds("user"), merchant: holds("merchant"), operator: holds("operator") };
    },
    // A valid token without the scope: the spec's 403, as the use case would answer.
    unauthorizedError: () => new PurseError("SCOPE_MISSED"),
  },
  defaultFieldNullability: false,
});

builder.queryType({ description: "Dashboards read wallets, transactions and rates here." });
builder.mutationType({ description: "The same operations as the REST API, with typed errors." });
builder.subscriptionType({ description: "Live updates over Server-Sent Events." });
