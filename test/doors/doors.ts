import { TRPCClientError } from "@trpc/client";
import type { TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

export type Outcome = { ok: true; id: number; replayed?: boolean } | { ok: false; message: string };

export interface TransferRequest {
  walletFrom: string;
  walletTo: string;
  amount: string;
  paymentId?: string;
}

/** One way into Purse: the same operations through REST, GraphQL or tRPC. */
export interface Door {
  readonly name: string;
  transfer(token: string, request: TransferRequest): Promise<Outcome>;
  activateVoucher(token: string, voucherNumber: string, code: string, walletTo: string): Promise<Outcome>;
  showTransaction(token: string, id: number): Promise<Outcome>;
}

export function restDoor(api: TestServer): Door {
  const outcome = (
    response: { status: number; body: { data?: { id?: number }; message?: string } },
    id?: number,
  ) =>
    response.status === 200
      ? ({ ok: true, id: id ?? response.body.data?.id ?? 0 } as const)
      : ({ ok: false, message: response.body.message ?? "" } as const);
  return {
    name: "REST",
    async transfer(token, r) {
      const response = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: r.walletFrom, wallet_to: r.walletTo, amount: r.amount, payment_id: r.paymentId },
      });
      return outcome(response);
    },
    async activateVoucher(token, voucherNumber, code, walletTo) {
      const response = await api.call("POST", "/api/vouchers/activation/confirm", {
        token,
        body: { voucher_number: voucherNumber, voucher_code: code, wallet_to: walletTo },
      });
      return outcome(response, 0);
    },
    async showTransaction(token, id) {
      return outcome(await api.call("GET", `/api/transaction/show?id=${id}`, { token }));
    },
  };
}

export function graphqlDoor(api: TestServer): Door {
  const run = async (token: string, query: string, variables: Record<string, unknown>) => {
    const response = await api.call("POST", "/graphql", { token, body: { query, variables } });
    return response.body as {
      data?: Record<
        string,
        { __typename?: string; message?: string; data?: { id?: number; transactionId?: number } } & {
          id?: number;
        }
      >;
      errors?: { message: string }[];
    };
  };
  const union = (result: Awaited<ReturnType<typeof run>>, field: string): Outcome => {
    const value = result.data?.[field];
    if (!value) return { ok: false, message: result.errors?.[0]?.message ?? "no data" };
    if (value.__typename === "PurseError") return { ok: false, message: value.message ?? "" };
    return { ok: true, id: value.data?.id ?? value.data?.transactionId ?? 0 };
  };
  return {
    name: "GraphQL",
    async transfer(token, r) {
      const result = await run(
        token,
        `mutation($input: TransferInput!) { transfer(input: $input) {
          __typename ... on PurseError { message code } ... on MutationTransferSuccess { data { id replayed } } } }`,
        {
          input: { walletFrom: r.walletFrom, walletTo: r.walletTo, amount: r.amount, paymentId: r.paymentId },
        },
      );
      return union(result, "transfer");
    },
    async activateVoucher(token, voucherNumber, code, walletTo) {
      const result = await run(
        token,
        `mutation($input: VoucherActivationInput!) { activateVoucher(input: $input) {
          __typename ... on PurseError { message } ... on MutationActivateVoucherSuccess { data { transactionId } } } }`,
        { input: { voucherNumber, voucherCode: code, walletTo } },
      );
      const outcome = union(result, "activateVoucher");
      return outcome.ok ? { ok: true, id: 0 } : outcome;
    },
    async showTransaction(token, id) {
      const result = await run(token, "query($id: Int) { transaction(id: $id) { id } }", { id });
      const found = result.data?.["transaction"];
      return found?.id
        ? { ok: true, id: found.id }
        : { ok: false, message: result.errors?.[0]?.message ?? "no data" };
    },
  };
}

export function trpcDoor(api: TestServer): Door {
  const client = (token: string) => trpcClient(api.url, token);
  const attempt = async (work: () => Promise<Outcome>): Promise<Outcome> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof TRPCClientError) return { ok: false, message: error.message };
      throw error;
    }
  };
  return {
    name: "tRPC",
    transfer: (token, r) =>
      attempt(async () => {
        const result = await client(token).transfer.mutate(r);
        return { ok: true, id: result.id, replayed: result.replayed };
      }),
    activateVoucher: (token, voucherNumber, voucherCode, walletTo) =>
      attempt(async () => {
        await client(token).activateVoucher.mutate({ voucherNumber, voucherCode, walletTo });
        return { ok: true, id: 0 };
      }),
    showTransaction: (token, id) =>
      attempt(async () => ({ ok: true, id: (await client(token).transaction.query({ id })).id })),
  };
}
