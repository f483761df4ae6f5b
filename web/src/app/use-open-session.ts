import { useCallback, useEffect } from 'react';
import type { WorkspaceInfo } from '../../../shared/rest-shapes';
import { listWorkspaces } from '../api/rest';
import type { ArborSocket } from '../socket/arbor-socket';
import { openView } from '../state/page-selectors';
import { usePage, usePageStore } from '../state/use-page-store';
import { useSessionList } from '../sessions/use-session-list';
import { sessionFromUrl, showSessionInUrl } from './session-url';
import type { Panel } from './TopBar';
import type { ReportOptions } from '../ui/report-options';
import { describeError } from './use-session';

/**
 * Which session the page has open, and the lists it is chosen from: the workspaces, their
 * sessions (with rename, delete and its undo), and the first load, which opens the session in the
 * URL, else the first workspace's newest session, else a new one. All of it is kept in the page
 * store (`openSessionId`, `workspaces`, `sessions`; decision 093), which the panes read.
 */
export function useOpenSession({
  socket,
  canCreate,
  setPanel,
  report,
  clear,
}: {
  socket: ArborSocket;
  canCreate: boolean;
  setPanel(panel: Panel): void;
  report(text: string, kind?: 'error' | 'info', options?: ReportOptions): void;
  clear(key: string): void;
}) {
  const store = usePageStore();
  const { dispatch } = store;

  const open = useCallback(
    (id: string) => {
      dispatch({ type: 'open_session', sessionId: id });
      showSessionInUrl(id);
      setPanel('chat');
    },
    [dispatch, setPanel],
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
    (id: string, entryId: string) => dispatch({ type: 'reveal_entry', sessionId: id, entryId }),
    [dispatch],
  );

  const sessionList = useSessionList({
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
        dispatch({ type: 'workspaces_listed', workspaces: list });
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
  }, [dispatch, refreshSessions, open, createSession, report, canCreate]);

  const onListClosed = sessionList.onClosed;
  /** The server closed a session (deleted, gone): the list says so, and none is open any more. */
  const onClosed = useCallback(
    (closedId: string, reason: string) => {
      if (closedId !== store.getState().openSessionId) return;
      onListClosed(closedId, reason);
      dispatch({ type: 'close_session', sessionId: closedId });
    },
    [store, dispatch, onListClosed],
  );

  return { open, createSession, revealEntry, sessionList, onClosed };
}

/** Keeps the session lists fresh when a run ends (first prompts, counts and times change). */
export function useListsAfterRuns(
  refreshSessions: (list: WorkspaceInfo[]) => Promise<unknown>,
): void {
  const workspaces = usePage((state) => state.workspaces);
  const running = usePage((state) => openView(state)?.state.isStreaming ?? false);
  const treeSize = usePage((state) => openView(state)?.tree.length ?? 0);
  const sessionName = usePage((state) => openView(state)?.sessionName);
  useEffect(() => {
    if (running || workspaces.length === 0) return;
    const timer = setTimeout(() => void refreshSessions(workspaces).catch(() => undefined), 150);
    return () => clearTimeout(timer);
  }, [running, treeSize, workspaces, refreshSessions, sessionName]);
}
