import { describe, expect, it } from 'vitest';
import type { CompactionEntry, ContextEditEntry } from '../../../shared/session-entries';
import { assistantMessage, snapshot, userMessage } from '../test-support/snapshot-builder';
import { chain, node } from '../test-support/tree-builder';
import { chatItems, missingBodies } from './chat-items';
import { contextEditsOnPath } from './context-edits';
import { missingCompactionBodies, modelContextOnPath } from './model-context';
import { readingView } from './reading-view';
import { sessionReducer, type SessionView } from './session-reducer';

/*
 * What the page marks of the model's context (decision 076): after a compaction, the messages it
 * summarised are only in history; edits before its kept range no longer count; the compaction's
 * first kept entry is read from its body. And reading another branch draws that branch's path.
 */

const TIME = '2026-01-01T00:00:00.000Z';

function compaction(id: string, firstKeptEntryId: string): CompactionEntry {
  return {
    type: 'compaction',
    id,
    parentId: 'a2',
    timestamp: TIME,
    summary: 'the garden so far',
    firstKeptEntryId,
    tokensBefore: 900,
  };
}

function edit(id: string, parentId: string, targetId: string): ContextEditEntry {
  return { type: 'context_edit', id, parentId, timestamp: TIME, targetId, replacement: null };
}

/** u1 a1 e1(hides u1) u2 a2 c(keeps from u2) u3, and a branch u9 from a1; the leaf at u3. */
function compacted(): SessionView {
  const tree = [
    ...chain(null, [
      { id: 'u1', role: 'user', preview: 'plan' },
      { id: 'a1', role: 'assistant', preview: 'ok' },
    ]),
    node({ id: 'e1', type: 'context_edit', preview: 'edit' }, 'a1'),
    ...chain('e1', [
      { id: 'u2', role: 'user', preview: 'tomatoes' },
      { id: 'a2', role: 'assistant', preview: 'ok' },
    ]),
    node({ id: 'c', type: 'compaction', preview: 'summary' }, 'a2'),
    node({ id: 'u3', role: 'user', preview: 'basil' }, 'c'),
    node({ id: 'u9', role: 'user', preview: 'other branch' }, 'a1'),
  ];
  return sessionReducer(null, {
    type: 'snapshot',
    snapshot: snapshot(tree, 'u3', {
      messages: [
        { entryId: 'u1', message: userMessage('plan') },
        { entryId: 'a1', message: assistantMessage('ok') },
        { entryId: 'u2', message: userMessage('tomatoes') },
        { entryId: 'a2', message: assistantMessage('ok') },
        { entryId: 'u3', message: userMessage('basil') },
      ],
    }),
  })!;
}

describe("the model's context on the page", () => {
  it("asks for the compaction's body, and marks nothing until it knows the kept range", () => {
    const view = compacted();
    expect(missingCompactionBodies(view)).toEqual(['c']);
    expect(modelContextOnPath(view)).toBeUndefined();
    expect(chatItems(view).filter((item) => item.historyOnly)).toEqual([]);
  });

  it('marks what the compaction summarised as only in history, and not the kept messages', () => {
    const view = sessionReducer(compacted(), {
      type: 'entries_loaded',
      entries: [compaction('c', 'u2'), edit('e1', 'a1', 'u1')],
    })!;
    expect(missingCompactionBodies(view)).toEqual([]);
    const marked = chatItems(view).map((item) => [item.entryId, item.historyOnly ?? false]);
    expect(marked).toEqual([
      ['u1', true],
      ['a1', true],
      ['u2', false],
      ['a2', false],
      ['c', false],
      ['u3', false],
    ]);
    // The edit of u1 lies before the kept range: the context no longer applies it (as pi 1.6).
    const context = modelContextOnPath(view)!;
    expect(contextEditsOnPath(view, context)).toEqual(new Map());
    expect(contextEditsOnPath(view)).toEqual(new Map([['u1', { kind: 'hidden' }]]));
  });

  it('marks nothing on a path without a compaction', () => {
    const view = sessionReducer(compacted(), {
      type: 'entries_loaded',
      entries: [compaction('c', 'u2')],
    })!;
    const other = readingView(view, 'u9');
    expect(modelContextOnPath(other)?.historyOnly.size).toBe(0);
    expect(chatItems(other).some((item) => item.historyOnly)).toBe(false);
  });
});

describe('reading another branch', () => {
  it("draws the read branch's path and fetches only its bodies the page lacks", () => {
    const view = compacted();
    const read = readingView(view, 'u9');
    expect(read.leafId).toBe('u9');
    expect(chatItems(read).map((item) => item.entryId)).toEqual(['u1', 'a1', 'u9']);
    expect(missingBodies(read, 60)).toEqual(['u9']);
    // The session's own view is untouched.
    expect(view.leafId).toBe('u3');
  });

  it('keeps the bodies a get_path answer brings, for the session they belong to', () => {
    const view = compacted();
    const message = userMessage('other branch');
    const loaded = sessionReducer(view, {
      type: 'messages_loaded',
      sessionId: view.sessionId,
      messages: [{ entryId: 'u9', message }],
    })!;
    expect(loaded.bodies.get('u9')).toEqual(message);
    expect(missingBodies(readingView(loaded, 'u9'), 60)).toEqual([]);
    const elsewhere = sessionReducer(view, {
      type: 'messages_loaded',
      sessionId: 'another-session',
      messages: [{ entryId: 'u9', message }],
    });
    expect(elsewhere).toBe(view);
  });
});
