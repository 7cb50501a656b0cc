import { isIP } from "node:net";
import { PurseError } from "../../errors/index.ts";
import { optionalWebUrl } from "../../input/web-url.ts";
import { isPublicAddress } from "./public-address.ts";

export interface EndpointUrlRules {
  /** PURSE_WEBHOOK_ALLOW_PRIVATE: http and loopback/private hosts allowed for every endpoint. */
  readonly allowPrivate: boolean;
  /**
   * False for a test-mode endpoint, which may use http and loopback/private hosts (a developer's
   * own machine) without turning the SSRF defence off for live traffic. Test-mode credentials
   * come with the test-mode issue: until then every endpoint is live.
   */
  readonly livemode: boolean;
}

/**
 * An endpoint's URL (contract, "Webhook endpoints"): an absolute URL without credentials, at most
 * 2 048 characters, `https` to a public host unless the rules relax it. A host name is checked
 * again when each delivery resolves it (server/webhooks/http-transport.ts), so DNS cannot steer a
 * live delivery to a private address either.
 */
export function endpointUrl(value: string, rules: EndpointUrlRules): string {
  const relaxed = rules.allowPrivate || !rules.livemode;
  const url = optionalWebUrl(value, "url", { requireHttps: !relaxed });
  if (url === null) throw new PurseError("BLANK", "url");
  if (!relaxed && isPrivateHost(new URL(url).hostname)) throw new PurseError("INVALID_URL", "url");
  return url;
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host) !== 0) return !isPublicAddress(host);
  return host === "localhost" || host.endsWith(".localhost") || !host.includes(".");
}
