import { describe, expect, it } from 'vitest';
import { slashKeyAction, type SlashKeyInput } from './slash-keys';

function key(name: string, modifiers: Partial<SlashKeyInput> = {}): SlashKeyInput {
  return {
    key: name,
    shiftKey: false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    isComposing: false,
    ...modifiers,
  };
}

const OPEN = { open: true, count: 3, index: 1 };

describe('slashKeyAction', () => {
  it('moves the highlight with the arrow keys', () => {
    expect(slashKeyAction(key('ArrowDown'), OPEN)).toEqual({ type: 'move', index: 2 });
    expect(slashKeyAction(key('ArrowUp'), OPEN)).toEqual({ type: 'move', index: 0 });
    expect(slashKeyAction(key('ArrowDown'), { ...OPEN, index: 2 })).toEqual({
      type: 'move',
      index: 0,
    });
  });

  it('chooses the highlighted item with Enter or Tab', () => {
    expect(slashKeyAction(key('Enter'), OPEN)).toEqual({ type: 'choose', index: 1 });
    expect(slashKeyAction(key('Tab'), OPEN)).toEqual({ type: 'choose', index: 1 });
  });

  it('closes with Escape', () => {
    expect(slashKeyAction(key('Escape'), OPEN)).toEqual({ type: 'close' });
  });

  it('leaves Shift+Enter, Alt+Enter, Shift+Tab and typing to the editor', () => {
    expect(slashKeyAction(key('Enter', { shiftKey: true }), OPEN)).toBeNull();
    expect(slashKeyAction(key('Enter', { altKey: true }), OPEN)).toBeNull();
    expect(slashKeyAction(key('Tab', { shiftKey: true }), OPEN)).toBeNull();
    expect(slashKeyAction(key('a'), OPEN)).toBeNull();
    expect(slashKeyAction(key('ArrowLeft'), OPEN)).toBeNull();
  });

  it('leaves every key to the editor while the menu is closed or empty, or an IME composes', () => {
    for (const name of ['Enter', 'Tab', 'Escape', 'ArrowDown']) {
      expect(slashKeyAction(key(name), { ...OPEN, open: false })).toBeNull();
      expect(slashKeyAction(key(name), { ...OPEN, count: 0 })).toBeNull();
      expect(slashKeyAction(key(name, { isComposing: true }), OPEN)).toBeNull();
    }
  });
});
