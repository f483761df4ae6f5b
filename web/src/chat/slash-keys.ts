import { movedIndex } from './slash-menu';

/*
 * What a key does while the `/` menu is open, as a pure function of the key and the menu: the
 * editor keeps focus throughout and the menu's options are its active descendants (decision 086).
 */

export interface SlashKeyInput {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** An input method is composing: its keys are its own. */
  isComposing: boolean;
}

export type SlashKeyAction =
  | { type: 'move'; index: number }
  | { type: 'choose'; index: number }
  | { type: 'close' }
  /** The key is the editor's as usual (typing, Shift+Enter, Alt+Enter, the caret keys). */
  | null;

/**
 * Arrow and Page keys move the highlight, Enter or Tab (without modifiers) chooses the highlighted
 * item, Escape closes the menu. With the menu closed, or no item to offer, every key is the
 * editor's: Enter sends, Escape aborts a run.
 */
export function slashKeyAction(
  event: SlashKeyInput,
  menu: { open: boolean; count: number; index: number },
): SlashKeyAction {
  if (!menu.open || menu.count === 0 || event.isComposing) return null;
  const modified = event.shiftKey || event.altKey || event.ctrlKey || event.metaKey;
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp':
    case 'PageDown':
    case 'PageUp':
      return modified
        ? null
        : { type: 'move', index: movedIndex(menu.index, menu.count, event.key) };
    case 'Enter':
    case 'Tab':
      return modified ? null : { type: 'choose', index: Math.min(menu.index, menu.count - 1) };
    case 'Escape':
      return { type: 'close' };
    default:
      return null;
  }
}
