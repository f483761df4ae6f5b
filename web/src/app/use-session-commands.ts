import { useCallback, type RefObject } from 'react';
import type { ModelRef } from '../../../shared/model-ref';
import { ThinkingLevelNameSchema } from '../../../shared/protocol';
import type { ArborSocket } from '../socket/arbor-socket';
import { activePathIds } from '../state/active-path';
import { openView, shownSessionId } from '../state/page-selectors';
import { usePage, usePageStore } from '../state/use-page-store';
import type { ForkCandidate } from './use-tree-navigation';

/**
 * What the chat toolbar and the graph's label dialog do in the open session (as the page store
 * holds it): label an entry, pick the model and thinking level, compact, fork, clone and start a
 * new session. A refusal reaches the user through `fail`; nothing is changed on the page before
 * the server has agreed.
 */
export function useSessionCommands({
  socket,
  open,
  createSession,
  setEditorText,
  forkCandidate,
  notify,
  fail,
}: {
  socket: ArborSocket;
  open(sessionId: string): void;
  createSession(workspaceId: string): Promise<string>;
  setEditorText(text: string): void;
  forkCandidate: RefObject<ForkCandidate | null>;
  notify(kind: 'error' | 'info', text: string): void;
  fail(error: unknown): void;
}) {
  const store = usePageStore();
  const currentId = usePage(shownSessionId);

  const setLabel = useCallback(
    (entryId: string, label: string | undefined) => {
      if (!currentId) return;
      socket
        .request<'set_label'>({
          type: 'set_label',
          sessionId: currentId,
          entryId,
          ...(label ? { label } : {}),
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const setModel = useCallback(
    (model: ModelRef) => {
      if (currentId)
        socket
          .request<'set_model'>({ type: 'set_model', sessionId: currentId, ...model })
          .catch(fail);
    },
    [currentId, socket, fail],
  );

  const setThinkingLevel = useCallback(
    (level: string) => {
      if (!currentId) return;
      const parsed = ThinkingLevelNameSchema.safeParse(level);
      if (!parsed.success) return;
      socket
        .request<'set_thinking_level'>({
          type: 'set_thinking_level',
          sessionId: currentId,
          level: parsed.data,
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const compact = useCallback(
    (instructions?: string) => {
      if (!currentId) return;
      socket
        .request<'compact'>({
          type: 'compact',
          sessionId: currentId,
          ...(instructions ? { customInstructions: instructions } : {}),
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const forkAt = useCallback(
    (entryId: string) => {
      if (!currentId) return;
      socket
        .request<'fork'>({ type: 'fork', sessionId: currentId, entryId })
        .then((result) => {
          open(result.sessionId);
          setEditorText(result.editorText);
        })
        .catch(fail);
    },
    [currentId, socket, open, fail, setEditorText],
  );

  /** Forks at the prompt a click last handed back, else at the newest prompt on the path. */
  const forkLatest = useCallback(() => {
    const view = openView(store.getState());
    if (!view) return;
    const candidate = forkCandidate.current;
    if (candidate && candidate.leafId === view.leafId && view.byId.has(candidate.entryId)) {
      forkAt(candidate.entryId);
      return;
    }
    const path = activePathIds(view);
    for (let i = path.length - 1; i >= 0; i--) {
      const node = view.byId.get(path[i]!);
      if (node?.type === 'message' && node.role === 'user') {
        forkAt(node.id);
        return;
      }
    }
    notify('info', 'There is no prompt on this branch to fork from yet.');
  }, [store, forkAt, notify, forkCandidate]);

  const clone = useCallback(() => {
    if (!currentId) return;
    socket
      .request<'clone'>({ type: 'clone', sessionId: currentId })
      .then((result) => open(result.sessionId))
      .catch(fail);
  }, [currentId, socket, open, fail]);

  const newSession = useCallback(() => {
    const state = store.getState();
    const workspaceId = openView(state)?.workspaceId ?? state.workspaces[0]?.id;
    if (!workspaceId) return;
    setEditorText('');
    createSession(workspaceId).catch(fail);
  }, [store, createSession, fail, setEditorText]);

  return { setLabel, setModel, setThinkingLevel, compact, forkLatest, clone, newSession };
}
