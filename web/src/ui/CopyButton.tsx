import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

/**
 * Copies text to the clipboard. Its accessible name is its action ("Copy", "Copy code"), and
 * becomes "Copied" for a moment after a copy (or "Copy failed", with the reason as a tooltip).
 * The text is read when clicked, so a streaming message copies what it says by then.
 */
export function CopyButton({ label, text }: { label: string; text: () => string }) {
  const [outcome, setOutcome] = useState<{ done: boolean; reason?: string } | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), 1500);
    return () => clearTimeout(timer);
  }, [outcome]);
  const name = outcome ? (outcome.done ? 'Copied' : 'Copy failed') : label;
  return (
    <button
      type="button"
      className="icon-button copy-button"
      aria-label={name}
      title={outcome?.reason ?? name}
      onClick={() => {
        // The clipboard exists only in a secure context (https, or loopback).
        if (!navigator.clipboard) {
          setOutcome({ done: false, reason: 'The browser allows copying only over https.' });
          return;
        }
        navigator.clipboard.writeText(text()).then(
          () => setOutcome({ done: true }),
          (error: unknown) =>
            setOutcome({
              done: false,
              reason: error instanceof Error ? error.message : String(error),
            }),
        );
      }}
    >
      {outcome?.done ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
    </button>
  );
}
