import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import ErrorsPlugin from "@pothos/plugin-errors";
import ValidationPlugin from "@pothos/plugin-validation";
import type { GraphQLContext } from "./context.ts";
import { inputRefused } from "./limits/input-bounds.ts";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
}>({
  plugins: [ErrorsPlugin, ValidationPlugin, DataloaderPlugin],
  errors: { defaultTypes: [] },
  validation: { validationError: inputRefused },
  defaultFieldNullability: false,
});

builder.queryType({ description: "Dashboards read wallets, transactions and rates here." });
builder.mutationType({ description: "The same operations as the REST API, with typed errors." });
builder.subscriptionType({ description: "Live updates over Server-Sent Events." });
