import {
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { applySlashChoice, filterSlashItems, slashQuery, type SlashItem } from './slash-menu';
import { slashKeyAction } from './slash-keys';

/** What the editor's text area needs from the `/` menu. */
export interface SlashMenuState {
  /** The user is typing a command name at the start of the editor. */
  typing: boolean;
  open: boolean;
  options: SlashItem[];
  activeIndex: number;
  listId: string;
  optionId(index: number): string;
  choose(index: number): void;
  /** The text area's ARIA attributes: it stays a textbox, the menu its popup (decision 086). */
  ariaProps: {
    'aria-autocomplete': 'list';
    'aria-haspopup': 'listbox';
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
  };
  /** Handles the key when the menu is open and the key is the menu's; true when it did. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Follows the caret: the menu offers the name the caret is in. */
  onCaret(event: SyntheticEvent<HTMLTextAreaElement>): void;
}

/**
 * The `/` menu of the editor: open while the user types a command name at the start of the
 * editor and something matches, closed by Escape until the name changes. Only text the user typed
 * opens it: a prompt handed back by a click on the graph does not.
 */
export function useSlashMenu({
  value,
  items,
  onChange,
  area,
}: {
  value: string;
  items: readonly SlashItem[];
  onChange(value: string): void;
  area: RefObject<HTMLTextAreaElement | null>;
}): SlashMenuState {
  const baseId = useId();
  const listId = `${baseId}slash`;
  // The text and caret as of the user's last edit or caret move in the editor.
  const [typed, setTyped] = useState<{ text: string; caret: number } | null>(null);
  const [active, setActive] = useState({ query: '', index: 0 });
  const [dismissed, setDismissed] = useState<string | null>(null);
  const caretAfterChoice = useRef<number | null>(null);

  const query = typed && typed.text === value ? slashQuery(value, typed.caret) : null;
  const options = useMemo(
    () => (query === null ? [] : filterSlashItems(items, query)),
    [items, query],
  );
  const open = query !== null && options.length > 0 && dismissed !== value;
  // The highlight starts on the best match each time the name typed changes.
  const activeIndex =
    active.query === query ? Math.min(active.index, Math.max(0, options.length - 1)) : 0;

  const optionId = useCallback((index: number) => `${listId}-${index}`, [listId]);

  const choose = useCallback(
    (index: number) => {
      const item = options[index];
      if (!item) return;
      const next = applySlashChoice(value, item);
      caretAfterChoice.current = next.caret;
      setTyped({ text: next.text, caret: next.caret });
      onChange(next.text);
    },
    [options, value, onChange],
  );

  // After a choice, the caret goes after `/name ` once React has put the text in.
  useLayoutEffect(() => {
    const caret = caretAfterChoice.current;
    const element = area.current;
    if (caret === null || !element || element.value.length < caret) return;
    caretAfterChoice.current = null;
    element.setSelectionRange(caret, caret);
  });

  const onCaret = useCallback((event: SyntheticEvent<HTMLTextAreaElement>) => {
    const element = event.currentTarget;
    setTyped({ text: element.value, caret: element.selectionStart });
  }, []);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      const action = slashKeyAction(
        {
          key: event.key,
          shiftKey: event.shiftKey,
          altKey: event.altKey,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          isComposing: event.nativeEvent.isComposing,
        },
        { open, count: options.length, index: activeIndex },
      );
      if (!action) return false;
      event.preventDefault();
      if (action.type === 'move') setActive({ query: query ?? '', index: action.index });
      else if (action.type === 'choose') choose(action.index);
      else setDismissed(value);
      return true;
    },
    [open, options.length, activeIndex, query, choose, value],
  );

  return {
    typing: query !== null,
    open,
    options,
    activeIndex,
    listId,
    optionId,
    choose,
    ariaProps: {
      'aria-autocomplete': 'list',
      'aria-haspopup': 'listbox',
      ...(open ? { 'aria-controls': listId, 'aria-activedescendant': optionId(activeIndex) } : {}),
    },
    onKeyDown,
    onCaret,
  };
}
