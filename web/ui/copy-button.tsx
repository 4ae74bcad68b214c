// Copies a text to the clipboard and says so where screen readers hear it.
import { useState } from "preact/hooks";

export function CopyButton({ text }: { text: string }) {
  const [status, setStatus] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied");
    } catch {
      setStatus("Copy failed: select the link and copy it yourself");
    }
    setTimeout(() => setStatus(""), 2500);
  };
  return (
    <span class="copy">
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span class="copy-status" role="status" aria-live="polite">
        {status}
      </span>
    </span>
  );
}
