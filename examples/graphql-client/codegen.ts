/**
 * graphql-codegen's client preset for Purse, as a front end copies it. The generated code compiles
 * under `moduleResolution` NodeNext and Bundler with `verbatimModuleSyntax` and `erasableSyntaxOnly`:
 * import extensions (emitLegacyCommonJSImports: false gives `.js`, for a bundler or tsc's output;
 * this example runs its sources on Node's type stripping, so `.ts`), type-only imports, string
 * unions instead of TypeScript enums, documents as typed strings for plain fetch (no GraphQL client).
 *
 * The schema comes from a running Purse (introspection needs a token: PURSE_URL, PURSE_TOKEN), or
 * from a copy of its schema.graphql (PURSE_SCHEMA).
 */
import type { CodegenConfig } from "@graphql-codegen/cli";

const url = process.env["PURSE_URL"] ?? "http://localhost:3000";
const token = process.env["PURSE_TOKEN"];
const schemaFile = process.env["PURSE_SCHEMA"] ?? "../../packages/graphql/schema.graphql";

const config: CodegenConfig = {
  schema: token ? [{ [`${url}/graphql`]: { headers: { authorization: `Bearer ${token}` } } }] : schemaFile,
  documents: ["src/**/*.ts", "!src/gql/**"],
  emitLegacyCommonJSImports: false,
  importExtension: ".ts",
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: "string",
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: {},
      },
    },
  },
};

export default config;
