import type { SearchHit } from '../../shared/rest-shapes.js';

/*
 * How search matches text: the query as typed (trimmed, inner whitespace matching any whitespace),
 * literally, ignoring case (Unicode case folding). Regular-expression characters in the query are
 * plain characters: the query is escaped before it becomes a pattern, so no query can backtrack.
 */

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
/** Characters of context kept before and after a match in a snippet. */
const BEFORE = 60;
const AFTER = 100;

export interface TextMatcher {
  /** The first match in `text`, as [start, end), or undefined. */
  find(text: string): [number, number] | undefined;
  /**
   * A cheap, certain pre-test of a raw JSON line: false only when the line cannot hold a match in
   * any of its strings. (JSON writes text as is, except `"`, `\`, control characters and, for some
   * writers, non-ASCII characters, `/` and `<>&` as escapes; a query with those is always let
   * through, as is one of several words, which an escaped newline between them would hide.)
   */
  mayMatchRaw(line: string): boolean;
}

export function textMatcher(query: string): TextMatcher {
  const words = query.trim().split(/\s+/).filter(Boolean);
  const pattern = new RegExp(words.map((w) => w.replace(SYNTAX, '\\$&')).join('\\s+'), 'iu');
  // Some writers also escape `/` and `<>&` (Go's encoding/json): a word with those is let through.
  const rawSafe =
    words.length === 1 && /^[\x20-\x7e]+$/.test(words[0]!) && !/["\\/<>&]/.test(words[0]!);
  return {
    find(text) {
      const found = pattern.exec(text);
      return found ? [found.index, found.index + found[0].length] : undefined;
    },
    mayMatchRaw(line) {
      return rawSafe ? pattern.test(line) : true;
    },
  };
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** Moves `at` off the second half of a surrogate pair, so a cut never splits a character. */
function charBoundary(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** The hit for a match at [start, end) of `text`: a short snippet around it, the match marked. */
export function hitAt(
  text: string,
  [start, end]: [number, number],
  where: SearchHit['where'],
  entryId?: string,
): SearchHit {
  const from = charBoundary(text, Math.max(0, start - BEFORE));
  const to = charBoundary(text, Math.min(text.length, end + AFTER));
  const before = (from > 0 ? '…' : '') + fold(text.slice(from, start)).trimStart();
  const matched = fold(text.slice(start, end));
  const after = fold(text.slice(end, to)).trimEnd() + (to < text.length ? '…' : '');
  return {
    ...(entryId !== undefined ? { entryId } : {}),
    where,
    snippet: before + matched + after,
    match: [before.length, before.length + matched.length],
  };
}
