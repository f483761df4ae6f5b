import { useDeferredValue, useMemo } from 'react';
import { openView, readEntryIn } from '../state/page-selectors';
import { readingView } from '../state/reading-view';
import type { SessionView } from '../state/session-reducer';
import { usePage } from '../state/use-page-store';

/**
 * What the chat draws: the path to the entry being read while reading (decision 076), else the
 * open session's view. It lags behind the store (an interruptible render after each update), so
 * a big session's graph, the editor and the controls never wait for dozens of markdown messages.
 */
export function useChatView(): {
  /** The view the chat draws, null before the open session's first snapshot. */
  chatView: SessionView | null;
  /** The entry read as of `chatView`, or null on the active path. */
  entryId: string | null;
} {
  const view = useDeferredValue(usePage(openView));
  const reading = usePage((state) => state.reading);
  const entryId = readEntryIn(view, { reading });
  const chatView = useMemo(
    () => (view && entryId ? readingView(view, entryId) : view),
    [view, entryId],
  );
  return { chatView, entryId };
}
