/*
 * Fuzzy matching as pi's editor does it (pi-tui's fuzzy.ts), so the `/` menu finds what a pi user
 * expects: every character of the query appears in order in the text, not necessarily next to each
 * other; runs of consecutive characters and starts of words score better, gaps and late matches
 * worse (a lower score is better); a query that is the whole text wins. Letters then digits may be
 * typed the other way round ("v2" finds "2v") at a small cost.
 */

const WORD_START = /[\s\-_./:]/;

function scorePositions(text: string, positions: readonly number[]): number {
  let score = 0;
  let last = -1;
  let run = 0;
  for (const i of positions) {
    if (last === i - 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (last >= 0) score += (i - last - 1) * 2;
    }
    if (i === 0 || WORD_START.test(text[i - 1]!)) score -= 10;
    score += i * 0.1;
    last = i;
  }
  return score;
}

/** The best score of `query` in `text` (both lower case), or null when it does not match. */
function matchScore(query: string, text: string): number | null {
  if (query.length === 0) return 0;
  if (query.length > text.length) return null;
  // Each character at its first place after the previous one...
  const positions: number[] = [];
  let last = -1;
  for (const char of query) {
    const i = text.indexOf(char, last + 1);
    if (i === -1) return null;
    positions.push(i);
    last = i;
  }
  let score = scorePositions(text, positions);
  // ...which can scatter it over an unrelated start, so every unbroken occurrence is scored too.
  for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
    score = Math.min(
      score,
      scorePositions(
        text,
        positions.map((_, k) => start + k),
      ),
    );
  }
  if (query === text) score -= 100;
  return score;
}

/** The score of `query` in `text`, ignoring case; null when it does not match. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const direct = matchScore(q, t);
  if (direct !== null) return direct;
  const swapped = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
  if (!swapped) return null;
  const again = matchScore(`${swapped[2]}${swapped[1]}`, t);
  return again === null ? null : again + 5;
}

/**
 * The items whose text matches every space- or slash-separated token of `query`, best first (a
 * stable sort: equal scores keep the items' order); all of them for an empty query.
 */
export function fuzzyFilter<T>(
  items: readonly T[],
  query: string,
  textOf: (item: T) => string,
): T[] {
  const tokens = query
    .trim()
    .split(/[\s/]+/)
    .filter(Boolean);
  if (tokens.length === 0) return [...items];
  const scored: { item: T; score: number }[] = [];
  for (const item of items) {
    const text = textOf(item);
    let total = 0;
    let all = true;
    for (const token of tokens) {
      const score = fuzzyScore(token, text);
      if (score === null) {
        all = false;
        break;
      }
      total += score;
    }
    if (all) scored.push({ item, score: total });
  }
  return scored.sort((a, b) => a.score - b.score).map((entry) => entry.item);
}
