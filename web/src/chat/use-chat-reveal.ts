import { useEffect, useRef, type RefObject } from 'react';
import { markRevealed, unmarkRevealed } from '../state/entry-reveal';
import { usePage, usePageStore } from '../state/use-page-store';

/**
 * Answers a request to show an entry (entry-reveal.ts) in the chat: when the entry is on the
 * active path, draws far enough back to hold it, scrolls it to the middle and marks it, and stops
 * following the bottom. The chat shows the active path only, so an entry on another branch is
 * shown by the graph alone: the answer is then `offPath`, for the chat to say so.
 */
export function useChatReveal(opts: {
  sessionId: string;
  entryIds: readonly (string | null)[];
  limit: number;
  log: RefObject<HTMLDivElement | null>;
  pinned: { current: boolean };
  /** Whether the session has this entry at all (its tree is loaded). */
  has(entryId: string): boolean;
}): { offPath: boolean } {
  const { sessionId, entryIds, limit, log, pinned, has } = opts;
  const request = usePage((state) => state.reveal);
  const { dispatch } = usePageStore();
  const answered = useRef(0);
  useEffect(() => {
    if (!request) {
      if (log.current) unmarkRevealed(log.current);
      return;
    }
    if (request.sessionId !== sessionId || answered.current === request.seq) return;
    const index = entryIds.indexOf(request.entryId);
    if (index === -1) return;
    const needed = entryIds.length - index;
    if (needed > limit) {
      dispatch({ type: 'show_at_least', sessionId, count: needed });
      return;
    }
    const root = log.current;
    if (!root) return;
    const element = markRevealed(root, `[data-entry-id="${CSS.escape(request.entryId)}"]`);
    if (!element) return;
    answered.current = request.seq;
    pinned.current = false;
    element.scrollIntoView({ block: 'center' });
  });
  const offPath =
    request !== null &&
    request.sessionId === sessionId &&
    has(request.entryId) &&
    !entryIds.includes(request.entryId);
  return { offPath };
}
