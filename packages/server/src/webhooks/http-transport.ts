import { lookup } from "node:dns/promises";
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress, type WebhookTransport } from "@purse/engine";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Host name to addresses; the system resolver unless a test injects one. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export interface HttpTransportOptions {
  /** PURSE_WEBHOOK_ALLOW_PRIVATE: deliver to loopback and private addresses too. */
  readonly allowPrivate: boolean;
  readonly timeoutMs?: number;
  readonly resolve?: Resolver;
}

/**
 * POSTs webhooks with a timeout, without following redirects, and, unless allowed, only to
 * public addresses. The host is resolved once; every answer is checked, and the connection goes
 * to the checked address (a custom `lookup`), so a second DNS answer (rebinding) is never used.
 */
export function httpTransport(options: HttpTransportOptions): WebhookTransport {
  const resolve = options.resolve ?? systemResolver;
  return {
    async post(url, headers, body, signal, answer) {
      const target = new URL(url);
      if (target.protocol !== "https:" && target.protocol !== "http:") {
        throw new Error(`refused: ${target.protocol} is not http or https`);
      }
      const address = await checkedAddress(target.hostname, resolve, options.allowPrivate);
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
      return send(
        target,
        address,
        { headers, body, answer },
        signal ? AbortSignal.any([timeout, signal]) : timeout,
      );
    },
  };
}

async function checkedAddress(
  hostname: string,
  resolve: Resolver,
  allowPrivate: boolean,
): Promise<ResolvedAddress> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const family = isIP(host);
  const answers: readonly ResolvedAddress[] =
    family === 4 || family === 6 ? [{ address: host, family }] : await resolve(host);
  const first = answers[0];
  if (!first) throw new Error(`refused: ${hostname} has no address`);
  if (!allowPrivate) {
    const refused = answers.find((answer) => !isPublicAddress(answer.address));
    if (refused) {
      throw new Error(
        `refused: ${hostname} resolves to the private address ${refused.address} (PURSE_WEBHOOK_ALLOW_PRIVATE is off)`,
      );
    }
  }
  return first;
}

/** The answer's bytes the delivery log keeps. */
const answerBytes = 1024;

function send(
  target: URL,
  address: ResolvedAddress,
  {
    headers,
    body,
    answer,
  }: { headers: Record<string, string>; body: string; answer?: ((text: string) => void) | undefined },
  signal: AbortSignal,
): Promise<number> {
  // Node asks the lookup for one address or (autoSelectFamily) all of them: either way, only ours.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const requestOptions: RequestOptions = {
    method: "POST",
    hostname: target.hostname.replace(/^\[|\]$/g, ""),
    port: target.port || undefined,
    path: `${target.pathname}${target.search}`,
    headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    lookup: pinned,
    signal,
  };
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<number>((resolvePromise, reject) => {
    const outgoing = request(requestOptions, (response) => {
      const status = response.statusCode ?? 0;
      if (!answer) {
        // Only the status matters; the body is drained and dropped.
        response.resume();
        resolvePromise(status);
        return;
      }
      // The first 1 KiB is kept (the delivery log); the rest is drained and dropped. A body that
      // ends early, breaks or is cut by the timeout still answers the status with what came.
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        answer(Buffer.concat(chunks).subarray(0, answerBytes).toString("utf8"));
        response.resume();
        resolvePromise(status);
      };
      response.on("data", (chunk: Buffer) => {
        if (size < answerBytes) chunks.push(chunk);
        size += chunk.length;
        if (size >= answerBytes) finish();
      });
      response.on("end", finish);
      response.on("close", finish);
      response.on("error", finish);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
