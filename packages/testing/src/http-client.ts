/**
 * The one way tests talk to a running Purse over HTTP, whatever started it: the REST door alone
 * (packages/rest's harness) or the whole `purse serve` stack (test/support/test-server.ts).
 * Plain `fetch`, so the engine's testing kit stays framework-free.
 */

export interface CallOptions {
  token?: string;
  /**
   * A string is sent as-is, a form (URLSearchParams, FormData) as fetch encodes it, anything else
   * as JSON. The content type is JSON unless the headers name another or the body is a form.
   */
  body?: unknown;
  headers?: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: by default a test reads the answer field by field
export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  /** The JSON answer parsed; a body that is not JSON (the docs page) as its text; empty as null. */
  body: T;
}

// biome-ignore lint/suspicious/noExplicitAny: see CallResult
export type Call = <T = any>(method: string, path: string, options?: CallOptions) => Promise<CallResult<T>>;

export interface HttpClient {
  readonly call: Call;
  /** A bearer token for a fixture client (secret defaults to `<client>-secret`). */
  token(clientId: string, secret?: string): Promise<string>;
}

/** JSON over HTTP against `baseUrl`: status, headers and the parsed body back. */
export function callerFor(baseUrl: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`;
    let body: string | URLSearchParams | FormData | undefined;
    if (options.body instanceof URLSearchParams || options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text === "" ? null : text;
    try {
      if (text !== "") parsed = JSON.parse(text);
    } catch {
      // Not JSON (the reference page, a metrics scrape): keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed as never };
  };
}

export function httpClient(baseUrl: string): HttpClient {
  const call = callerFor(baseUrl);
  return {
    call,
    async token(clientId, secret = `${clientId}-secret`) {
      const response = await call<{ access_token: string }>("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope: "api" },
      });
      if (response.status !== 200)
        throw new Error(`no token for ${clientId}: ${JSON.stringify(response.body)}`);
      return response.body.access_token;
    },
  };
}
