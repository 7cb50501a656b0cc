import { useState } from "preact/hooks";

/**
 * An open checkout's payment link with a button that copies it, to send the payer again. Says
 * what happened in words ("Copied", or to select the link by hand where the browser refuses the
 * clipboard), in a live region.
 */
export function CopyLink({ url, order }: { url: string; order: string }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setSaid("Copied");
    } catch {
      setSaid("Copying was refused: select the link and copy it.");
    }
  };
  return (
    <span class="copy-link">
      <a class="url mono" href={url} target="_blank" rel="noopener noreferrer" title={url}>
        {url}
      </a>
      <button type="button" class="secondary small" aria-label={`Copy link of ${order}`} onClick={copy}>
        Copy link
      </button>
      <span class="muted" role="status">
        {said}
      </span>
    </span>
  );
}
