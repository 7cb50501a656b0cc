import { useContext, useEffect, useMemo, useState } from "preact/hooks";
import { RequestFailed, request, SessionEnded } from "./api/client.ts";
import { meQuery, walletsQuery } from "./api/documents.ts";
import { watchTransactions } from "./api/live.ts";
import { setTestModeRequests, storedTestMode, storeTestMode } from "./api/mode.ts";
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
import { TestTools } from "./components/test-tools.tsx";
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
  const [testMode, setTestMode] = useState(storedTestMode);
  const [liveAnswer, setLiveAnswer] = useState(false);

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

  const switchMode = (on: boolean) => {
    storeTestMode(on);
    setLiveAnswer(false);
    setTestMode(on);
  };
  // Requests follow the switch only while signed in (signing in is the same in both modes); set
  // before the page below renders, so every view's first request already carries it.
  setTestModeRequests(screen.kind === "signed-in" && testMode, () => setLiveAnswer(true));

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
      {/* A new page per mode: nothing loaded in one mode stays on screen in the other. */}
      <Dashboard
        key={testMode ? "test" : "live"}
        name={screen.name}
        role={screen.role}
        testMode={testMode}
        liveAnswer={liveAnswer}
        onTestMode={switchMode}
        onSignOut={signOut}
      />
    </SessionContext.Provider>
  );
}

interface DashboardProps {
  readonly name: string;
  readonly role: string;
  /** The test-mode switch is on: every request reads the user's test data only. */
  readonly testMode: boolean;
  /** A test-mode request was answered with live data (never expected; nothing of it is shown). */
  readonly liveAnswer: boolean;
  onTestMode(on: boolean): void;
  onSignOut(): void;
}

function Dashboard({ name, role, testMode, liveAnswer, onTestMode, onSignOut }: DashboardProps) {
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
    <div class={testMode ? "mode test-mode" : "mode"}>
      {testMode ? (
        <p class="test-banner">
          <strong>Test mode: test data only</strong>
          <span>Test wallets, test money and your test clock; nothing here is live.</span>
        </p>
      ) : null}
      {liveAnswer ? (
        <p class="form-error live-answer" role="alert">
          Purse answered with live data while test mode is on; it was not shown. Reload the page, and tell the
          operator if it happens again.
        </p>
      ) : null}
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
          <button
            type="button"
            role="switch"
            class="mode-switch"
            aria-checked={testMode}
            onClick={() => onTestMode(!testMode)}
          >
            <span class="mode-track" aria-hidden="true" />
            Test mode
          </button>
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
          <h1 class="visually-hidden">
            Developers: webhooks and events of {name}
            {testMode ? " (test mode)" : ""}
          </h1>
          <Developers onWalletsMade={() => setRevision((value) => value + 1)} />
        </main>
      ) : (
        <main class="dashboard">
          <h1 class="visually-hidden">
            Dashboard of {name}
            {testMode ? " (test mode)" : ""}
          </h1>
          <Balances wallets={wallets.data?.wallets} error={wallets.error} />
          <BalanceCharts wallets={list} revision={revision} />
          {testMode ? <TestTools wallets={list} onChanged={() => setRevision((value) => value + 1)} /> : null}
          {merchant ? null : <PartnerNote />}
          <FindTransaction lookup={lookup} onLookup={look} />
          {merchant ? (
            <Transactions
              wallets={list}
              revision={revision}
              testMode={testMode}
              onDetails={(id) => look(String(id))}
            />
          ) : null}
          <CheckoutLinks revision={revision} />
          <Statement wallets={list} />
        </main>
      )}
    </div>
  );
}
