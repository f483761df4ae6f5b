import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { PageStore } from '../state/page-store';
import type { SessionView } from '../state/session-reducer';
import type { ReadingMode } from '../state/reading-view';

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
 * A request to show an entry (a search hit) that lies on another branch opens that branch for
 * reading (decision 076), so the chat can scroll to the entry without moving the session's leaf;
 * one on the active path leaves reading, so the chat shows it where it is.
 */
export function useRevealReads(
  store: PageStore,
  view: SessionView | null,
  reading: ReadingMode,
): void {
  const request = useStore(store, (state) => state.reveal);
  const answered = useRef(0);
  useEffect(() => {
    if (!request || !view || request.sessionId !== view.sessionId) return;
    if (answered.current === request.seq || !view.byId.has(request.entryId)) return;
    answered.current = request.seq;
    if (!onActivePath(view, request.entryId)) reading.read(request.entryId);
    else if (reading.entryId !== null) reading.back();
  }, [request, view, reading]);
}
