/*
 * Long text in the chat (decision 072). Chromium wraps a run of text without spaces by shaping
 * it, and where the font kerns it shapes the rest of the run again at every line it breaks, so
 * wrapping one run costs the square of its length: 20,000 characters froze the page for seconds,
 * a million for minutes. Runs long enough to need a break inside them are drawn in a span with
 * kerning off (`.long-run` in styles.css), which makes every break reuse the shaping already done.
 * Messages past FOLD_CHARS show their head until asked, as plain text: markdown and highlighting
 * of a million characters cost seconds of their own, on every streamed update.
 */

/** A run of non-space characters at least this long is drawn as a `.long-run` span. */
export const LONG_RUN_CHARS = 200;

/** Text longer than this is folded to its head. */
export const FOLD_CHARS = 50_000;

/** How much of a folded text shows. */
export const FOLD_HEAD_CHARS = 2_000;

export interface TextPiece {
  text: string;
  /** A run of at least LONG_RUN_CHARS characters without white space. */
  long: boolean;
}

const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS},}`, 'g');

/** `text` cut into pieces, the long runs apart; joined, the pieces give `text` back. */
export function splitLongRuns(text: string): TextPiece[] {
  if (text.length < LONG_RUN_CHARS) return [{ text, long: false }];
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index), long: false });
    pieces.push({ text: match[0], long: true });
    at = match.index + match[0].length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), long: false });
  return pieces;
}

/** The head of a folded text: FOLD_HEAD_CHARS characters, not splitting a surrogate pair. */
export function foldedHead(text: string): string {
  let end = Math.min(text.length, FOLD_HEAD_CHARS);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}
