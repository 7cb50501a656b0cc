import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { WebhookTransport } from "@purse/engine";

/** Loopback, private, link-local and other non-public ranges: webhooks there are refused (SSRF). */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::ffff:0:0", 96],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

export interface HttpTransportOptions {
  /** PURSE_WEBHOOK_ALLOW_PRIVATE: deliver to loopback and private addresses too. */
  readonly allowPrivate: boolean;
  readonly timeoutMs?: number;
}

/**
 * POSTs webhooks with a timeout, without following redirects, and, unless allowed, only to
 * public addresses: every address the host resolves to is checked before the request is made.
 */
export function httpTransport(options: HttpTransportOptions): WebhookTransport {
  return {
    async post(url, headers, body) {
      const target = new URL(url);
      if (target.protocol !== "https:" && target.protocol !== "http:") {
        throw new Error(`refused: ${target.protocol} is not http or https`);
      }
      if (!options.allowPrivate) await refusePrivate(target.hostname);
      const response = await fetch(target, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.body?.cancel();
      return response.status;
    },
  };
}

async function refusePrivate(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  for (const { address, family } of addresses) {
    if (privateRanges.check(address, family === 6 ? "ipv6" : "ipv4")) {
      throw new Error(
        `refused: ${hostname} resolves to the private address ${address} (PURSE_WEBHOOK_ALLOW_PRIVATE is off)`,
      );
    }
  }
}
