import { useContext, useState } from "preact/hooks";
import { RequestFailed, request, SessionEnded } from "../api/client.ts";
import { statementQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { SessionContext } from "../api/use-query.ts";
import { daysBefore, displayAmount } from "../format/amount.ts";
import type { Wallet } from "./balances.tsx";
import { WalletPicker } from "./wallet-picker.tsx";

type StatementResult = ResultOf<typeof statementQuery>["statement"];
type StatementData = Extract<StatementResult, { __typename: "QueryStatementSuccess" }>["data"];

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A wallet's statement for a period: opening balance + money in − money out = closing balance. */
export function Statement({ wallets }: { wallets: readonly Wallet[] }) {
  const session = useContext(SessionContext);
  const today = new Date();
  const [wallet, setWallet] = useState("");
  const [from, setFrom] = useState(() => `${daysBefore(today, 0).slice(0, 8)}01`);
  const [to, setTo] = useState(() => daysBefore(today, 0));
  const [result, setResult] = useState<StatementData>();
  // The days asked for, both inclusive (the API's `to` is the exclusive instant after the last day).
  const [period, setPeriod] = useState("");
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const chosen = wallet || wallets[0]?.number || "";

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!chosen) return setProblem("There is no wallet to show.");
    if (!datePattern.test(from) || (to && !datePattern.test(to)))
      return setProblem("From and To must be dates (YYYY-MM-DD).");
    if (to && from > to) return setProblem("From must not be after To.");
    setProblem(undefined);
    setBusy(true);
    try {
      const answer = await request(statementQuery, { wallet: chosen, from, to: to || null });
      if (answer.statement.__typename === "PurseError") {
        setResult(undefined);
        setProblem(answer.statement.message);
      } else {
        setResult(answer.statement.data);
        setPeriod(`${from} to ${to || "now"}`);
      }
    } catch (error) {
      if (error instanceof SessionEnded) return session.ended();
      setProblem(error instanceof RequestFailed ? error.message : "Something went wrong. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="statement-title">
      <h2 id="statement-title">Statement</h2>
      <form class="filters statement-form" onSubmit={submit} aria-label="Statement period" noValidate>
        <WalletPicker
          id="statement-wallet"
          label="Statement for"
          wallets={wallets}
          value={chosen}
          onChange={setWallet}
          fieldClass="statement-wallet"
        />
        <label>
          Start date
          <input type="date" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label>
          End date
          <input type="date" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </label>
        <div class="filter-actions">
          <button type="submit" disabled={busy}>
            Show statement
          </button>
        </div>
        {problem ? (
          <p class="form-error" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
      {result ? (
        <dl class="statement" aria-label={`Statement of ${result.wallet}`}>
          <div>
            <dt>Period (UTC, inclusive)</dt>
            <dd>{period}</dd>
          </div>
          <div>
            <dt>Opening balance</dt>
            <dd class="num">{displayAmount(result.openingBalance, result.currency)}</dd>
          </div>
          <div>
            <dt>Money in</dt>
            <dd class="num">{displayAmount(result.totalIn, result.currency)}</dd>
          </div>
          <div>
            <dt>Money out</dt>
            <dd class="num">{displayAmount(result.totalOut, result.currency)}</dd>
          </div>
          <div>
            <dt>Closing balance</dt>
            <dd class="num">{displayAmount(result.closingBalance, result.currency)}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
