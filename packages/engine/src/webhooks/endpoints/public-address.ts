import ipaddr from "ipaddr.js";

/**
 * Whether a webhook may be delivered to this address with PURSE_WEBHOOK_ALLOW_PRIVATE off: only
 * ordinary public unicast, as ipaddr.js classifies ranges (loopback, private, link-local, CGNAT,
 * documentation, benchmarking, multicast, site-local fec0::/10, Teredo, ... are all refused).
 * IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4
 * 2002::/16) are judged by that IPv4 address.
 */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.range() === "unicast";
  return v6.range() === "unicast";
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const parts = address.parts;
  if (range === "ipv4Mapped") return address.toIPv4Address();
  // RFC 6052 well-known prefix 64:ff9b::/96: the last 32 bits (the local-use /48 is refused).
  if (range === "rfc6052" && parts[2] === 0) return fromWords(parts[6], parts[7]);
  // RFC 3056 6to4: 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
  if (range === "6to4") return fromWords(parts[1], parts[2]);
  return null;
}

function fromWords(high: number | undefined, low: number | undefined): ipaddr.IPv4 | null {
  if (high === undefined || low === undefined) return null;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
