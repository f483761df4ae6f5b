import { useCallback, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { ArborSocket } from '../socket/arbor-socket';
import { missingBodies } from '../state/chat-items';
import { shownFor } from '../state/chat-window';
import { missingEditBodies } from '../state/context-edits';
import { missingCompactionBodies } from '../state/model-context';
import type { PageStore } from '../state/page-store';
import { readingView } from '../state/reading-view';
import type { ReadingMode } from '../state/reading-view';
import type { SessionHandle } from './use-session';

/*
 * Reading another branch without moving the session's leaf (decision 076): the chat shows the
 * path to the entry being read, its newest bodies from one `get_path`, older ones fetched as the
 * chat reveals them, like the active path's. Nothing is written and no one else sees a change.
 */

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
