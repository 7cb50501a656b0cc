import { useState } from "preact/hooks";
import { RequestFailed } from "../../api/client.ts";
import { createTestCredentials, type TestCredentials } from "../../api/test-mode-documents.ts";

/**
 * **Create test credentials** (issue 38): test client credentials for the signed-in user, and a
 * test wallet per currency of their live wallets that has none. The secrets are shown this once,
 * each with a copy button, and live only in this component's state (never storage or a URL) until
 * the merchant says they are saved. New test wallets reload the page's balances (`onWalletsMade`).
 */
export function CreateTestCredentials({ onWalletsMade }: { onWalletsMade(): void }) {
  const [made, setMade] = useState<TestCredentials>();
  const [said, setSaid] = useState("");
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    setSaid("");
    try {
      const outcome = await createTestCredentials();
      if (!outcome.ok) return setSaid(outcome.message);
      setMade(outcome.data);
      if (outcome.data.wallets.length > 0) onWalletsMade();
    } catch (error) {
      setSaid(error instanceof RequestFailed ? error.message : "Something went wrong. Try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel test-credentials" aria-labelledby="test-credentials-title">
      <div class="panel-head">
        <h2 id="test-credentials-title">Test credentials</h2>
        <button type="button" disabled={busy} onClick={() => void create()}>
          Create test credentials
        </button>
      </div>
      <p class="muted">
        Credentials whose tokens reach your test data only (test wallets, test money, your test clock). Each
        press makes a new client; the secrets are shown once.
      </p>
      {said ? <p class="form-error">{said}</p> : null}
      {made ? (
        <section class="notice secret-once" aria-labelledby="test-credentials-made">
          <h3 id="test-credentials-made">Test client {made.clientId} created</h3>
          <p>Copy them now: they are shown this once.</p>
          <dl class="credentials">
            <Secret name="client_id" value={made.clientId} />
            <Secret name="client_secret" value={made.clientSecret} />
            <Secret name="form_token" value={made.formToken} />
            <Secret name="webhook_secret" value={made.webhookSecret} />
          </dl>
          <p>
            {made.wallets.length === 0
              ? "You already had a test wallet in each currency of your live wallets."
              : `Test wallets made: ${made.wallets.map((wallet) => `${wallet.number} (${wallet.currency})`).join(", ")}.`}
          </p>
          <button type="button" onClick={() => setMade(undefined)}>
            I have saved them
          </button>
        </section>
      ) : null}
    </section>
  );
}

function Secret({ name, value }: { name: string; value: string }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid("Copied");
    } catch {
      setSaid("Copying was refused: select it and copy it.");
    }
  };
  return (
    <div class="credential">
      <dt>{name}</dt>
      <dd>
        <code class="mono secret" data-name={name}>
          {value}
        </code>
        <button type="button" class="secondary small" aria-label={`Copy ${name}`} onClick={copy}>
          Copy
        </button>
        <span class="muted" role="status">
          {said}
        </span>
      </dd>
    </div>
  );
}
