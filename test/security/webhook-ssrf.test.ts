import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { httpTransport, isPublicAddress, type ResolvedAddress } from "@purse/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 9 item 6: the webhook transport resolves a host once, checks every answer, and connects
 * to the address it checked. Real HTTP servers on two loopback addresses stand for "the address
 * that was checked" and "where a second DNS answer points".
 */
interface Listener {
  readonly server: Server;
  readonly hits: string[];
}

function listen(host: string, port = 0): Promise<Listener> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.socket.localAddress} ${request.headers.host} ${request.url}`);
    response.writeHead(204).end();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve({ server, hits }));
  });
}

/** Answers each lookup with the next list in turn (the last one repeats), counting the calls. */
function rebindingResolver(...answers: string[][]) {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? [];
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolve, calls };
}

let checked: Listener;
let rebound: Listener;
let port: number;
beforeAll(async () => {
  checked = await listen("127.0.0.1");
  port = (checked.server.address() as AddressInfo).port;
  // Same port on another loopback address: where a rebinding second answer would lead.
  rebound = await listen("127.0.0.2", port);
});
afterAll(async () => {
  await new Promise((resolve) => checked.server.close(resolve));
  await new Promise((resolve) => rebound.server.close(resolve));
});

describe("webhook transport and DNS", () => {
  it("connects to the address it resolved and checked, never to a second answer", async () => {
    const dns = rebindingResolver(["127.0.0.1"], ["127.0.0.2"]);
    const transport = httpTransport({ allowPrivate: true, resolve: dns.resolve, timeoutMs: 2_000 });
    const status = await transport.post(`http://hooks.example:${port}/first`, {}, "{}");
    expect(status).toBe(204);
    expect(dns.calls).toEqual(["hooks.example"]);
    expect(checked.hits).toEqual([`127.0.0.1 hooks.example:${port} /first`]);
    expect(rebound.hits).toEqual([]);
  });

  it("with a public first answer and a private second one, never reaches the private address", async () => {
    const dns = rebindingResolver(["93.184.215.14"], ["127.0.0.1"]);
    const transport = httpTransport({ allowPrivate: false, resolve: dns.resolve, timeoutMs: 300 });
    // The public address is not reachable from here: the delivery fails, but it went there.
    await expect(transport.post(`http://rebind.example:${port}/second`, {}, "{}")).rejects.toThrow();
    expect(dns.calls).toEqual(["rebind.example"]);
    expect(checked.hits.filter((hit) => hit.includes("/second"))).toEqual([]);
  });

  it("refuses a private answer unless PURSE_WEBHOOK_ALLOW_PRIVATE is on", async () => {
    const dns = rebindingResolver(["93.184.215.14", "127.0.0.1"]);
    const guarded = httpTransport({ allowPrivate: false, resolve: dns.resolve });
    await expect(guarded.post(`http://mixed.example:${port}/third`, {}, "{}")).rejects.toThrow(
      /private address 127\.0\.0\.1/,
    );
    const local = rebindingResolver(["127.0.0.1"]);
    const allowed = httpTransport({ allowPrivate: true, resolve: local.resolve });
    expect(await allowed.post(`http://local.example:${port}/third`, {}, "{}")).toBe(204);
    expect(checked.hits.filter((hit) => hit.includes("/third"))).toEqual([
      `127.0.0.1 local.example:${port} /third`,
    ]);
  });

  it("refuses private address literals, IPv4 hidden in IPv6 included, and anything but http(s)", async () => {
    const guarded = httpTransport({ allowPrivate: false, resolve: rebindingResolver([]).resolve });
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[64:ff9b::7f00:1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
      `http://[2001::1]:${port}/`,
      `http://[fec0::1]:${port}/`,
      "http://192.0.2.10/",
      "http://[2001:db8::1]/",
    ]) {
      await expect(guarded.post(url, {}, "{}"), url).rejects.toThrow(/refused/);
    }
    await expect(guarded.post("file:///etc/passwd", {}, "{}")).rejects.toThrow(/not http/);
    await expect(guarded.post("gopher://example.com/", {}, "{}")).rejects.toThrow(/not http/);
    expect(checked.hits.filter((hit) => hit.endsWith(" /"))).toEqual([]);
  });
});

describe("address classification", () => {
  it.each([
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["64:ff9b::808:808", true],
    ["2002:808:808::1", true],
    ["10.1.2.3", false],
    ["100.64.0.1", false],
    ["169.254.169.254", false],
    ["192.0.2.1", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["198.18.0.1", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["0.0.0.0", false],
    ["::", false],
    ["::1", false],
    ["fc00::1", false],
    ["fe80::1", false],
    ["fec0::1", false],
    ["ff02::1", false],
    ["2001:db8::1", false],
    ["2001::1", false],
    ["::ffff:10.0.0.1", false],
    ["64:ff9b::a00:1", false],
    ["64:ff9b:1::808:808", false],
    ["2002:a00:1::", false],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
