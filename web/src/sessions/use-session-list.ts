import { useCallback, useRef } from 'react';
import type { SessionListItem, WorkspaceInfo } from '../../../shared/rest-shapes';
import {
  deleteSession,
  importSession,
  listSessions,
  renameSession,
  restoreSession,
} from '../api/rest';
import { usePageStore } from '../state/use-page-store';
import type { ReportOptions } from '../ui/report-options';
import { sessionTitle } from '../../../shared/session-title';

/** The longest title a notice quotes; longer ones are cut with an ellipsis. */
const NOTICE_TITLE_CHARS = 60;

export function shortTitle(title: string): string {
  const chars = [...title];
  return chars.length > NOTICE_TITLE_CHARS
    ? `${chars.slice(0, NOTICE_TITLE_CHARS - 1).join('')}…`
    : title;
}

/** The key of the notice that says a session is gone: cleared when that session opens again. */
export function closedNoticeKey(sessionId: string): string {
  return `closed:${sessionId}`;
}

interface SessionListDeps {
  canCreate: boolean;
  open(sessionId: string): void;
  createSession(workspaceId: string): Promise<string>;
  /** Shows an entry of a session without moving its leaf (a search hit). */
  revealEntry(sessionId: string, entryId: string): void;
  report(text: string, kind?: 'error' | 'info', options?: ReportOptions): void;
  clear(key: string): void;
  describeError(error: unknown): string;
}

/**
 * The session lists of every workspace (kept in the page store, which the sidebar reads), and the
 * list's own actions: rename, delete (to the trash, with an Undo that puts it back, open again if it
 * was open) and
 * the notice when the open session goes away.
 * The user's own delete is news, said once with its Undo; a session closed by anyone else (or a
 * delete in another tab) is an error, dropped as soon as that session is open again.
 */
export function useSessionList(deps: SessionListDeps) {
  const store = usePageStore();
  const depsRef = useRef(deps);
  depsRef.current = deps;
  /** Sessions this page is deleting: their closing is the user's own doing. */
  const ownDeletes = useRef(new Set<string>());

  const refreshSessions = useCallback(
    async (list: WorkspaceInfo[]) => {
      const entries = await Promise.all(
        list.map(async (w) => [w.id, await listSessions(w.id)] as const),
      );
      const byWorkspace = Object.fromEntries(entries) as Record<string, SessionListItem[]>;
      store.dispatch({ type: 'sessions_listed', sessions: byWorkspace });
      return byWorkspace;
    },
    [store],
  );

  /** Opens a session and drops any notice that said it was gone. */
  const reopen = useCallback((sessionId: string) => {
    ownDeletes.current.delete(sessionId);
    depsRef.current.clear(closedNoticeKey(sessionId));
    depsRef.current.open(sessionId);
  }, []);

  /** Opens a session at one of its entries (a search hit) without moving its leaf, or at its leaf. */
  const openAt = useCallback(
    (session: SessionListItem, entryId: string | undefined) => {
      reopen(session.id);
      if (entryId) depsRef.current.revealEntry(session.id, entryId);
    },
    [reopen],
  );

  const onClosed = useCallback((closedId: string, reason: string) => {
    if (reason === 'deleted' && ownDeletes.current.has(closedId)) return;
    depsRef.current.report(`This session is no longer available (${reason}).`, 'error', {
      key: closedNoticeKey(closedId),
    });
  }, []);

  const rename = useCallback(
    (session: SessionListItem, name: string) => {
      const { report, describeError } = depsRef.current;
      const { workspaces } = store.getState();
      renameSession(session.id, name)
        .then(() => refreshSessions(workspaces))
        .catch((error: unknown) => report(describeError(error)));
    },
    [store, refreshSessions],
  );

  const undoDelete = useCallback(
    (session: SessionListItem, trashed: string, wasOpen: boolean) => {
      const { report, describeError } = depsRef.current;
      restoreSession(session.workspaceId, trashed)
        .then(async (restored) => {
          await refreshSessions(store.getState().workspaces);
          // Undo puts things back as they were: the session opens again only if it was open.
          if (wasOpen) reopen(restored);
        })
        .catch((error: unknown) => report(describeError(error)));
    },
    [store, refreshSessions, reopen],
  );

  const remove = useCallback(
    (session: SessionListItem) => {
      const { report, describeError } = depsRef.current;
      const wasOpen = session.id === store.getState().openSessionId;
      ownDeletes.current.add(session.id);
      deleteSession(session.id)
        .then(async (trashed) => {
          report(`Moved “${shortTitle(sessionTitle(session))}” to the trash.`, 'info', {
            action: { label: 'Undo', run: () => undoDelete(session, trashed, wasOpen) },
          });
          const lists = await refreshSessions(store.getState().workspaces);
          if (!wasOpen) return;
          const next = lists[session.workspaceId]?.find((s) => s.id !== session.id);
          if (next) depsRef.current.open(next.id);
          else if (depsRef.current.canCreate)
            await depsRef.current.createSession(session.workspaceId);
        })
        .catch((error: unknown) => {
          ownDeletes.current.delete(session.id);
          report(describeError(error));
        });
    },
    [store, refreshSessions, undoDelete],
  );

  /** Imports a pi session file into a workspace and opens it. */
  const importFile = useCallback(
    (workspaceId: string, file: File) => {
      const { report, describeError } = depsRef.current;
      importSession(workspaceId, file)
        .then(async ({ sessionId, replacedId }) => {
          await refreshSessions(store.getState().workspaces);
          reopen(sessionId);
          report(
            replacedId === undefined
              ? `Imported “${shortTitle(file.name)}”.`
              : `Imported “${shortTitle(file.name)}” under a new id: a session of its id exists already.`,
            'info',
          );
        })
        .catch((error: unknown) =>
          report(`Could not import “${shortTitle(file.name)}”: ${describeError(error)}`),
        );
    },
    [store, refreshSessions, reopen],
  );

  return { refreshSessions, reopen, openAt, onClosed, rename, remove, importFile };
}
