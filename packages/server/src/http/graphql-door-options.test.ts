import { describe, expect, it } from "vitest";
import { readConfig } from "../config/config.ts";
import { graphQLDoorOptions } from "./graphql-door-options.ts";

const secret = { PURSE_SECRET_KEY: "a-secret-key-of-at-least-32-characters!!" };

describe("the GraphQL door's options from the configuration", () => {
  it("opens the schema and GraphiQL on the embedded default", () => {
    expect(graphQLDoorOptions(readConfig({}))).toEqual({
      production: false,
      openIntrospection: true,
      graphiql: true,
    });
  });

  it("keeps introspection for authenticated callers and no GraphiQL with a DATABASE_URL", () => {
    const config = readConfig({ DATABASE_URL: "postgresql://127.0.0.1/purse" });
    expect(graphQLDoorOptions(config)).toEqual({
      production: false,
      openIntrospection: false,
      graphiql: false,
    });
  });

  it("turns everything off in production, embedded or not", () => {
    const config = readConfig({ NODE_ENV: "production", ...secret });
    expect(graphQLDoorOptions(config)).toEqual({
      production: true,
      openIntrospection: false,
      graphiql: false,
    });
  });
});
