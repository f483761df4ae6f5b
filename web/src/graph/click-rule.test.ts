import { describe, expect, it } from 'vitest';
import { clickOutcome } from './click-rule';
import { node } from '../test-support/tree-builder';

describe('clickOutcome', () => {
  it('a click on a user node moves the leaf to its parent and fills the editor', () => {
    expect(clickOutcome(node({ id: 'u', role: 'user' }, 'a'))).toEqual({
      targetId: 'u',
      newLeafId: 'a',
      fillsEditor: true,
    });
  });

  it('a click on the root prompt empties the conversation and fills the editor', () => {
    expect(clickOutcome(node({ id: 'u', role: 'user' }, null))).toEqual({
      targetId: 'u',
      newLeafId: null,
      fillsEditor: true,
    });
  });

  it('a custom message behaves like a user message', () => {
    expect(clickOutcome(node({ id: 'c', type: 'custom_message' }, 'p')).newLeafId).toBe('p');
  });

  it.each([
    ['assistant', 'message'],
    ['toolResult', 'message'],
    [undefined, 'compaction'],
    [undefined, 'branch_summary'],
    [undefined, 'model_change'],
  ])('a click on a %s %s node makes it the leaf and leaves the editor', (role, type) => {
    const entry = node(role ? { id: 'n', role, type } : { id: 'n', type }, 'p');
    expect(clickOutcome(entry)).toEqual({ targetId: 'n', newLeafId: 'n', fillsEditor: false });
  });
});
