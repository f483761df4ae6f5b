import { useCallback, useState } from 'react';
import type { Panel } from './TopBar';

/** The narrow layout, one panel at a time behind the Sessions/Chat/Tree tabs (styles.css). */
export const NARROW_LAYOUT = '(max-width: 900px)';

/**
 * What a tap that fills the editor does on a narrow screen: the editor sits behind the Chat tab
 * there, so the tap brings the Chat panel up with the editor focused, ready to edit the prompt and
 * send it again (decision 072). A wide screen shows every panel and leaves the focus in the graph,
 * where keyboard navigation goes on.
 */
export function useEditorAfterTap(setPanel: (panel: Panel) => void) {
  /** Counts the requests to focus the editor; the editor focuses itself when it changes. */
  const [editorFocus, setEditorFocus] = useState(0);
  const editorFilled = useCallback(() => {
    if (typeof window === 'undefined' || !window.matchMedia(NARROW_LAYOUT).matches) return;
    setPanel('chat');
    setEditorFocus((count) => count + 1);
  }, [setPanel]);
  /** Focuses the editor, on any screen (it comes into sight on a narrow one). */
  const focusEditor = useCallback(() => {
    setPanel('chat');
    setEditorFocus((count) => count + 1);
  }, [setPanel]);
  return { editorFocus, editorFilled, focusEditor };
}
