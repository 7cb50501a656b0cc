import { runOperation } from "@purse/engine";
import { GraphQLError } from "graphql";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";
import type { AnyObjectRef } from "./contract-object.ts";
import { authScopesOf, callerFor, callOf, type Published } from "./declared-access.ts";
import type { CursorPage } from "./operation-binding.ts";

type Values = Record<string, unknown>;
interface Edge {
  readonly cursor: string;
  readonly node: Values;
}
interface Connection extends Values {
  readonly edges: Edge[];
  readonly pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Relay's page info, one type for every connection. */
const PageInfo = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>("PageInfo").implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage"),
    endCursor: t.exposeString("endCursor", { nullable: true }),
  }),
});

/** An opaque cursor: the last node's id behind the page's prefix, so another page's cursor is refused. */
function encodeCursor(page: CursorPage, id: number): string {
  return Buffer.from(`${page.cursor}:${id}`).toString("base64url");
}

function decodeCursor(page: CursorPage, cursor: string | null | undefined): number | null {
  if (!cursor) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const id = text.startsWith(`${page.cursor}:`) ? text.slice(page.cursor.length + 1) : "";
  if (!/^\d+$/.test(id)) throw new GraphQLError("Invalid cursor", { extensions: { code: "BAD_USER_INPUT" } });
  return Number(id);
}

/** What the connection field is built from: the types the declaration's mounter derived. */
export interface ConnectionTypes {
  /** The node type (`nested.nodes`). */
  readonly node: AnyObjectRef;
  /** The input object of the filter fields. */
  readonly filter: ReturnType<typeof builder.inputType>;
  /** The output's other fields (`totals`), each a list of objects, by name. */
  readonly others: Readonly<Record<string, AnyObjectRef>>;
  /** The page size when the argument is left out (the contract's default). */
  readonly defaultSize: number;
}

/**
 * A keyset-paged read (a binding's `page`) as a query field answering a Relay-style connection:
 * `edges` (cursor and node), `pageInfo` and the output's other fields; arguments the page size,
 * `after` and `filter`. The size goes to the operation unchecked: it answers a size out of range
 * with its own refusal, as the hand-written field did.
 */
export function mountConnection(
  { operation, graphql }: Published,
  page: CursorPage,
  types: ConnectionTypes,
): void {
  const edge = builder.objectRef<Edge>(relayName(graphql.type, "Edge")).implement({
    fields: (t) => ({
      cursor: t.exposeString("cursor"),
      node: t.field({ type: types.node, resolve: (each) => each.node }),
    }),
  });
  const connection = builder.objectRef<Connection>(graphql.type).implement({
    fields: (t) => ({
      edges: t.field({ type: [edge], resolve: (each) => each.edges }),
      pageInfo: t.field({ type: PageInfo, resolve: (each) => each.pageInfo }),
      ...Object.fromEntries(
        Object.entries(types.others).map(([name, type]) => [
          name,
          t.field({ type: [type], resolve: (each) => each[name] as Values[] }),
        ]),
      ),
    }),
  });
  builder.queryField(graphql.field, (t) =>
    t.field({
      type: connection,
      description: operation.description,
      ...authScopesOf(operation),
      args: {
        [page.size]: t.arg.int({ defaultValue: types.defaultSize }),
        after: t.arg.string({ validate: bounded.cursor }),
        filter: t.arg({ type: types.filter }),
      },
      resolve: async (_root, args, ctx) => {
        const sent = args as { filter?: Values | null; after?: string | null } & Values;
        const input = {
          ...sent.filter,
          [page.size]: (sent[page.size] as number | null | undefined) ?? types.defaultSize,
          [page.after]: decodeCursor(page, sent.after),
        };
        const { deps, actor } = await callerFor(operation, ctx, input);
        const { nodes, hasNextPage, ...others } = (await runOperation(
          operation,
          deps,
          actor,
          input,
          callOf(ctx),
        )) as { nodes: (Values & { id: number })[]; hasNextPage: boolean };
        const edges = nodes.map((node) => ({ cursor: encodeCursor(page, node.id), node }));
        return { ...others, edges, pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
      },
    }),
  );
}

/**
 * A type named after a connection by Relay's convention: `TransactionConnection`'s edge is
 * `TransactionEdge`, its filter `TransactionFilter`.
 */
export function relayName(connection: string, suffix: "Edge" | "Filter"): string {
  if (!connection.endsWith("Connection"))
    throw new Error(`${connection}: a connection's type is named <Name>Connection`);
  return `${connection.slice(0, -"Connection".length)}${suffix}`;
}
