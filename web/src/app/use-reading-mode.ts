import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { ArborSocket } from '../socket/arbor-socket';
import { missingBodies } from '../state/chat-items';
import { shownFor } from '../state/chat-window';
import { missingEditBodies } from '../state/context-edits';
import { missingCompactionBodies } from '../state/model-context';
import { openView, readEntryId } from '../state/page-selectors';
import type { PageState } from '../state/page-store';
import { readingView } from '../state/reading-view';
import type { ReadingMode } from '../state/reading-view';
import { usePage, usePageStore } from '../state/use-page-store';
import type { SessionHandle } from './use-session';

/*
 * Reading another branch without moving the session's leaf (decision 076): the chat shows the
 * path to the entry being read, its newest bodies from one `get_path`, older ones fetched as the
 * chat reveals them, like the active path's. Nothing is written and no one else sees a change.
 */

/** Bodies the chat is about to draw on the read path, once `get_path` has given the newest. */
function readPathMissingKey(state: PageState): string {
  const view = openView(state);
  const entryId = readEntryId(state);
  if (!view || !entryId || !state.reading?.loaded) return '';
  const chatView = readingView(view, entryId);
  const shown = shownFor(state.chatWindow, view.sessionId);
  return [
    ...missingBodies(chatView, shown),
    ...missingEditBodies(chatView),
    ...missingCompactionBodies(chatView),
  ].join(',');
}

export function useReadingMode(
  socket: ArborSocket,
  session: Pick<SessionHandle, 'loadBodies' | 'receiveMessages'>,
  fail: (error: unknown) => void,
  /** Brings the chat into sight (on a narrow screen the tree may be the panel shown). */
  showPanel: (panel: 'chat') => void,
): ReadingMode {
  const { loadBodies, receiveMessages } = session;
  const store = usePageStore();
  const { dispatch } = store;
  const entryId = usePage(readEntryId);

  const read = useCallback(
    (entryId: string) => {
      const sessionId = openView(store.getState())?.sessionId;
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
    [socket, store, dispatch, receiveMessages, fail, showPanel],
  );

  const back = useCallback(() => dispatch({ type: 'read_back' }), [dispatch]);

  const missingKey = usePage(readPathMissingKey);
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

  return useMemo(() => ({ entryId, read, back, backThen }), [entryId, read, back, backThen]);
}
