import { Fragment, memo, useMemo, useState, type ReactNode } from 'react';
import { FOLD_CHARS, foldedHead, splitLongRuns } from './long-text';

/** `text` with its long runs in `.long-run` spans, which wrap in linear time (long-text.ts). */
export const Runs = memo(function Runs({ text }: { text: string }) {
  const pieces = useMemo(() => splitLongRuns(text), [text]);
  if (pieces.length === 1 && !pieces[0]!.long) return <>{text}</>;
  return (
    <>
      {pieces.map((piece, i) =>
        piece.long ? (
          <span key={i} className="long-run">
            {piece.text}
          </span>
        ) : (
          <Fragment key={i}>{piece.text}</Fragment>
        ),
      )}
    </>
  );
});

/** Text whose line breaks and spaces are kept, as a person typed it. */
export function PlainText({ text }: { text: string }) {
  return (
    <div className="plain-text">
      <Runs text={text} />
    </div>
  );
}

/**
 * Puts `text` on the clipboard. The Clipboard API exists only in secure contexts; a team server
 * reached over plain http on its LAN address is not one, so there the copy goes through a
 * selected, unseen text area and `execCommand('copy')`.
 */
function copyText(text: string): Promise<void> {
  if (navigator.clipboard) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'copy-buffer';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied ? Promise.resolve() : Promise.reject(new Error('the browser refused to copy'));
}

interface LongTextProps {
  text: string;
  /** Shown as a `<pre>` of this class when folded or opened whole (tool output), else as plain text. */
  preClass?: string;
  /** How the text is drawn when it is short enough to draw as usual. */
  children: ReactNode;
}

/**
 * Draws `children` for a text up to FOLD_CHARS characters; a longer one shows its head as plain
 * text with "Show all (N characters)" and "Copy all", and opened, the whole text as plain text
 * (never markdown: parsing a million characters costs seconds). Nothing of the text is lost:
 * "Copy all" copies every character, folded or not.
 */
export function LongText({ text, preClass, children }: LongTextProps) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  if (text.length <= FOLD_CHARS) return <>{children}</>;
  const shown = open ? text : `${foldedHead(text)}…`;
  return (
    <div className="long-text" data-folded={open ? 'false' : 'true'}>
      {preClass !== undefined ? (
        <pre className={preClass}>
          <Runs text={shown} />
        </pre>
      ) : (
        <PlainText text={shown} />
      )}
      <div className="long-text-actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${text.length.toLocaleString('en')} characters)`}
        </button>
        <button
          type="button"
          onClick={() => {
            copyText(text).then(
              () => setCopied('copied'),
              () => setCopied('failed'),
            );
          }}
        >
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Could not copy' : 'Copy all'}
        </button>
      </div>
    </div>
  );
}

/** Preformatted text (a tool's arguments or output), folded when long. */
export function FoldedPre({ text, className }: { text: string; className: string }) {
  return (
    <LongText text={text} preClass={className}>
      <pre className={className}>{text}</pre>
    </LongText>
  );
}
