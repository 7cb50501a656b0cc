import { print } from "@0no-co/graphql.web";
import type { TadaDocumentNode } from "./graphql.ts";
import { liveAnswerMessage, modeHeaders, reportLiveAnswer, testModeRequests } from "./mode.ts";

/** The session cookie is missing, expired or revoked: the app shows its sign-in screen. */
export class SessionEnded extends Error {
  constructor() {
    super("Your session has ended. Sign in again.");
  }
}

/** A refusal the user can act on: the API's own message, never a stack trace. */
export class RequestFailed extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

interface GraphQLAnswer<Result> {
  data?: Result | null;
  extensions?: { livemode?: unknown };
  errors?: readonly { message?: unknown; extensions?: { code?: unknown } }[];
}

/**
 * Every request carries the session cookie (same origin) and the header the server requires of
 * cookie-authenticated requests (`x-purse-csrf: 1`): a cross-site page cannot add it without a
 * CORS preflight, which Purse never grants.
 */
export const sessionHeaders = { "x-purse-csrf": "1" } as const;

export const graphqlUrl = "/graphql";

export function request<Result, Variables>(
  document: TadaDocumentNode<Result, Variables>,
  variables: Variables,
  signal?: AbortSignal,
): Promise<Result> {
  return send<Result>(print(document), variables, signal);
}

/** One GraphQL request: the data, or SessionEnded / RequestFailed. */
async function send<Result>(query: string, variables: unknown, signal?: AbortSignal): Promise<Result> {
  // The mode is fixed when the request leaves: its answer is checked against the same mode.
  const testMode = testModeRequests();
  let response: Response;
  try {
    response = await fetch(graphqlUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        ...sessionHeaders,
        ...modeHeaders(testMode),
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
      },
      body: JSON.stringify({ query, variables }),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new RequestFailed("Purse cannot be reached. Check your connection and try again.");
  }
  const answer = await readAnswer<Result>(response);
  const codes = (answer?.errors ?? []).map((error) => error.extensions?.code);
  if (response.status === 401 || codes.includes("UNAUTHORIZED")) throw new SessionEnded();
  // A test-mode view shows test data only: an answer not marked `livemode: false` is refused whole.
  if (testMode && answer?.extensions?.livemode !== false) {
    reportLiveAnswer();
    throw new RequestFailed(liveAnswerMessage, "LIVE_ANSWER_IN_TEST_MODE");
  }
  const first = answer?.errors?.[0];
  if (first) {
    const code = typeof first.extensions?.code === "string" ? first.extensions.code : undefined;
    throw new RequestFailed(typeof first.message === "string" ? first.message : "Request refused.", code);
  }
  if (!answer?.data) throw new RequestFailed(`Purse answered HTTP ${response.status}. Try again.`);
  return answer.data;
}

async function readAnswer<Result>(response: Response): Promise<GraphQLAnswer<Result> | null> {
  try {
    return (await response.json()) as GraphQLAnswer<Result>;
  } catch {
    return null;
  }
}
