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
export function exportQuery(filter: Filter, testMode = false): string {
  const params = new URLSearchParams();
  // A plain download carries no header: the switch rides in the query (honoured with the session only).
  if (testMode) params.set("mode", "test");
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
      <FilterSelect
        field="wallet"
        name="Wallet"
        all="All wallets"
        value={draft.wallet}
        onChange={set("wallet")}
        options={wallets.map((wallet) => [wallet.number, `${wallet.number} (${wallet.currency.code})`])}
      />
      <FilterSelect
        field="type"
        name="Type"
        all="All types"
        value={draft.type}
        onChange={set("type")}
        options={transactionTypes.map((type) => [type, label(type)])}
      />
      <FilterSelect
        field="status"
        name="Status"
        all="All statuses"
        value={draft.status}
        onChange={set("status")}
        options={transactionStatuses.map((status) => [status, label(status)])}
      />
      <AmountInput field="minAmount" name="Min amount" value={draft.minAmount} onInput={set("minAmount")} />
      <AmountInput field="maxAmount" name="Max amount" value={draft.maxAmount} onInput={set("maxAmount")} />
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

/** A filter's choice among `options` ([value, text] pairs), or all of them (the empty value). */
function FilterSelect({
  field,
  name,
  all,
  value,
  onChange,
  options,
}: {
  field: keyof Filter;
  name: string;
  all: string;
  value: string;
  onChange(event: Event): void;
  options: readonly (readonly [string, string])[];
}) {
  const id = `filter-${field}`;
  return (
    <div class="field">
      <label htmlFor={id}>{name}</label>
      <select id={id} name={field} value={value} onChange={onChange}>
        <option value="">{all}</option>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An amount bound as the merchant types it (a decimal string, checked before it is applied). */
function AmountInput({
  field,
  name,
  value,
  onInput,
}: {
  field: keyof Filter;
  name: string;
  value: string;
  onInput(event: Event): void;
}) {
  return (
    <label>
      {name}
      <input name={field} inputMode="decimal" autoComplete="off" value={value} onInput={onInput} />
    </label>
  );
}
