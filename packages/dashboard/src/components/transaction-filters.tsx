import { useState } from "preact/hooks";
import type { Wallet } from "./balances.tsx";

export const transactionTypes = ["TRANSFER", "DEPOSIT", "WITHDRAW"] as const;
export const transactionStatuses = ["SUCCESS", "PENDING", "FAIL", "CANCEL"] as const;

export interface Filter {
  readonly from: string;
  readonly until: string;
  readonly wallet: string;
  readonly type: "" | (typeof transactionTypes)[number];
  readonly status: "" | (typeof transactionStatuses)[number];
  readonly minAmount: string;
  readonly maxAmount: string;
}

export const noFilter: Filter = {
  from: "",
  until: "",
  wallet: "",
  type: "",
  status: "",
  minAmount: "",
  maxAmount: "",
};

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const amountPattern = /^\d{1,15}(\.\d{1,18})?$/;

/** What is wrong with a filter before it is sent, in words; the server checks again. */
export function filterProblem(filter: Filter): string | undefined {
  if (filter.from && !datePattern.test(filter.from)) return "From must be a date (YYYY-MM-DD).";
  if (filter.until && !datePattern.test(filter.until)) return "Until must be a date (YYYY-MM-DD).";
  // ISO dates compare as text.
  if (filter.from && filter.until && filter.from > filter.until) return "From must not be after Until.";
  if (filter.minAmount && !amountPattern.test(filter.minAmount))
    return "Min amount must be a decimal such as 10.50.";
  if (filter.maxAmount && !amountPattern.test(filter.maxAmount))
    return "Max amount must be a decimal such as 10.50.";
  return undefined;
}

/** The query string of GET /api/transactions/export, with the same filter as the table. */
export function exportQuery(filter: Filter): string {
  const params = new URLSearchParams();
  const fields = [
    ["from", filter.from],
    ["until", filter.until],
    ["wallet", filter.wallet],
    ["type", filter.type],
    ["status", filter.status],
    ["minAmount", filter.minAmount],
    ["maxAmount", filter.maxAmount],
  ] as const;
  for (const [name, value] of fields) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

const labels: Record<string, string> = {
  TRANSFER: "Transfer",
  DEPOSIT: "Deposit",
  WITHDRAW: "Withdrawal",
  SUCCESS: "Success",
  PENDING: "Pending",
  FAIL: "Failed",
  CANCEL: "Cancelled",
};

export function label(name: string): string {
  return labels[name] ?? name;
}

/** The filter form: nothing is queried until it is applied, and a bad value is named in it. */
export function TransactionFilters({
  wallets,
  applied,
  serverError,
  onApply,
}: {
  wallets: readonly Wallet[];
  applied: Filter;
  serverError: string | undefined;
  onApply(filter: Filter): void;
}) {
  const [draft, setDraft] = useState<Filter>(applied);
  const [problem, setProblem] = useState<string>();
  const set = (field: keyof Filter) => (event: Event) =>
    setDraft({ ...draft, [field]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const submit = (event: Event) => {
    event.preventDefault();
    const found = filterProblem(draft);
    setProblem(found);
    // A copy: applying the same filter again is a refresh, not a no-op.
    if (!found) onApply({ ...draft });
  };
  const clear = () => {
    setDraft(noFilter);
    setProblem(undefined);
    onApply(noFilter);
  };
  const shown = problem ?? serverError;
  return (
    <form class="filters" onSubmit={submit} aria-label="Filter transactions" noValidate>
      <label>
        From
        <input type="date" name="from" value={draft.from} onInput={set("from")} />
      </label>
      <label>
        Until
        <input type="date" name="until" value={draft.until} onInput={set("until")} />
      </label>
      <div class="field">
        <label htmlFor="filter-wallet">Wallet</label>
        <select id="filter-wallet" name="wallet" value={draft.wallet} onChange={set("wallet")}>
          <option value="">All wallets</option>
          {wallets.map((wallet) => (
            <option key={wallet.number} value={wallet.number}>
              {wallet.number} ({wallet.currency.code})
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label htmlFor="filter-type">Type</label>
        <select id="filter-type" name="type" value={draft.type} onChange={set("type")}>
          <option value="">All types</option>
          {transactionTypes.map((type) => (
            <option key={type} value={type}>
              {label(type)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" value={draft.status} onChange={set("status")}>
          <option value="">All statuses</option>
          {transactionStatuses.map((status) => (
            <option key={status} value={status}>
              {label(status)}
            </option>
          ))}
        </select>
      </div>
      <label>
        Min amount
        <input
          name="minAmount"
          inputMode="decimal"
          autoComplete="off"
          value={draft.minAmount}
          onInput={set("minAmount")}
        />
      </label>
      <label>
        Max amount
        <input
          name="maxAmount"
          inputMode="decimal"
          autoComplete="off"
          value={draft.maxAmount}
          onInput={set("maxAmount")}
        />
      </label>
      <div class="filter-actions">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={clear}>
          Clear
        </button>
      </div>
      {shown ? (
        <p class="form-error" role="alert">
          {shown}
        </p>
      ) : null}
    </form>
  );
}
