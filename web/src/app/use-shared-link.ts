import { useEffect } from 'react';

/*
 * The page's side of a share link (docs/decisions/088): `/share/TOKEN` sends a logged-out visitor
 * to `/?share=TOKEN`, which asks for a login and then follows the link again; a logged-in one to
 * `/?session=ID&read=ENTRY`, which opens the session reading that entry's path.
 */

/** After a login, follows the share link the visitor came with, if any. */
export function followShareAfterLogin(): boolean {
  const token = new URLSearchParams(window.location.search).get('share');
  if (!token) return false;
  window.location.assign(`/share/${encodeURIComponent(token)}`);
  return true;
}

/**
 * Reads the entry named by `?read=` once the session shows it, and drops it from the URL once the
 * chat reads it (the reading mode takes it only when its own view of the session has caught up).
 */
export function useReadFromUrl(
  sessionId: string | null,
  has: (entryId: string) => boolean,
  reading: { entryId: string | null; read(entryId: string): void },
): void {
  const entryId = new URLSearchParams(window.location.search).get('read');
  const ready = entryId !== null && sessionId !== null && has(entryId);
  const { read, entryId: readingId } = reading;
  useEffect(() => {
    if (!ready || entryId === null) return;
    if (readingId !== entryId) {
      read(entryId);
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.delete('read');
    window.history.replaceState(null, '', url);
  }, [ready, entryId, read, readingId]);
}
