import { useCallback, useEffect, useMemo, useRef } from 'react';
import { SessionEntrySchema, type SessionEntry } from '../../../shared/session-entries';
import { shownFor } from '../state/chat-window';
import { missingBodies } from '../state/chat-items';
import { missingEditBodies } from '../state/context-edits';
import { missingCompactionBodies } from '../state/model-context';
import type { PathMessage } from '../../../shared/protocol';
import { openView } from '../state/page-selectors';
import type { PageState } from '../state/page-store';
import { usePage, usePageStore } from '../state/use-page-store';
import { CommandError, type ArborSocket } from '../socket/arbor-socket';

/*
 * Keeps the open session's view in step with the server: subscribes while the store's
 * `openSessionId` is open, feeds its frames to the page store's reducer, fetches the entry bodies
 * the chat draws and lacks, and resyncs after a gap. The session's state (usage, cost, queues)
 * comes pushed by the server (`state_changed`). The panes read the view from the store.
 */

export interface SessionHandle {
  /** Fetches the bodies of these entries unless already asked for (a click is about to need them). */
  loadBodies(ids: readonly string[]): void;
  /** Keeps bodies the page got otherwise (a `get_path` answer) for `sessionId`. */
  receiveMessages(sessionId: string, messages: PathMessage[]): void;
  /** `untilIdle`: true only while a run goes on; dropped when it ends. */
  notify(kind: 'error' | 'info', text: string, untilIdle?: boolean, sessionId?: string): void;
  dismiss(id: number): void;
}

/** A refusal because the session is running: true only until the run ends. */
export function isBusyRefusal(error: unknown): boolean {
  return error instanceof CommandError && error.code === 'session_busy';
}

/** The session a refused command was about, if it named one. */
export function sessionOfError(error: unknown): string | undefined {
  return error instanceof CommandError ? error.sessionId : undefined;
}

export function describeError(error: unknown): string {
  if (error instanceof CommandError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The bodies the chat is about to draw and the page lacks, as one key (a string, so the page
 * re-renders only when the list changes): older path messages than the snapshot carried once the
 * user reveals them, and the new path's after a leaf move or a compaction. Context edits on the
 * path too (the chat and the graph show them on the entries they change), and the path's last
 * compaction (its first kept entry tells what the model's context holds).
 */
function missingKeyOf(state: PageState): string {
  const live = openView(state);
  if (!live) return '';
  const shown = shownFor(state.chatWindow, live.sessionId);
  return [
    ...missingBodies(live, shown),
    ...missingEditBodies(live),
    ...missingCompactionBodies(live),
  ].join(',');
}

export function useSession(
  socket: ArborSocket,
  onClosed: (sessionId: string, reason: string) => void,
): SessionHandle {
  const { dispatch } = usePageStore();
  const sessionId = usePage((state) => state.openSessionId);
  const current = useRef(sessionId);
  const onClosedRef = useRef(onClosed);
  const requested = useRef(new Set<string>());

  useEffect(() => {
    current.current = sessionId;
    onClosedRef.current = onClosed;
  });

  useEffect(
    () =>
      socket.onFrame((frame) => {
        if (frame.sessionId !== current.current) return;
        switch (frame.type) {
          case 'snapshot':
            dispatch({ type: 'snapshot', snapshot: frame });
            return;
          case 'event':
            dispatch({ type: 'event', frame });
            return;
          case 'resync_required':
            void socket.resync(frame.sessionId).catch(() => undefined);
            return;
          case 'session_closed':
            dispatch({ type: 'closed', sessionId: frame.sessionId, reason: frame.reason });
            onClosedRef.current(frame.sessionId, frame.reason);
            return;
        }
      }),
    [socket, dispatch],
  );

  useEffect(() => {
    if (!sessionId) return;
    requested.current.clear();
    socket.subscribe(sessionId).catch((error: unknown) => {
      if (
        error instanceof CommandError &&
        (error.code === 'not_found' || error.code === 'forbidden')
      ) {
        dispatch({ type: 'closed', sessionId, reason: error.code });
        onClosedRef.current(sessionId, error.code);
        return;
      }
      dispatch({ type: 'notice', kind: 'error', text: describeError(error) });
    });
    return () => {
      void socket.unsubscribe(sessionId);
    };
  }, [socket, sessionId, dispatch]);

  // A gap in seqs: ask for a fresh snapshot.
  const needsResync = usePage((state) => openView(state)?.needsResync ?? false);
  useEffect(() => {
    if (needsResync && sessionId) void socket.resync(sessionId).catch(() => undefined);
  }, [needsResync, socket, sessionId]);

  /**
   * Fetches entry bodies the page has not asked for yet (once each, in batches of 500). The server
   * answers as many as fit one frame and defers the rest, which are asked for again at once.
   */
  const loadBodies = useCallback(
    (ids: readonly string[]) => {
      const sessionId = current.current;
      if (!sessionId) return;
      const wanted = ids.filter((id) => !requested.current.has(id));
      if (wanted.length === 0) return;
      wanted.forEach((id) => requested.current.add(id));
      const fetchBatch = (batch: string[]) => {
        socket
          .request<'get_entries'>({ type: 'get_entries', sessionId, ids: batch })
          .then((result) => {
            const entries: SessionEntry[] = [];
            // Ids the server no longer has, and entries that do not read as an entry, are
            // marked so the chat says so instead of waiting for them.
            for (const raw of result.entries) {
              const parsed = SessionEntrySchema.safeParse(raw);
              if (parsed.success) entries.push(parsed.data);
            }
            const read = new Set(entries.map((entry) => entry.id));
            const deferred = result.deferred ?? [];
            const later = new Set(deferred);
            const unavailable = batch.filter((id) => !read.has(id) && !later.has(id));
            if (current.current !== sessionId) return;
            dispatch({ type: 'entries_loaded', entries, unavailable });
            // Progress is certain: every answer carries at least one of the ids it was asked for.
            if (deferred.length > 0 && deferred.length < batch.length) fetchBatch(deferred);
            else deferred.forEach((id) => requested.current.delete(id));
          })
          .catch((error: unknown) => {
            // An answer that does not read would not read the next time either: the chat says
            // these bodies are unavailable, and the page says why once.
            if (error instanceof CommandError && error.code === 'bad_frame') {
              if (current.current !== sessionId) return;
              dispatch({ type: 'entries_loaded', entries: [], unavailable: batch });
              dispatch({ type: 'notice', kind: 'error', text: error.message });
            } else batch.forEach((id) => requested.current.delete(id));
          });
      };
      for (let i = 0; i < wanted.length; i += 500) fetchBatch(wanted.slice(i, i + 500));
    },
    [socket, dispatch],
  );

  const missingKey = usePage(missingKeyOf);
  useEffect(() => {
    if (sessionId && missingKey) loadBodies(missingKey.split(','));
  }, [sessionId, missingKey, loadBodies]);

  const receiveMessages = useCallback(
    (sessionId: string, messages: PathMessage[]) =>
      dispatch({ type: 'messages_loaded', sessionId, messages }),
    [dispatch],
  );
  const notify = useCallback(
    (kind: 'error' | 'info', text: string, untilIdle?: boolean, sessionId?: string) =>
      dispatch({
        type: 'notice',
        kind,
        text,
        ...(untilIdle ? { untilIdle } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
      }),
    [dispatch],
  );
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss_notice', id }), [dispatch]);
  return useMemo(
    () => ({ loadBodies, receiveMessages, notify, dismiss }),
    [loadBodies, receiveMessages, notify, dismiss],
  );
}
