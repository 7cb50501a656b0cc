import { GraphQLError } from "graphql";
import { z } from "zod";

/**
 * Lengths of the text arguments that have no engine contract yet, checked before a resolver calls
 * the engine (operations with a contract take its bounds: `schema/contract-input.ts` and the
 * declared operations' arguments in `schema/declared-operations.ts`).
 */
export const bounded = {
  walletNumber: z.string().max(32),
  identifier: z.string().max(128),
  date: z.string().max(40),
  cursor: z.string().max(64),
  /** A login or password at sign-in (the engine refuses longer ones too, before any hash). */
  credential: z.string().max(255),
} as const;

interface Failure {
  readonly issues: ReadonlyArray<{
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }>;
}

/** A too-long argument: a 400 naming the argument, as GraphQL's own input errors do. */
export function inputRefused(failure: Failure): GraphQLError {
  const issue = failure.issues[0];
  const path = (issue?.path ?? [])
    .map((step) => String(typeof step === "object" ? step.key : step))
    .join(".");
  return new GraphQLError(`Argument "${path}": ${issue?.message ?? "invalid value"}`, {
    extensions: {
      code: "BAD_USER_INPUT",
      ...(path ? { field: path } : {}),
      http: { status: 400 },
    },
  });
}
