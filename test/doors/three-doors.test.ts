import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { type Door, graphqlDoor, type Outcome, restDoor, trpcDoor } from "./doors.ts";

/**
 * One behaviour, three doors: the same scenario table runs through REST, GraphQL and tRPC, each
 * on its own fresh copy of the same world, and must give the same outcomes and the same ledger.
 */
const scenarios: { name: string; run: (door: Door, tokens: Record<string, string>) => Promise<unknown> }[] = [
  {
    name: "a transfer succeeds",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "10.00",
        }),
      ),
  },
  {
    name: "below the minimum",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "0.50",
        }),
      ),
  },
  {
    name: "above the maximum",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "10000.01",
        }),
      ),
  },
  {
    name: "not enough funds after commission",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "9000.00",
        }),
      ),
  },
  {
    name: "currencies differ",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "E100000021",
          amount: "5.00",
        }),
      ),
  },
  {
    name: "someone else's wallet as sender",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000020",
          walletTo: "U100000030",
          amount: "5.00",
        }),
      ),
  },
  {
    name: "receiver over its amountLimit",
    run: async (door, t) =>
      pick(
        await door.transfer(t["acme"] ?? "", {
          walletFrom: "U100000010",
          walletTo: "U100000030",
          amount: "1930.00",
        }),
      ),
  },
  {
    name: "an idempotent replay returns the first transaction",
    run: async (door, t) => {
      const request = {
        walletFrom: "U100000020",
        walletTo: "U100000010",
        amount: "4.00",
        paymentId: "door-replay",
      };
      const first = await door.transfer(t["bolt"] ?? "", request);
      const second = await door.transfer(t["bolt"] ?? "", request);
      const conflict = await door.transfer(t["bolt"] ?? "", { ...request, amount: "5.00" });
      return [first.ok && second.ok && first.id === second.id, pick(conflict)];
    },
  },
  {
    name: "a voucher activates once",
    run: async (door, t) => [
      pick(await door.activateVoucher(t["acme"] ?? "", "V-0001", "1111-2222-3333", "U100000010")),
      pick(await door.activateVoucher(t["acme"] ?? "", "V-0001", "1111-2222-3333", "U100000010")),
      pick(await door.activateVoucher(t["acme"] ?? "", "V-0002", "4444-5555-6666", "U100000010")),
    ],
  },
  {
    name: "nobody sees another user's transaction",
    run: async (door, t) => {
      const made = await door.transfer(t["bolt"] ?? "", {
        walletFrom: "U100000020",
        walletTo: "U100000010",
        amount: "2.00",
      });
      if (!made.ok) return made;
      return [
        pick(await door.showTransaction(t["acme"] ?? "", made.id)),
        pick(await door.showTransaction(t["cafe"] ?? "", made.id)),
      ];
    },
  },
];

/** What must match across doors: success or the spec's message (ids differ by design). */
function pick(outcome: Outcome): string {
  return outcome.ok ? "ok" : outcome.message;
}

interface DoorRun {
  outcomes: unknown[];
  balances: Record<string, number>;
}

async function runDoor(make: (api: TestServer) => Door): Promise<DoorRun> {
  const api = await startTestServer();
  try {
    const door = make(api);
    const tokens = {
      acme: await api.token("acme"),
      bolt: await api.token("bolt"),
      cafe: await api.token("cafe"),
    };
    const outcomes: unknown[] = [];
    for (const scenario of scenarios) outcomes.push(await scenario.run(door, tokens));
    const balances: Record<string, number> = {};
    for (const owner of ["acme", "bolt", "cafe"] as const) {
      const wallets = await api.call("GET", "/api/wallets", { token: tokens[owner] });
      for (const wallet of wallets.body.data) balances[wallet.number] = wallet.amount;
    }
    return { outcomes, balances };
  } finally {
    await api.close();
  }
}

describe("one behaviour, three doors", () => {
  const runs: Record<string, DoorRun> = {};
  beforeAll(async () => {
    [runs["REST"], runs["GraphQL"], runs["tRPC"]] = await Promise.all([
      runDoor(restDoor),
      runDoor(graphqlDoor),
      runDoor(trpcDoor),
    ]);
  }, 120_000);
  afterAll(() => undefined);

  it("REST gives the expected outcomes", () => {
    expect(runs["REST"]?.outcomes).toEqual([
      "ok",
      "Minimum amount exceeded 1.00 for USD",
      "Maximum amount exceeded 10000.00 for USD",
      "balance - amount - commission < 0",
      "Currencies are not equals",
      "Wallet from not exists",
      "Maximum amount exceeded 2000.00 for USD",
      [true, "Order id is not unique"],
      ["ok", "Voucher closed", "Voucher invalid"],
      ["ok", "Not found"],
    ]);
  });

  it.each(["GraphQL", "tRPC"])("%s gives the same outcomes as REST", (name) => {
    expect(runs[name]?.outcomes).toEqual(runs["REST"]?.outcomes);
  });

  it.each(["GraphQL", "tRPC"])("%s leaves the same ledger as REST", (name) => {
    expect(runs[name]?.balances).toEqual(runs["REST"]?.balances);
  });
});
