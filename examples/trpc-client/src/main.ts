/** The browser page: connect with a token, list wallets and transactions, show new ones live. */
import { TRPCClientError } from "@trpc/client";
import type { TransactionNode, TransactionUpdate } from "purse-client";
import { createPurse } from "./purse.ts";

const form = document.querySelector<HTMLFormElement>("#connect");
const status = document.querySelector<HTMLElement>("#status");
const walletList = document.querySelector<HTMLUListElement>("#wallets");
const transactionList = document.querySelector<HTMLUListElement>("#transactions");
let stop: (() => void) | undefined;

function item(text: string): HTMLLIElement {
  const line = document.createElement("li");
  line.textContent = text; // text, never HTML: nothing from the server is parsed as markup
  return line;
}

function describe(node: TransactionNode): string {
  const route = `from ${node.walletFrom ?? "-"} to ${node.walletTo ?? "-"}`;
  return `#${node.id} ${node.type} ${node.status}: ${node.amount} ${node.currency} ${route}`;
}

function describeUpdate(update: TransactionUpdate): string {
  return `#${update.transactionId} ${update.type} ${update.status} at ${update.at}`;
}

function show(text: string): void {
  if (status) status.textContent = text;
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const fields = new FormData(form);
  const purse = createPurse({ baseUrl: String(fields.get("url")), token: String(fields.get("token")) });
  stop?.();
  try {
    const wallets = await purse.wallets.query();
    walletList?.replaceChildren(...wallets.map((w) => item(`${w.number}: ${w.amount} ${w.currency.code}`)));
    const page = await purse.transactions.query({ first: 20 });
    transactionList?.replaceChildren(...page.nodes.map((node) => item(describe(node))));
    const subscription = purse.transactionUpdated.subscribe(undefined, {
      onData: (update) => transactionList?.prepend(item(describeUpdate(update))),
      onError: (error) => show(`Live updates stopped: ${error.message}`),
    });
    stop = () => subscription.unsubscribe();
    show("Connected; new transactions appear live.");
  } catch (error) {
    // Refusals carry the specification's message and Purse's stable code.
    if (error instanceof TRPCClientError) show(`${error.message} (${error.data?.purseCode ?? "?"})`);
    else show(String(error));
  }
});
