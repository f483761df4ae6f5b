import { useCallback, useState } from 'react';
import type { Panel } from './TopBar';

/** The narrow layout, one panel at a time behind the Sessions/Chat/Tree tabs (styles.css). */
export const NARROW_LAYOUT = '(max-width: 900px)';

/**
 * The panel a narrow screen shows, and what a tap that fills the editor does there: on a phone
 * the editor sits behind the Chat tab, so the tap brings the Chat panel up with the editor
 * focused, ready to edit the prompt and send it again (decision 072). A wide screen shows every
 * panel and leaves the focus in the graph, where keyboard navigation goes on.
 */
export function usePanels() {
  const [panel, setPanel] = useState<Panel>('chat');
  /** Counts the requests to focus the editor; the editor focuses itself when it changes. */
  const [editorFocus, setEditorFocus] = useState(0);
  const editorFilled = useCallback(() => {
    if (typeof window === 'undefined' || !window.matchMedia(NARROW_LAYOUT).matches) return;
    setPanel('chat');
    setEditorFocus((count) => count + 1);
  }, []);
  return { panel, setPanel, editorFocus, editorFilled };
}
