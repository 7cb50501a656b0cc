import { createServer, type Server } from "node:net";

/**
 * TCP ports of 127.0.0.1 that nothing listened on a moment ago: the kernel picks each (port 0) and
 * the probes let them go. Test files run in parallel workers, next to other jobs on the same
 * machine, so no test names a fixed port, not even one it expects to find closed (a Redis node that
 * is down): a port picked this way and left unbound is as closed as a fixed one, and no other job's
 * server sits on it.
 */
export async function freePorts(count: number): Promise<number[]> {
  // All probes are held open until every port is known, so the kernel never hands one out twice.
  const probes = await Promise.all(Array.from({ length: count }, listenOnAnyPort));
  const ports = probes.map((probe) => (probe.address() as { port: number }).port);
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

function listenOnAnyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => resolve(probe));
  });
}
