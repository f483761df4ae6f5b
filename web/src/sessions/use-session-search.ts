import { useEffect, useState } from 'react';
import type { SearchAnswer, WorkspaceInfo } from '../../../shared/rest-shapes';
import { searchSessions } from '../api/rest';

/** Typing pauses this long before a search starts; each keystroke cancels the search before. */
const SEARCH_DELAY_MS = 250;

export interface SearchView {
  query: string;
  status: 'searching' | 'done' | 'failed';
  /** Answers by workspace id (the last ones while a new search runs). */
  answers: Record<string, SearchAnswer>;
  error?: string;
}

/**
 * The sidebar's search: every message of every session of each workspace, on the server. A new
 * query aborts the search under way (the server stops reading when its client goes away).
 */
export function useSessionSearch(workspaces: WorkspaceInfo[]) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<SearchView | null>(null);

  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setSearch(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setSearch((last) => ({ query: q, status: 'searching', answers: last?.answers ?? {} }));
      Promise.all(
        workspaces.map(
          async (w) => [w.id, await searchSessions(w.id, q, controller.signal)] as const,
        ),
      )
        .then((entries) =>
          setSearch({ query: q, status: 'done', answers: Object.fromEntries(entries) }),
        )
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setSearch({ query: q, status: 'failed', answers: {}, error: message });
        });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, workspaces]);

  return { query, setQuery, search };
}
