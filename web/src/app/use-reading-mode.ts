import { useCallback, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { ArborSocket } from '../socket/arbor-socket';
import { missingBodies } from '../state/chat-items';
import { shownFor } from '../state/chat-window';
import { missingEditBodies } from '../state/context-edits';
import { missingCompactionBodies } from '../state/model-context';
import type { PageStore } from '../state/page-store';
import { readingView } from '../state/reading-view';
import type { SessionView } from '../state/session-reducer';
import type { SessionHandle } from './use-session';

/*
 * Reading another branch without moving the session's leaf (decision 076): the chat shows the
 * path to the entry being read, its newest bodies from one `get_path`, older ones fetched as the
 * chat reveals them, like the active path's. Nothing is written and no one else sees a change.
 */

export interface ReadingMode {
  /** The entry whose path the chat shows instead of the active path, or null. */
  entryId: string | null;
  /**
   * The view the chat draws: the reading path while reading, else the session's view. It lags
   * behind (an interruptible render after each update), so a big session's graph, the editor and
   * the controls never wait for dozens of markdown messages.
   */
  chatView: SessionView | null;
  read(entryId: string): void;
  /** Back to the current branch. */
  back(): void;
  /**
   * `action`, after going back to the current branch: a prompt goes to the session's leaf, and a
   * click that moves the leaf shows where it moved. The same function for the same action.
   */
  backThen<A extends unknown[]>(action: (...args: A) => void): (...args: A) => void;
}

export function useReadingMode(
  socket: ArborSocket,
  store: PageStore,
  session: Pick<SessionHandle, 'view' | 'loadBodies' | 'receiveMessages'>,
  fail: (error: unknown) => void,
  /** Brings the chat into sight (on a narrow screen the tree may be the panel shown). */
  showPanel: (panel: 'chat') => void,
): ReadingMode {
  const { loadBodies, receiveMessages } = session;
  const view = useDeferredValue(session.view);
  const reading = useStore(store, (state) => state.reading);
  const { dispatch } = store;
  const sessionId = view?.sessionId ?? null;
  // Reading belongs to one session, and to an entry it still has.
  const current =
    reading && reading.sessionId === sessionId && view?.byId.has(reading.entryId) ? reading : null;

  const read = useCallback(
    (entryId: string) => {
      if (!sessionId) return;
      dispatch({ type: 'read', sessionId, entryId });
      showPanel('chat');
      socket
        .request<'get_path'>({ type: 'get_path', sessionId, entryId })
        .then((answer) => {
          receiveMessages(sessionId, answer.messages);
          dispatch({ type: 'read_loaded', sessionId, entryId });
        })
        .catch((error: unknown) => {
          dispatch({ type: 'read_failed', entryId });
          fail(error);
        });
    },
    [socket, dispatch, sessionId, receiveMessages, fail, showPanel],
  );

  const back = useCallback(() => dispatch({ type: 'read_back' }), [dispatch]);

  const entryId = current?.entryId ?? null;
  const chatView = useMemo(
    () => (view && entryId ? readingView(view, entryId) : view),
    [view, entryId],
  );

  // Bodies the chat is about to draw on the read path, once `get_path` has given the newest.
  const shown = useStore(store, (state) => shownFor(state.chatWindow, sessionId));
  const missing =
    current?.loaded && chatView
      ? [
          ...missingBodies(chatView, shown),
          ...missingEditBodies(chatView),
          ...missingCompactionBodies(chatView),
        ]
      : [];
  const missingKey = missing.join(',');
  useEffect(() => {
    if (missingKey) loadBodies(missingKey.split(','));
  }, [missingKey, loadBodies]);

  // One wrapper per action, so a memoised component handed `backThen(action)` keeps its props.
  const wrappers = useRef(new WeakMap<object, unknown>());
  const backThen = useCallback(
    <A extends unknown[]>(action: (...args: A) => void) => {
      const cache = wrappers.current;
      let wrapped = cache.get(action) as ((...args: A) => void) | undefined;
      if (!wrapped) {
        wrapped = (...args: A) => {
          back();
          action(...args);
        };
        cache.set(action, wrapped);
      }
      return wrapped;
    },
    [back],
  );

  return useMemo(
    () => ({ entryId, chatView, read, back, backThen }),
    [entryId, chatView, read, back, backThen],
  );
}
