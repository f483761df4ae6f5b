import { useCallback, useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/rest-shapes';
import { listWorkspaces } from '../api/rest';
import type { ArborSocket } from '../socket/arbor-socket';
import type { PageStore } from '../state/page-store';
import type { SessionView } from '../state/session-reducer';
import { useSessionList } from '../sessions/use-session-list';
import { sessionFromUrl, showSessionInUrl } from './session-url';
import type { Panel } from './TopBar';
import type { ReportOptions } from '../ui/report-options';
import { describeError } from './use-session';

/**
 * Which session the page has open, and the lists it is chosen from: the workspaces, their
 * sessions (with rename, delete and its undo), and the first load, which opens the session in the
 * URL, else the first workspace's newest session, else a new one.
 */
export function useOpenSession({
  socket,
  store,
  canCreate,
  setPanel,
  report,
  clear,
}: {
  socket: ArborSocket;
  store: PageStore;
  canCreate: boolean;
  setPanel(panel: Panel): void;
  report(text: string, kind?: 'error' | 'info', options?: ReportOptions): void;
  clear(key: string): void;
}) {
  const [workspaces, setWorkspaces] = useState<WorkspaceInfo[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(sessionFromUrl);

  const open = useCallback(
    (id: string) => {
      setSessionId(id);
      showSessionInUrl(id);
      setPanel('chat');
    },
    [setPanel],
  );

  const createSession = useCallback(
    async (workspaceId: string) => {
      const result = await socket.request<'new_session'>({ type: 'new_session', workspaceId });
      open(result.sessionId);
      return result.sessionId;
    },
    [socket, open],
  );

  const revealEntry = useCallback(
    (id: string, entryId: string) =>
      store.dispatch({ type: 'reveal_entry', sessionId: id, entryId }),
    [store],
  );

  const sessionList = useSessionList({
    workspaces,
    sessionId,
    canCreate,
    open,
    createSession,
    revealEntry,
    report,
    clear,
    describeError,
  });
  const { refreshSessions } = sessionList;

  // First load: the session in the URL, else the first workspace's newest session, else a new one.
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const list = await listWorkspaces();
        if (!live) return;
        setWorkspaces(list);
        const byWorkspace = await refreshSessions(list);
        if (!live || sessionFromUrl()) return;
        const first = list[0];
        if (!first) return;
        const newest = byWorkspace[first.id]?.[0];
        if (newest) open(newest.id);
        else if (canCreate) await createSession(first.id);
      } catch (error) {
        report(describeError(error));
      }
    })();
    return () => {
      live = false;
    };
  }, [refreshSessions, open, createSession, report, canCreate]);

  const onListClosed = sessionList.onClosed;
  /** The server closed a session (deleted, gone): the list says so, and none is open any more. */
  const onClosed = useCallback(
    (closedId: string, reason: string) => {
      if (closedId !== sessionId) return;
      onListClosed(closedId, reason);
      setSessionId(null);
    },
    [sessionId, onListClosed],
  );

  return { workspaces, sessionId, open, createSession, sessionList, onClosed };
}

/** Keeps the session lists fresh when a run ends (first prompts, counts and times change). */
export function useListsAfterRuns(
  view: SessionView | null,
  workspaces: WorkspaceInfo[],
  refreshSessions: (list: WorkspaceInfo[]) => Promise<unknown>,
): void {
  const running = view?.state.isStreaming ?? false;
  const treeSize = view?.tree.length ?? 0;
  useEffect(() => {
    if (running || workspaces.length === 0) return;
    const timer = setTimeout(() => void refreshSessions(workspaces).catch(() => undefined), 150);
    return () => clearTimeout(timer);
  }, [running, treeSize, workspaces, refreshSessions, view?.sessionName]);
}
