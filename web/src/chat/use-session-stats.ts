import { useEffect, useState } from 'react';
import type { SessionStats } from '../../../shared/session-stats-schema';
import type { ArborSocket } from '../socket/arbor-socket';

/*
 * The page's side of `get_session_stats`: asked when the dialog opens (and again when the session
 * or the entry being read changes while it is open), for the branch being read or the leaf.
 */

export type SessionStatsState =
  | { status: 'loading' }
  | { status: 'ready'; stats: SessionStats }
  | { status: 'failed'; message: string };

export function useSessionStats(
  socket: ArborSocket,
  sessionId: string | null,
  /** The entry being read (reading mode), or null for the leaf. */
  entryId: string | null,
  open: boolean,
): SessionStatsState {
  const [state, setState] = useState<SessionStatsState>({ status: 'loading' });
  useEffect(() => {
    if (!open || !sessionId) return;
    let current = true;
    setState({ status: 'loading' });
    socket
      .request<'get_session_stats'>({
        type: 'get_session_stats',
        sessionId,
        ...(entryId ? { entryId } : {}),
      })
      .then(
        (stats) => {
          if (current) setState({ status: 'ready', stats });
        },
        (error: unknown) => {
          if (current)
            setState({
              status: 'failed',
              message: `Could not load the statistics: ${error instanceof Error ? error.message : String(error)}`,
            });
        },
      );
    return () => {
      current = false;
    };
  }, [socket, sessionId, entryId, open]);
  return state;
}
