import { describe, expect, it } from 'vitest';
import { resolveNavigation } from '../server/agent/navigation.js';
import { SessionStore } from '../server/store/session-store.js';
import {
  assistantMessage,
  toolResultMessage,
  userMessage,
} from '../server/test-support/messages.js';
import { clickOutcome, clickTargetOf, editorContentOf } from './click-rule.js';
import { messageOfEntry } from './entry-messages.js';
import type { TreeNode } from './session-entries.js';

function node(
  spec: { id: string; role?: string; type?: string },
  parentId: string | null,
): TreeNode {
  const type = spec.type ?? 'message';
  return {
    id: spec.id,
    parentId,
    type,
    ...(type === 'message' ? { role: spec.role ?? 'user' } : {}),
    preview: spec.id,
    timestamp: '2026-01-01T00:00:00.000Z',
  };
}

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

describe('the server moves the leaf by the same rule the page applies', () => {
  const image = { type: 'image' as const, data: 'aGk=', mimeType: 'image/png' };
  const store = SessionStore.inMemory();
  store.appendMessage(userMessage('root prompt'));
  const call = store.appendMessage(
    assistantMessage('', { toolCalls: [{ id: 'c1', name: 'bash' }] }),
  );
  store.appendMessage(toolResultMessage('c1', 'done'));
  store.appendMessage(assistantMessage('answer'));
  store.appendMessage({
    role: 'user',
    content: [{ type: 'text', text: 'look at this' }, image],
    timestamp: 1,
  });
  store.appendCustomMessageEntry('note', 'a custom note', true);
  store.appendModelChange('demo', 'other-model');
  store.appendCompaction('summary of it all', call, 100);

  it.each(store.getTree().map((treeNode) => [treeNode.type, treeNode.role ?? '', treeNode.id]))(
    'a %s %s entry: the leaf lands where the page expects and the editor gets its message',
    (_type, _role, id) => {
      const treeNode = store.getNode(id)!;
      const entry = store.getEntry(id)!;
      const outcome = clickOutcome(treeNode);
      expect(clickTargetOf(entry)).toEqual({
        id: treeNode.id,
        parentId: treeNode.parentId,
        type: treeNode.type,
        ...(treeNode.role !== undefined && treeNode.type === 'message'
          ? { role: treeNode.role }
          : {}),
      });
      const plan = resolveNavigation(store, id);
      expect(plan.newLeafId).toBe(outcome.newLeafId);
      const editor = outcome.fillsEditor ? editorContentOf(messageOfEntry(entry)) : null;
      expect(plan.editorText).toBe(editor?.text);
      expect(plan.editorImages ?? []).toEqual(editor?.images ?? []);
    },
  );

  it('a prompt with an image hands back its text and the image', () => {
    const prompt = store.getTree().find((n) => n.preview.startsWith('look at this'))!;
    expect(resolveNavigation(store, prompt.id)).toMatchObject({
      editorText: 'look at this',
      editorImages: [image],
    });
    expect(editorContentOf(messageOfEntry(store.getEntry(prompt.id)!))).toEqual({
      text: 'look at this',
      images: [image],
    });
  });

  it('an answer gives the editor nothing', () => {
    expect(editorContentOf(assistantMessage('no'))).toBeNull();
    expect(editorContentOf(undefined)).toBeNull();
  });
});
