import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { clickOutcome, editorContentOf, isEditableMessage } from '../../../shared/click-rule';
import type { TreeNode } from '../../../shared/session-entries';
import type { ArborSocket } from '../socket/arbor-socket';
import { activePathIds } from '../state/active-path';
import { openView } from '../state/page-selectors';
import { usePageStore } from '../state/use-page-store';
import type { SummaryChoice } from '../tree/TreeToolbar';
import type { EditorContent } from './use-editor-commands';

/** The prompt last handed back to the editor by a click, and where the leaf was left. */
export interface ForkCandidate {
  entryId: string;
  leafId: string | null;
}

/**
 * A click on an entry, under the click rule (shared/click-rule.ts): the leaf moves, a prompt's
 * text comes back into the editor at once (undone if the server refuses the move), and a summary
 * of the branch left behind is asked for when the user chose one. `prefetch` fetches a prompt's
 * body while the pointer rests on it, so the click fills the editor at once.
 */
export function useTreeNavigation({
  socket,
  editor,
  editorFilled,
  loadBodies,
  fail,
}: {
  socket: ArborSocket;
  editor: EditorContent;
  /** The editor was filled by a click (on a narrow screen it comes into sight). */
  editorFilled(): void;
  loadBodies(ids: readonly string[]): void;
  fail(error: unknown): void;
}): {
  navigate(entry: TreeNode, summary: SummaryChoice): void;
  /**
   * A prompt sent again: the leaf moves as a click on it moves it, and its text and images are
   * sent at once, as a new branch. The editor and its draft are left alone.
   */
  rerun(entry: TreeNode): void;
  prefetch(entry: TreeNode): void;
  /** "Fork" forks at it while the leaf stays where that click left it. */
  forkCandidate: RefObject<ForkCandidate | null>;
} {
  const { setText: setEditorText, setImages, setDraft } = editor;
  // The view is read from the store when a click comes, so the graph's callbacks stay stable
  // while messages stream.
  const store = usePageStore();
  // The editor's content as of the last render, for a click that fills it and may have to undo.
  const editorRef = useRef({ text: editor.text, images: editor.images, draft: editor.draft });
  useEffect(() => {
    editorRef.current = { text: editor.text, images: editor.images, draft: editor.draft };
  });
  /** The text the last click put in the editor: left as it was, it is no draft of the user's. */
  const lastFill = useRef<string | null>(null);
  const forkCandidate = useRef<ForkCandidate | null>(null);

  const navigate = useCallback(
    (entry: TreeNode, summary: SummaryChoice) => {
      const view = openView(store.getState());
      if (!view) return;
      const outcome = clickOutcome(entry);
      // A summary only makes sense when the old leaf is left behind on another branch.
      const leavesBranch =
        view.leafId !== null &&
        (outcome.newLeafId === null ||
          !activePathIds({ byId: view.byId, leafId: outcome.newLeafId }).includes(view.leafId));
      const summarize = summary.mode !== 'none' && leavesBranch;
      // The prompt's text goes into the editor at once when its body is at hand (the server's
      // answer confirms it); if the move is refused, the editor gets back what it held.
      const filled = outcome.fillsEditor ? editorContentOf(view.bodies.get(entry.id)) : null;
      const before = editorRef.current;
      if (outcome.fillsEditor) editorFilled();
      if (filled) {
        // What the user typed and has not sent is kept aside, and offered back ("Restore draft").
        const typed = before.text.trim() !== '' || before.images.length > 0;
        if (typed && before.text !== lastFill.current && before.text !== filled.text)
          setDraft({ text: before.text, images: before.images });
        lastFill.current = filled.text;
        setEditorText(filled.text);
        setImages(filled.images);
      }
      const undo = (): void => {
        if (!filled) return;
        setEditorText((current) => (current === filled.text ? before.text : current));
        setImages((current) => (current === filled.images ? before.images : current));
        setDraft(before.draft);
      };
      socket
        .request<'navigate_tree'>({
          type: 'navigate_tree',
          sessionId: view.sessionId,
          targetId: outcome.targetId,
          ...(summarize ? { summarize: true } : {}),
          ...(summarize && summary.mode === 'custom' && summary.instructions.trim()
            ? { customInstructions: summary.instructions.trim() }
            : {}),
        })
        .then((result) => {
          if (!outcome.fillsEditor) return;
          if (result.cancelled) {
            undo();
            return;
          }
          const text = result.editorText ?? '';
          if (!filled || filled.text !== text) setEditorText(text);
          if (!filled) setImages(result.editorImages ?? []);
          forkCandidate.current = { entryId: entry.id, leafId: outcome.newLeafId };
        })
        .catch((error: unknown) => {
          undo();
          fail(error);
        });
    },
    [socket, store, fail, editorFilled, setEditorText, setImages, setDraft],
  );

  const rerun = useCallback(
    (entry: TreeNode) => {
      const view = openView(store.getState());
      if (!view || !isEditableMessage(entry)) return;
      const { sessionId } = view;
      socket
        .request<'navigate_tree'>({
          type: 'navigate_tree',
          sessionId,
          targetId: clickOutcome(entry).targetId,
        })
        .then((result) => {
          if (result.cancelled) return;
          const images = result.editorImages ?? [];
          return socket.request<'prompt'>({
            type: 'prompt',
            sessionId,
            text: result.editorText ?? '',
            ...(images.length ? { images } : {}),
          });
        })
        .catch(fail);
    },
    [socket, store, fail],
  );

  // A pointer resting on a prompt whose body the page lacks: fetch it so a click fills at once.
  const prefetch = useCallback(
    (entry: TreeNode) => {
      const view = openView(store.getState());
      if (view && isEditableMessage(entry) && !view.bodies.has(entry.id)) loadBodies([entry.id]);
    },
    [store, loadBodies],
  );

  return { navigate, rerun, prefetch, forkCandidate };
}
