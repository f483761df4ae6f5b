import { useMemo } from 'react';
import type { ContextEditActions } from '../chat/ContextEditControls';
import type { ArborSocket } from '../socket/arbor-socket';
import { contextEditsKey, contextEditsOnPath, type ContextEditShown } from '../state/context-edits';
import { activePathIds } from '../state/active-path';
import { historyOnlyKey, modelContextOnPath } from '../state/model-context';
import { openView, shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';

/*
 * The page's side of context edits (decision 064): the `edit_context` command for those who may
 * act in the session, and the edits in effect on the active path for the graph's nodes, with
 * the entries the model's context no longer holds.
 */

/**
 * The actions the chat offers on its messages (undefined for a user who may not act), and the
 * edits in effect on the open session's active path (read from the page store), the same object
 * while what they show is the same.
 */
export function useContextEdits(
  socket: ArborSocket,
  canWrite: boolean,
  fail: (error: unknown) => void,
): {
  actions: ContextEditActions | undefined;
  marks: ReadonlyMap<string, ContextEditShown>;
  /** Entries of the active path only in history (a compaction summarised them; decision 076). */
  historyOnly: ReadonlySet<string>;
} {
  const sessionId = usePage(shownSessionId);
  const idle = usePage((state) => {
    const view = openView(state);
    return view ? !view.state.isStreaming && !view.state.isCompacting : false;
  });
  const actions = useMemo((): ContextEditActions | undefined => {
    if (!sessionId || !canWrite) return undefined;
    return {
      idle,
      edit: (targetId, content) => {
        socket
          .request<'edit_context'>({ type: 'edit_context', sessionId, targetId, content })
          .catch(fail);
      },
    };
  }, [socket, sessionId, canWrite, idle, fail]);
  // Walked again only when the path, its bodies or its edits change (not on every streamed delta).
  const byId = usePage((state) => openView(state)?.byId);
  const leafId = usePage((state) => openView(state)?.leafId ?? null);
  const bodies = usePage((state) => openView(state)?.bodies);
  const contextEdits = usePage((state) => openView(state)?.contextEdits);
  const compactions = usePage((state) => openView(state)?.compactions);
  const { context, edits } = useMemo(() => {
    if (!byId || !bodies || !contextEdits || !compactions)
      return { context: undefined, edits: new Map<string, ContextEditShown>() };
    const shown = { byId, leafId, bodies, contextEdits, compactions };
    const path = activePathIds(shown);
    const context = modelContextOnPath(shown, path);
    return { context, edits: contextEditsOnPath(shown, context, path) };
  }, [byId, leafId, bodies, contextEdits, compactions]);
  const key = contextEditsKey(edits);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const marks = useMemo(() => edits, [key]);
  const historyKey = historyOnlyKey(context);
  const historyOnly = useMemo(
    () => context?.historyOnly ?? new Set<string>(),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [historyKey],
  );
  return { actions, marks, historyOnly };
}
