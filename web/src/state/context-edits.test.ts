import { describe, expect, it } from 'vitest';
import type { ContextEditEntry } from '../../../shared/session-entries';
import { assistantMessage, snapshot, userMessage } from '../test-support/snapshot-builder';
import { chain, node } from '../test-support/tree-builder';
import { chatItems } from './chat-items';
import { contextEditsOnPath, missingEditBodies } from './context-edits';
import { sessionReducer, type SessionView } from './session-reducer';

/*
 * What the page shows of context edits: the latest edit of a message on the active path, a hide
 * or a replacement; an edit that writes the message's own content back is an undo; edits on
 * another branch do not count; edit bodies the page lacks are fetched.
 */

const hello = userMessage('hello');

function edit(id: string, targetId: string, replacement: ContextEditEntry['replacement']) {
  return {
    type: 'context_edit',
    id,
    parentId: null,
    timestamp: '2026-01-01T00:00:00.000Z',
    targetId,
    replacement,
  } satisfies ContextEditEntry;
}

function viewWith(
  editIds: string[],
  edits: ContextEditEntry[],
  leafId = editIds.at(-1) ?? 'a1',
): SessionView {
  const tree = [
    ...chain(null, [
      { id: 'u1', role: 'user', preview: 'hello' },
      { id: 'a1', role: 'assistant', preview: 'hi' },
    ]),
  ];
  let parent = 'a1';
  for (const id of editIds) {
    tree.push(node({ id, type: 'context_edit', preview: 'edit' }, parent));
    parent = id;
  }
  tree.push(node({ id: 'u9', role: 'user', preview: 'other branch' }, 'a1'));
  const opened = sessionReducer(null, {
    type: 'snapshot',
    snapshot: snapshot(tree, leafId, {
      messages: [
        { entryId: 'u1', message: hello },
        { entryId: 'a1', message: assistantMessage('hi') },
      ],
    }),
  })!;
  return sessionReducer(opened, { type: 'entries_loaded', entries: edits })!;
}

describe('context edits on the page', () => {
  it('shows a hidden message and a replaced one on the messages they change', () => {
    const view = viewWith(
      ['e1', 'e2'],
      [edit('e1', 'u1', null), edit('e2', 'a1', { content: [{ type: 'text', text: 'short' }] })],
    );
    const items = chatItems(view);
    expect(items.map((item) => [item.entryId, item.contextEdit])).toEqual([
      ['u1', { kind: 'hidden' }],
      ['a1', { kind: 'replaced', text: 'short' }],
    ]);
  });

  it('takes the latest edit of a message, and an edit back to its own content as an undo', () => {
    const view = viewWith(
      ['e1', 'e2'],
      [edit('e1', 'u1', null), edit('e2', 'u1', { content: [{ type: 'text', text: 'hello' }] })],
    );
    expect(contextEditsOnPath(view)).toEqual(new Map());
  });

  it('leaves out edits that are not on the active path', () => {
    const view = viewWith(['e1'], [edit('e1', 'u1', null)], 'u9');
    expect(contextEditsOnPath(view)).toEqual(new Map());
  });

  it('asks for the bodies of the edits on the active path it lacks', () => {
    const view = viewWith(['e1', 'e2'], [edit('e1', 'u1', null)]);
    expect(missingEditBodies(view)).toEqual(['e2']);
  });
});
