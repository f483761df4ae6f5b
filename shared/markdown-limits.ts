/*
 * How long a text may be and still be read as markdown, by the page and by an export alike.
 * micromark (under react-markdown on the page, directly in an export) resolves emphasis and
 * strikethrough delimiters in time quadratic in a run of them: 32,000 characters of `*a` take about
 * a second, 16,000 about 0.3 s, on this project's reference machine (docs/decisions/097). Longer
 * text is shown as plain text, which costs nothing to lay out and loses no character of it.
 */

/** The longest text rendered as markdown; longer text is shown as plain text. */
export const MARKDOWN_MAX_CHARS = 20_000;

/** Whether `text` is rendered as markdown rather than shown as plain text. */
export function fitsMarkdown(text: string): boolean {
  return text.length <= MARKDOWN_MAX_CHARS;
}
