import ipaddr from "ipaddr.js";
import { z } from "zod";

/** proxy-addr's names for whole ranges, as fastify's `trustProxy` accepts them. */
const namedRanges = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  const address = entry.split("/")[0] ?? "";
  // Only the four-part IPv4 form: ipaddr.js takes "1" as 0.0.0.1 and "127.1" as 127.0.0.1, and
  // "1" is more likely a hop count ("trust one proxy") than an address.
  if (!address.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(address)) return namedRanges.has(entry);
  return ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry);
}

/**
 * PURSE_TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as a comma-separated list of
 * addresses, CIDR ranges or the names loopback, linklocal, uniquelocal. Unset: trust nobody and
 * rate-limit by the socket's address (a client cannot choose its own address with a header).
 */
export const trustProxySetting = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
  )
  .refine((entries) => entries.length > 0 && entries.every(isAddressOrRange), {
    message:
      "must be a comma-separated list of proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal)",
  });
