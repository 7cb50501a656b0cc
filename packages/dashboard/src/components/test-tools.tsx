import { useEffect, useState } from "preact/hooks";
import { RequestFailed } from "../api/client.ts";
import { advanceTestClock, type Outcome, readTestClock, testFund } from "../api/test-mode-documents.ts";
import type { Wallet } from "./balances.tsx";
import { WalletPicker } from "./wallet-picker.tsx";

/** What a failed action says: the API's refusal in its words, or that Purse was not reached. */
async function attempt<Data>(run: () => Promise<Outcome<Data>>): Promise<Outcome<Data>> {
  try {
    return await run();
  } catch (error) {
    return {
      ok: false,
      message: error instanceof RequestFailed ? error.message : "Something went wrong. Try again.",
    };
  }
}

/**
 * Test mode's own tools (issue 38): test money into one of the merchant's test wallets
 * (`testFund`), and their test clock moved forward (`advanceTestClock`), every time rule it makes
 * due applied at once. `onChanged` reloads the views.
 */
export function TestTools({ wallets, onChanged }: { wallets: readonly Wallet[]; onChanged(): void }) {
  return (
    <section class="panel test-tools" aria-labelledby="test-tools-title">
      <h2 id="test-tools-title">Test tools</h2>
      <div class="test-tools-grid">
        <FundTestWallet wallets={wallets} onChanged={onChanged} />
        <TestClock onChanged={onChanged} />
      </div>
    </section>
  );
}

function FundTestWallet({ wallets, onChanged }: { wallets: readonly Wallet[]; onChanged(): void }) {
  const [wallet, setWallet] = useState("");
  const [amount, setAmount] = useState("100.00");
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const chosen = wallets.some((item) => item.number === wallet) ? wallet : (wallets[0]?.number ?? "");
  const fund = async (event: Event) => {
    event.preventDefault();
    if (!/^\d+(\.\d+)?$/.test(amount.trim())) {
      setSaid({ ok: false, text: "The amount must be a decimal number, such as 100.00." });
      return;
    }
    setBusy(true);
    const outcome = await attempt(() => testFund(chosen, amount.trim()));
    setBusy(false);
    if (!outcome.ok) return setSaid({ ok: false, text: outcome.message });
    setSaid({
      ok: true,
      // The amount as typed: the API echoes it as a number ("250" for "250.00").
      text: `Added ${amount.trim()} to ${chosen} (transaction ${outcome.data.transactionId}).`,
    });
    onChanged();
  };
  return (
    <form class="fund-test-wallet" aria-labelledby="fund-title" onSubmit={fund}>
      <h3 id="fund-title">Fund test wallet</h3>
      {wallets.length === 0 ? (
        <p class="muted">You have no test wallets yet: Developers, Create test credentials, makes them.</p>
      ) : (
        <>
          <WalletPicker
            id="fund-wallet"
            label="Test wallet"
            wallets={wallets}
            value={chosen}
            onChange={setWallet}
          />
          <label>
            Amount
            <input
              inputMode="decimal"
              value={amount}
              onInput={(event) => setAmount(event.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            Fund test wallet
          </button>
        </>
      )}
      <p role="status" class={said?.ok === false ? "form-error" : "muted"}>
        {said?.text ?? ""}
      </p>
    </form>
  );
}

function TestClock({ onChanged }: { onChanged(): void }) {
  const [clock, setClock] = useState<{ now: string; advancedSeconds: number }>();
  const [custom, setCustom] = useState("");
  const [said, setSaid] = useState("");
  const [busy, setBusy] = useState(false);
  // Where the clock stands when the page opens (a move answers where it went).
  useEffect(() => {
    const abort = new AbortController();
    void attempt(() => readTestClock(abort.signal)).then((outcome) => {
      if (!abort.signal.aborted && outcome.ok) setClock(outcome.data);
    });
    return () => abort.abort();
  }, []);
  const advance = async (duration: string) => {
    if (!/^\d+[smhd]$/.test(duration)) {
      setSaid("Say how far as a number and a unit: 30s, 90m, 24h or 2d.");
      return;
    }
    setBusy(true);
    const outcome = await attempt(() => advanceTestClock(duration));
    setBusy(false);
    if (!outcome.ok) return setSaid(outcome.message);
    setClock(outcome.data);
    setSaid("");
    onChanged();
  };
  return (
    <section class="test-clock" aria-labelledby="clock-title">
      <h3 id="clock-title">Test clock</h3>
      <p>
        {clock ? (
          <>
            Now{" "}
            <time class="mono clock-now">{clock.now.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")}</time>,{" "}
            {clock.advancedSeconds === 0
              ? "on real time (not moved yet)"
              : `${aheadBy(clock.advancedSeconds)} ahead of real time`}
            .
          </>
        ) : (
          "Real time until you move it (moved forward only; every time rule of your test data follows it)."
        )}
      </p>
      <div class="clock-buttons">
        <button type="button" disabled={busy} onClick={() => void advance("30m")}>
          Advance 30 minutes
        </button>
        <button type="button" disabled={busy} onClick={() => void advance("1d")}>
          Advance 1 day
        </button>
      </div>
      <form
        class="clock-custom"
        onSubmit={(event) => {
          event.preventDefault();
          void advance(custom.trim());
        }}
      >
        <label>
          Advance by
          <input
            placeholder="90m, 24h, 2d"
            value={custom}
            onInput={(event) => setCustom(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Advance
        </button>
      </form>
      <p role="status" class={said ? "form-error" : "muted"}>
        {said}
      </p>
    </section>
  );
}

/** "1 day 0 h 31 min": how far the clock runs ahead, in words. */
function aheadBy(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days ? `${days} d` : "", hours ? `${hours} h` : "", minutes ? `${minutes} min` : ""].filter(
    Boolean,
  );
  return parts.length ? parts.join(" ") : `${seconds} s`;
}
