import { useState } from "preact/hooks";

/**
 * A signing secret the API shows this once (after a create or a rotation): in full, with a copy
 * button, until the merchant says it is saved. It lives only in this component's props, never in
 * storage or a URL.
 */
export function SecretOnce({ secret, title, onDone }: { secret: string; title: string; onDone(): void }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setSaid("Copied");
    } catch {
      setSaid("Copying was refused: select the secret and copy it.");
    }
  };
  return (
    <section class="notice secret-once" aria-labelledby="secret-once-title">
      <h3 id="secret-once-title">{title}</h3>
      <p>
        Copy it now: it is shown this once. Your receiver verifies the <code>webhook-signature</code> header
        with it.
      </p>
      <p class="secret-line">
        <code class="mono secret">{secret}</code>
        <button type="button" class="secondary small" onClick={copy}>
          Copy secret
        </button>
        <span class="muted" role="status">
          {said}
        </span>
      </p>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
