import { useEffect, useRef } from 'react';
import { openView } from '../state/page-selectors';
import type { PageState } from '../state/page-store';
import type { SessionView } from '../state/session-reducer';
import type { ReadingMode } from '../state/reading-view';
import { usePage } from '../state/use-page-store';

/** Whether `entryId` is the leaf or one of its ancestors. */
function onActivePath(view: Pick<SessionView, 'byId' | 'leafId'>, entryId: string): boolean {
  const seen = new Set<string>();
  for (let id = view.leafId; id !== null && !seen.has(id);) {
    if (id === entryId) return true;
    seen.add(id);
    id = view.byId.get(id)?.parentId ?? null;
  }
  return false;
}

/**
 * Where the latest request to show an entry stands: not answerable yet (no request, another
 * session's, or an entry the open session does not show yet), or on or off the active path.
 */
function revealPlace(state: PageState): 'wait' | 'on-path' | 'off-path' {
  const request = state.reveal;
  const view = openView(state);
  if (!request || !view || request.sessionId !== view.sessionId) return 'wait';
  if (!view.byId.has(request.entryId)) return 'wait';
  return onActivePath(view, request.entryId) ? 'on-path' : 'off-path';
}

/**
 * A request to show an entry (a search hit) that lies on another branch opens that branch for
 * reading (decision 076), so the chat can scroll to the entry without moving the session's leaf;
 * one on the active path leaves reading, so the chat shows it where it is.
 */
export function useRevealReads(reading: ReadingMode): void {
  const request = usePage((state) => state.reveal);
  const place = usePage(revealPlace);
  const answered = useRef(0);
  useEffect(() => {
    if (!request || place === 'wait' || answered.current === request.seq) return;
    answered.current = request.seq;
    if (place === 'off-path') reading.read(request.entryId);
    else if (reading.entryId !== null) reading.back();
  }, [request, place, reading]);
}
