import { createContext } from 'react';

/*
 * What a drawn node may ask of the graph around it. Passed by context so that node components stay
 * memoised on their data alone.
 */
export interface TreeActions {
  /** A click or Enter on a node: the click rule for entries, open for folds. */
  activate(nodeId: string): void;
  /** Show the path to an entry in the chat without moving the leaf (reading mode). */
  read(entryId: string): void;
  /** The pointer rests on a node: fetch ahead what a click on it will need. */
  prefetch(nodeId: string): void;
  /** Open the label editor for an entry. */
  editLabel(entryId: string): void;
  /** Open an entry's menu (NodeMenu) beside `anchor`. */
  openMenu(entryId: string, anchor: HTMLElement): void;
  /** The entry whose menu is open, if any. */
  menuFor: string | null;
  /** The node keyboard focus is on (roving tabindex). */
  focusedId: string | null;
  setFocused(nodeId: string): void;
  readOnly: boolean;
}

export const TreeActionsContext = createContext<TreeActions>({
  activate: () => undefined,
  read: () => undefined,
  prefetch: () => undefined,
  editLabel: () => undefined,
  openMenu: () => undefined,
  menuFor: null,
  focusedId: null,
  setFocused: () => undefined,
  readOnly: true,
});
