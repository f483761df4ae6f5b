import type { KeySource, ProviderList } from '../../../shared/rest-shapes';

/*
 * How an admin's settings list the providers: those with a key first, then by name, filtered by
 * what was typed, each with where its key comes from in words.
 */

export type ProviderRow = ProviderList['providers'][number];

export const KEY_SOURCE_TEXT: Record<KeySource, string> = {
  saved: 'Key saved here',
  subscription: 'Subscription (signed in with pi)',
  'models.json': 'Key in models.json',
  environment: 'Key from the environment',
};

export function keyStatus(row: ProviderRow): string {
  return row.key ? KEY_SOURCE_TEXT[row.key] : 'No key';
}

export function shownProviders(rows: readonly ProviderRow[], filter: string): ProviderRow[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return rows
    .filter((row) => words.every((word) => row.provider.toLowerCase().includes(word)))
    .sort(
      (a, b) =>
        Number(b.key !== null) - Number(a.key !== null) || a.provider.localeCompare(b.provider),
    );
}

/** The patterns typed in the settings, one per line, blanks left out; null for every model. */
export function patternsOf(every: boolean, text: string): string[] | null {
  if (every) return null;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
