import { useCallback } from 'react';
import { SessionEntrySchema } from '../../../shared/session-entries';
import type { ArborSocket } from '../socket/arbor-socket';
import { openView } from '../state/page-selectors';
import { usePageStore } from '../state/use-page-store';
import { entryCopyText, messageCopyText } from '../tree/copy-text';
import { describeError } from './use-session';

/**
 * "Copy text" of a graph node: the entry's text (its body when the page has it, else asked of
 * the server, else its preview) put on the clipboard. Resolves to whether it was; a failure is
 * said in a notice.
 */
export function useCopyEntry(
  socket: ArborSocket,
  notify: (kind: 'error' | 'info', text: string) => void,
): (entryId: string) => Promise<boolean> {
  const store = usePageStore();
  return useCallback(
    async (entryId: string) => {
      const view = openView(store.getState());
      if (!view) return false;
      try {
        const body = view.bodies.get(entryId);
        let text = body ? messageCopyText(body) : '';
        if (!body) {
          const answer = await socket.request<'get_entries'>({
            type: 'get_entries',
            sessionId: view.sessionId,
            ids: [entryId],
          });
          const entry = SessionEntrySchema.safeParse(answer.entries[0]);
          if (entry.success) text = entryCopyText(entry.data);
        }
        text ||= view.byId.get(entryId)?.preview ?? '';
        if (!text) {
          notify('info', 'This node has no text to copy.');
          return false;
        }
        // The clipboard exists only in a secure context (https, or loopback).
        if (!navigator.clipboard) throw new Error('the browser allows copying only over https');
        await navigator.clipboard.writeText(text);
        return true;
      } catch (error) {
        notify('error', `Could not copy the node's text: ${describeError(error)}`);
        return false;
      }
    },
    [store, socket, notify],
  );
}
