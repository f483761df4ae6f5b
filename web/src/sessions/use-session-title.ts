import { useMemo } from 'react';
import { openView, shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { sessionTitle } from '../../../shared/session-title';

/** The open session's title: its name, else what the session list calls it, else "New session". */
export function useSessionTitle(): string {
  const sessionName = usePage((state) => openView(state)?.sessionName);
  const sessions = usePage((state) => state.sessions);
  const sessionId = usePage(shownSessionId);
  const listed = useMemo(
    () =>
      Object.values(sessions)
        .flat()
        .find((s) => s.id === sessionId),
    [sessions, sessionId],
  );
  return sessionName ?? (listed ? sessionTitle(listed) : 'New session');
}
