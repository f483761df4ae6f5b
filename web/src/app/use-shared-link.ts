import { useEffect } from 'react';
import { openView } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';

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
 * Reads the entry named by `?read=` once the open session shows it, and drops it from the URL once
 * the chat reads it. A link to the session's leaf as it is now opens the session as it is: there
 * is no earlier point to read.
 */
export function useReadFromUrl(reading: {
  entryId: string | null;
  read(entryId: string): void;
}): void {
  const entryId = new URLSearchParams(window.location.search).get('read');
  const ready = usePage(
    (state) => entryId !== null && (openView(state)?.byId.has(entryId) ?? false),
  );
  const atLeaf = usePage((state) => entryId !== null && openView(state)?.leafId === entryId);
  const { read, entryId: readingId } = reading;
  useEffect(() => {
    if (!ready || entryId === null) return;
    if (readingId !== entryId && !atLeaf) {
      read(entryId);
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.delete('read');
    window.history.replaceState(null, '', url);
  }, [ready, atLeaf, entryId, read, readingId]);
}
