import { createContext } from "preact";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { RequestFailed, SessionEnded } from "./client.ts";

/** What a screen does when the server refuses the session: back to the sign-in screen. */
export const SessionContext = createContext<{ ended(): void }>({ ended: () => undefined });

export interface QueryState<Data> {
  readonly data: Data | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
}

/**
 * Runs `load` whenever `keys` change, cancelling the previous run. The last data stays on screen
 * while a refresh runs (a live update must not blank the table); a refused session leaves the
 * screen through SessionContext, any other failure becomes the API's message.
 */
export function useQuery<Data>(
  load: (signal: AbortSignal) => Promise<Data>,
  keys: readonly unknown[],
): QueryState<Data> {
  const session = useContext(SessionContext);
  const [state, setState] = useState<QueryState<Data>>({ data: undefined, error: undefined, loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  // The caller names what the load depends on (`keys`); the latest `load` is read through a ref.
  useEffect(() => {
    const abort = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current(abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        if (error instanceof SessionEnded) return session.ended();
        const message = error instanceof RequestFailed ? error.message : "Something went wrong. Try again.";
        setState((previous) => ({ data: previous.data, error: message, loading: false }));
      },
    );
    return () => abort.abort();
  }, keys);
  return state;
}
