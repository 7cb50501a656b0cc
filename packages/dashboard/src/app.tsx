import { useContext, useEffect, useMemo, useState } from "preact/hooks";
import { RequestFailed, request, SessionEnded } from "./api/client.ts";
import { meQuery, walletsQuery } from "./api/documents.ts";
import { watchTransactions } from "./api/live.ts";
import { signOut as endSession } from "./api/session-documents.ts";
import { SessionContext, useQuery } from "./api/use-query.ts";
import { BalanceCharts } from "./components/balance-charts.tsx";
import { Balances } from "./components/balances.tsx";
import { CheckoutLinks } from "./components/checkouts.tsx";
import { Developers } from "./components/developers/developers.tsx";
import { FindTransaction, type Lookup } from "./components/find-transaction.tsx";
import { PartnerNote } from "./components/partner-note.tsx";
import { SignIn } from "./components/sign-in.tsx";
import { Statement } from "./components/statement.tsx";
import { Transactions } from "./components/transactions.tsx";

type Screen =
  | { readonly kind: "loading" }
  | { readonly kind: "signed-out"; readonly notice?: string }
  | { readonly kind: "signed-in"; readonly name: string; readonly role: string };

// Only whether this tab had a session (never a token): to tell a first visit from an ended session.
const hadSession = "purse-dashboard-had-session";
const sessionEndedNotice = "Your session has ended (it expired or was signed out). Sign in again.";

function remember(signedIn: boolean): void {
  try {
    if (signedIn) sessionStorage.setItem(hadSession, "1");
    else sessionStorage.removeItem(hadSession);
  } catch {
    // Storage refused (private mode): the notice is only less precise.
  }
}

function hadSessionBefore(): boolean {
  try {
    return sessionStorage.getItem(hadSession) === "1";
  } catch {
    return false;
  }
}

export function App() {
  const [screen, setScreen] = useState<Screen>({ kind: "loading" });

  const identify = async (fromSignIn: boolean) => {
    try {
      const { me } = await request(meQuery, {});
      remember(true);
      setScreen({ kind: "signed-in", name: me.name, role: me.role });
    } catch (error) {
      if (error instanceof SessionEnded) {
        const notice = !fromSignIn && hadSessionBefore() ? sessionEndedNotice : undefined;
        remember(false);
        setScreen(notice ? { kind: "signed-out", notice } : { kind: "signed-out" });
      } else
        setScreen({
          kind: "signed-out",
          notice: error instanceof RequestFailed ? error.message : "Purse cannot be reached. Try again.",
        });
    }
  };
  useEffect(() => {
    void identify(false);
  }, []);

  const session = useMemo(
    () => ({
      ended: () => {
        remember(false);
        setScreen({ kind: "signed-out", notice: sessionEndedNotice });
      },
    }),
    [],
  );
  const signOut = async () => {
    try {
      await endSession();
    } catch (error) {
      // Already ended on the server: signed out all the same.
      if (!(error instanceof SessionEnded)) {
        window.alert(error instanceof RequestFailed ? error.message : "Sign-out failed. Try again.");
        return;
      }
    }
    remember(false);
    setScreen({ kind: "signed-out", notice: "You are signed out." });
  };

  if (screen.kind === "loading")
    return (
      <main class="sign-in" aria-busy="true">
        <p class="muted">Loading…</p>
      </main>
    );
  if (screen.kind === "signed-out")
    return <SignIn notice={screen.notice} onSignedIn={() => void identify(true)} />;
  return (
    <SessionContext.Provider value={session}>
      <Dashboard name={screen.name} role={screen.role} onSignOut={signOut} />
    </SessionContext.Provider>
  );
}

function Dashboard({ name, role, onSignOut }: { name: string; role: string; onSignOut(): void }) {
  const [revision, setRevision] = useState(0);
  const [live, setLive] = useState(false);
  const [lastChange, setLastChange] = useState<number>();
  const session = useContext(SessionContext);
  const [lookup, setLookup] = useState<Lookup | null>(null);
  // Two views of one signed-in page: the money, and the Developers section (webhooks, events).
  const [view, setView] = useState<"money" | "developers">("money");
  const look = (text: string) => setLookup((previous) => ({ text, asked: (previous?.asked ?? 0) + 1 }));
  // The history, its totals and its export are a merchant's (the API refuses a partner's token).
  const merchant = role === "merchant";

  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stop = watchTransactions({
      // A burst of changes (a checkout settles in two steps) becomes one refresh.
      onChange: (transactionId) => {
        setLastChange(transactionId);
        clearTimeout(pending);
        pending = setTimeout(() => setRevision((value) => value + 1), 250);
      },
      onSessionEnded: () => session.ended(),
      onConnection: setLive,
    });
    return () => {
      clearTimeout(pending);
      stop();
    };
  }, [session]);

  const wallets = useQuery((signal) => request(walletsQuery, {}, signal), [revision]);
  const list = wallets.data?.wallets ?? [];
  return (
    <>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ◆
          </span>{" "}
          Purse <span class="muted">dashboard</span>
        </div>
        <nav class="views" aria-label="Sections">
          <button
            type="button"
            class={view === "money" ? "view on" : "view"}
            aria-current={view === "money" ? "page" : undefined}
            onClick={() => setView("money")}
          >
            Money
          </button>
          <button
            type="button"
            class={view === "developers" ? "view on" : "view"}
            aria-current={view === "developers" ? "page" : undefined}
            onClick={() => setView("developers")}
          >
            Developers
          </button>
        </nav>
        <div class="who">
          <span class={live ? "live on" : "live"} role="status">
            {live ? "Live" : "Reconnecting…"}
            {lastChange === undefined ? "" : ` · last change: transaction ${lastChange}`}
          </span>
          <span class="name">{name}</span>
          <button type="button" class="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      {view === "developers" ? (
        <main class="dashboard developers">
          <h1 class="visually-hidden">Developers: webhooks and events of {name}</h1>
          <Developers />
        </main>
      ) : (
        <main class="dashboard">
          <h1 class="visually-hidden">Dashboard of {name}</h1>
          <Balances wallets={wallets.data?.wallets} error={wallets.error} />
          <BalanceCharts wallets={list} revision={revision} />
          {merchant ? null : <PartnerNote />}
          <FindTransaction lookup={lookup} onLookup={look} />
          {merchant ? (
            <Transactions wallets={list} revision={revision} onDetails={(id) => look(String(id))} />
          ) : null}
          <CheckoutLinks revision={revision} />
          <Statement wallets={list} />
        </main>
      )}
    </>
  );
}
