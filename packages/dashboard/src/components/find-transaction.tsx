import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { RequestFailed, request, SessionEnded } from "../api/client.ts";
import { transactionQuery } from "../api/documents.ts";
import { SessionContext } from "../api/use-query.ts";
import { type Detail, TransactionDetail } from "./transaction-detail.tsx";

/** What to look up: set by the search box, or by a row's Details button. */
export interface Lookup {
  readonly text: string;
  /** Bumped by each ask, so asking again for the same transaction reads it again. */
  readonly asked: number;
}

const idPattern = /^\d{1,15}$/;

/**
 * Search by transaction id or order id (the checkout's or transfer's `id`, REST's external_id),
 * and the transaction's detail. A number is tried as a transaction id first, then as an order id
 * (an order id may be digits too); what is not found is said in words.
 */
export function FindTransaction({
  lookup,
  onLookup,
}: {
  lookup: Lookup | null;
  onLookup(text: string): void;
}) {
  const session = useContext(SessionContext);
  const [text, setText] = useState("");
  const [detail, setDetail] = useState<Detail>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!lookup) return;
    setText(lookup.text);
    const abort = new AbortController();
    setBusy(true);
    find(lookup.text, abort.signal)
      .then(
        (found) => {
          if (abort.signal.aborted) return;
          setDetail(found);
          setProblem(found ? undefined : `No transaction of yours has the id or order id “${lookup.text}”.`);
          heading.current?.scrollIntoView({ block: "start" });
          heading.current?.focus();
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          if (error instanceof SessionEnded) return session.ended();
          setDetail(undefined);
          setProblem(error instanceof RequestFailed ? error.message : "Something went wrong. Try again.");
        },
      )
      .finally(() => {
        if (!abort.signal.aborted) setBusy(false);
      });
    return () => abort.abort();
  }, [lookup, session]);

  const submit = (event: Event) => {
    event.preventDefault();
    const wanted = text.trim();
    if (wanted === "") return setProblem("Type a transaction id or an order id.");
    if (wanted.length > 64) return setProblem("An order id has at most 64 characters.");
    onLookup(wanted);
  };

  return (
    <section class="panel find" aria-labelledby="find-title">
      <h2 id="find-title" tabIndex={-1} ref={heading}>
        Find a transaction
      </h2>
      <form class="search" aria-label="Find a transaction" onSubmit={submit} noValidate>
        <label>
          Transaction id or order id
          <input
            type="search"
            value={text}
            maxLength={64}
            autoComplete="off"
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Find
        </button>
      </form>
      {problem ? (
        <p class="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {detail && !problem ? <TransactionDetail detail={detail} onLookup={onLookup} /> : null}
    </section>
  );
}

/** By id when it looks like one, then by order id; undefined when neither finds it. */
async function find(text: string, signal: AbortSignal): Promise<Detail | undefined> {
  const attempts =
    idPattern.test(text) && Number(text) > 0
      ? [{ id: Number(text) }, { externalId: text }]
      : [{ externalId: text }];
  for (const variables of attempts) {
    try {
      const answer = await request(transactionQuery, { id: null, externalId: null, ...variables }, signal);
      if (answer.transaction) return answer.transaction;
    } catch (error) {
      if (!(error instanceof RequestFailed) || error.code !== "NOT_FOUND") throw error;
    }
  }
  return undefined;
}
