import { describe, expect, it } from 'vitest';
import { chatItems, missingBodies } from './chat-items';
import { sessionReducer, type SessionView } from './session-reducer';
import { CHAT_WINDOW } from './chat-window';
import { run } from '../test-support/run-events';
import { chain, node } from '../test-support/tree-builder';
import { assistantMessage, frames, snapshot, userMessage } from '../test-support/snapshot-builder';

const base = chain(null, [
  { id: 'u1', role: 'user', preview: 'hello' },
  { id: 'a1', role: 'assistant', preview: 'hi' },
]);

function opened(): SessionView {
  return sessionReducer(null, {
    type: 'snapshot',
    snapshot: snapshot(base, 'a1', {
      messages: [
        { entryId: 'u1', message: userMessage('hello') },
        { entryId: 'a1', message: assistantMessage('hi') },
      ],
    }),
  })!;
}

describe('sessionReducer', () => {
  it('shows the snapshot path as chat items keyed by entry id', () => {
    const items = chatItems(opened());
    expect(items.map((i) => [i.entryId, i.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
    ]);
  });

  it('streams an answer from deltas and stores it under the entry its message_end names', () => {
    const u2 = node({ id: 'u2', role: 'user' }, 'a1');
    const a2 = node({ id: 'a2', role: 'assistant' }, 'u2');
    const partial = assistantMessage('');
    let view = run(opened(), [
      { type: 'agent_start' },
      { type: 'message_start', message: userMessage('next') },
      { type: 'entry_appended', node: u2 },
      { type: 'message_end', message: userMessage('next'), entryId: 'u2' },
      { type: 'message_start', message: partial },
      { type: 'message_update', assistantMessageEvent: { type: 'text_start', contentIndex: 0 } },
      {
        type: 'message_update',
        assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'Hel' },
      },
      {
        type: 'message_update',
        assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'lo' },
      },
    ]);
    const streaming = chatItems(view).at(-1)!;
    expect(streaming.streaming).toBe(true);
    expect(streaming.message).toMatchObject({ content: [{ type: 'text', text: 'Hello' }] });
    expect(view.state.isStreaming).toBe(true);

    view = run(
      view,
      [
        { type: 'entry_appended', node: a2 },
        { type: 'message_end', message: assistantMessage('Hello'), entryId: 'a2' },
        { type: 'agent_end', messages: [] },
      ],
      9,
    );
    const items = chatItems(view);
    expect(items.map((i) => i.entryId)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(items.at(-1)!.message).toMatchObject({ content: [{ text: 'Hello' }] });
    expect(view.leafId).toBe('a2');
    expect(view.state.isStreaming).toBe(false);
  });

  it('draws a message once between its entry_appended and its message_end', () => {
    // The entry is announced just before its message ends: for that moment the streaming item is
    // its message, so the chat shows it once (not also as a body still loading).
    const u2 = node({ id: 'u2', role: 'user' }, 'a1');
    const view = run(opened(), [
      { type: 'agent_start' },
      { type: 'message_start', message: userMessage('next') },
      { type: 'entry_appended', node: u2 },
    ]);
    const items = chatItems(view);
    expect(items.map((i) => [i.entryId, i.role, i.streaming])).toEqual([
      ['u1', 'user', false],
      ['a1', 'assistant', false],
      [null, 'user', true],
    ]);
    const ended = run(
      view,
      [{ type: 'message_end', message: userMessage('next'), entryId: 'u2' }],
      4,
    );
    expect(chatItems(ended).map((i) => [i.entryId, i.streaming])).toEqual([
      ['u1', false],
      ['a1', false],
      ['u2', false],
    ]);
  });

  it('pairs each message with the entry it names, whatever the order of roles', () => {
    const t1 = node({ id: 't1', role: 'toolResult' }, 'a1');
    const t2 = node({ id: 't2', role: 'toolResult' }, 't1');
    const u2 = node({ id: 'u2', role: 'user' }, 't2');
    const result = (text: string) => ({
      role: 'toolResult' as const,
      toolCallId: text,
      toolName: 'read',
      content: [{ type: 'text' as const, text }],
      timestamp: 1,
    });
    const view = run(opened(), [
      { type: 'entry_appended', node: t1 },
      { type: 'entry_appended', node: t2 },
      { type: 'entry_appended', node: u2 },
      // Later entries' messages end first: pairing by role order would swap t1 and t2.
      { type: 'message_end', message: userMessage('steer'), entryId: 'u2' },
      { type: 'message_end', message: result('second'), entryId: 't2' },
      { type: 'message_end', message: result('first'), entryId: 't1' },
    ]);
    expect(view.bodies.get('t1')).toMatchObject({ content: [{ text: 'first' }] });
    expect(view.bodies.get('t2')).toMatchObject({ content: [{ text: 'second' }] });
    expect(view.bodies.get('u2')).toMatchObject({ content: [{ text: 'steer' }] });
    expect(view.awaitingBody).toEqual([]);
    expect(view.unsaved).toEqual([]);
  });

  it('keeps a message that names no entry as unsaved, never as the body of an awaited entry', () => {
    const a2 = node({ id: 'a2', role: 'assistant' }, 'a1');
    const view = run(opened(), [
      { type: 'entry_appended', node: a2 },
      { type: 'message_end', message: assistantMessage('not saved') },
    ]);
    expect(view.bodies.has('a2')).toBe(false);
    expect(view.awaitingBody).toEqual(['a2']);
    expect(view.unsaved).toMatchObject([{ content: [{ text: 'not saved' }] }]);
  });

  it('shows the state the server pushes, and computes no usage or cost of its own', () => {
    const a2 = node({ id: 'a2', role: 'assistant' }, 'a1');
    let view = run(opened(), [
      { type: 'entry_appended', node: a2 },
      { type: 'message_end', message: assistantMessage('Hello'), entryId: 'a2' },
    ]);
    expect(view.state.cost).toBe(opened().state.cost);
    expect(view.state.contextUsage).toEqual(opened().state.contextUsage);
    const state = {
      ...view.state,
      cost: 0.25,
      contextUsage: { tokens: 300, contextWindow: 1000, percent: 30, estimated: true },
    };
    view = run(view, [{ type: 'state_changed', state }], 3);
    expect(view.state).toEqual(state);
  });

  it('does not mutate the previous streaming message when a delta arrives', () => {
    const view = run(opened(), [
      { type: 'message_start', message: assistantMessage('') },
      { type: 'message_update', assistantMessageEvent: { type: 'text_start', contentIndex: 0 } },
    ]);
    const before = view.streaming;
    const after = run(
      view,
      [
        {
          type: 'message_update',
          assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'x' },
        },
      ],
      3,
    );
    expect(before).toMatchObject({ content: [{ text: '' }] });
    expect(after.streaming).toMatchObject({ content: [{ text: 'x' }] });
  });

  it('ignores duplicate and old seqs, and flags a gap for resync', () => {
    const view = run(opened(), [{ type: 'leaf_moved', leafId: 'u1' }]);
    expect(view.seq).toBe(1);
    const again = sessionReducer(view, {
      type: 'event',
      frame: frames([{ type: 'leaf_moved', leafId: 'a1' }], 1)[0]!,
    })!;
    expect(again).toBe(view);
    const gap = sessionReducer(view, {
      type: 'event',
      frame: frames([{ type: 'leaf_moved', leafId: 'a1' }], 5)[0]!,
    })!;
    expect(gap.needsResync).toBe(true);
    expect(gap.leafId).toBe('u1');
  });

  it('ignores events for another session', () => {
    const view = opened();
    const frame = { ...frames([{ type: 'leaf_moved', leafId: null }])[0]!, sessionId: 'other' };
    expect(sessionReducer(view, { type: 'event', frame })).toBe(view);
  });

  it('moves the leaf, shortening the chat, and asks for bodies it lacks', () => {
    const other = node({ id: 'b1', role: 'assistant' }, 'u1');
    let view = run(opened(), [{ type: 'leaf_moved', leafId: null }]);
    expect(chatItems(view)).toEqual([]);
    view = sessionReducer(
      { ...view, tree: [...view.tree, other], byId: new Map(view.byId).set('b1', other) },
      { type: 'event', frame: frames([{ type: 'leaf_moved', leafId: 'b1' }], 2)[0]! },
    )!;
    expect(missingBodies(view, CHAT_WINDOW)).toEqual(['b1']);
    view = sessionReducer(view, {
      type: 'entries_loaded',
      entries: [
        {
          type: 'message',
          id: 'b1',
          parentId: 'u1',
          timestamp: other.timestamp,
          message: assistantMessage('other'),
        },
      ],
    })!;
    expect(missingBodies(view, CHAT_WINDOW)).toEqual([]);
    expect(chatItems(view).map((i) => i.entryId)).toEqual(['u1', 'b1']);
  });

  it('shows a compaction entry as a compaction summary once its body is loaded', () => {
    const c = node({ id: 'c1', type: 'compaction' }, 'a1');
    let view = run(opened(), [
      { type: 'compaction_start', reason: 'manual' },
      { type: 'entry_appended', node: c },
    ]);
    expect(view.compacting).toBe('manual');
    expect(missingBodies(view, CHAT_WINDOW)).toEqual(['c1']);
    view = run(
      view,
      [
        {
          type: 'compaction_end',
          reason: 'manual',
          aborted: false,
          willRetry: false,
          result: { summary: 'S', firstKeptEntryId: 'a1', tokensBefore: 10 },
        },
      ],
      3,
    );
    view = sessionReducer(view, {
      type: 'entries_loaded',
      entries: [
        {
          type: 'compaction',
          id: 'c1',
          parentId: 'a1',
          timestamp: c.timestamp,
          summary: '## Goal',
          firstKeptEntryId: 'a1',
          tokensBefore: 10,
        },
      ],
    })!;
    expect(chatItems(view).at(-1)).toMatchObject({
      entryId: 'c1',
      role: 'compactionSummary',
      message: { summary: '## Goal' },
    });
    expect(view.compacting).toBeNull();
  });

  it('drops a notice that was true only while the run went on when the run ends', () => {
    let view = run(opened(), [{ type: 'agent_start' }]);
    view = sessionReducer(view, {
      type: 'notice',
      kind: 'error',
      text: 'The session is running; steer, queue a follow-up or abort.',
      untilIdle: true,
    })!;
    view = sessionReducer(view, { type: 'notice', kind: 'error', text: 'Disk full.' })!;
    expect(view.notices.map((n) => n.text)).toHaveLength(2);
    view = run(view, [{ type: 'agent_end', messages: [] }], 2);
    // Before, "The session is running…" stayed after the run had ended.
    expect(view.notices.map((n) => n.text)).toEqual(['Disk full.']);
  });

  it('says a failure only in the session it was about, never in one opened since', () => {
    let view = sessionReducer(opened(), {
      type: 'notice',
      kind: 'error',
      text: 'A prompt to another session failed.',
      sessionId: 'some-other-session',
    })!;
    expect(view.notices).toEqual([]);
    view = sessionReducer(view, {
      type: 'notice',
      kind: 'error',
      text: 'This one failed.',
      sessionId: view.sessionId,
    })!;
    expect(view.notices.map((n) => n.text)).toEqual(['This one failed.']);
  });

  it('reports a failed compaction and a failed retry as notices', () => {
    const view = run(opened(), [
      { type: 'compaction_start', reason: 'manual' },
      {
        type: 'compaction_end',
        reason: 'manual',
        aborted: false,
        willRetry: false,
        errorMessage: 'too long',
      },
      {
        type: 'compaction_end',
        reason: 'manual',
        aborted: false,
        willRetry: false,
        errorMessage: 'Compaction failed: nothing fits',
      },
      { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: '503' },
      { type: 'auto_retry_end', success: false, attempt: 3, finalError: '503 again' },
    ]);
    expect(view.notices.map((n) => n.text)).toEqual([
      'Compaction failed: too long',
      // Said once, not "Compaction failed: Compaction failed: …".
      'Compaction failed: nothing fits',
      'Retry failed: 503 again',
    ]);
    expect(view.retry).toBeNull();
  });

  it('sets and clears labels, queues, names, thinking level and model', () => {
    const view = run(opened(), [
      { type: 'label_changed', targetId: 'u1', label: 'start' },
      { type: 'queue_update', steering: ['s'], followUp: ['f'] },
      { type: 'session_info_changed', name: 'My session' },
      { type: 'thinking_level_changed', level: 'high' },
      { type: 'model_changed', provider: 'lab', modelId: 'demo' },
    ]);
    expect(view.byId.get('u1')!.label).toBe('start');
    expect(view.tree.find((n) => n.id === 'u1')!.label).toBe('start');
    expect(view.state.steering).toEqual(['s']);
    expect(view.state.followUp).toEqual(['f']);
    expect(view.sessionName).toBe('My session');
    expect(view.state.thinkingLevel).toBe('high');
    expect([view.state.provider, view.state.modelId]).toEqual(['lab', 'demo']);
    const cleared = run(view, [{ type: 'label_changed', targetId: 'u1' }], 6);
    expect(cleared.byId.get('u1')!.label).toBeUndefined();
  });

  it('tracks tool executions until their result message ends', () => {
    const view = run(opened(), [
      { type: 'tool_execution_start', toolCallId: 't1', toolName: 'ls', args: { path: '.' } },
      {
        type: 'tool_execution_end',
        toolCallId: 't1',
        toolName: 'ls',
        result: { content: [{ type: 'text', text: 'a.txt' }] },
        isError: false,
      },
    ]);
    expect(view.toolRuns.get('t1')).toMatchObject({ running: false, isError: false });
    const done = run(
      view,
      [
        {
          type: 'message_end',
          message: {
            role: 'toolResult',
            toolCallId: 't1',
            toolName: 'ls',
            content: [{ type: 'text', text: 'a.txt' }],
            isError: false,
            timestamp: 3,
          },
        },
      ],
      3,
    );
    expect(done.toolRuns.has('t1')).toBe(false);
  });

  it('keeps cached bodies across a fresh snapshot of the same session', () => {
    const view = opened();
    const again = sessionReducer(view, { type: 'snapshot', snapshot: snapshot(base, 'a1') })!;
    expect(again.bodies.get('a1')).toBeDefined();
    const other = sessionReducer(view, {
      type: 'snapshot',
      snapshot: { ...snapshot(base, 'a1'), sessionId: 'sess-2' },
    })!;
    expect(other.bodies.size).toBe(0);
  });

  it('opens a session closed and then restored without what was said about its closing', () => {
    let view = sessionReducer(opened(), { type: 'notice', kind: 'error', text: 'gone (deleted)' })!;
    view = sessionReducer(view, { type: 'closed', sessionId: view.sessionId, reason: 'deleted' })!;
    expect(view.closed).toBe('deleted');
    const restored = sessionReducer(view, { type: 'snapshot', snapshot: snapshot(base, 'a1') })!;
    expect(restored.notices).toEqual([]);
    expect(restored.closed).toBeUndefined();
    expect(chatItems(restored).map((i) => i.entryId)).toEqual(['u1', 'a1']);
  });

  it('gives a notice its id from the view alone, so the same input gives the same view', () => {
    const view = opened();
    const first = sessionReducer(view, { type: 'notice', kind: 'error', text: 'a failure' })!;
    const again = sessionReducer(view, { type: 'notice', kind: 'error', text: 'a failure' })!;
    expect(again.notices).toEqual(first.notices);
    const next = sessionReducer(first, { type: 'notice', kind: 'info', text: 'more' })!;
    expect(next.notices.map((n) => n.id)).toEqual([1, 2]);
    // Ids go on across sessions, so a notice never takes the key of an earlier one.
    const other = sessionReducer(next, {
      type: 'snapshot',
      snapshot: { ...snapshot(base, 'a1'), sessionId: 's2' },
    })!;
    const later = sessionReducer(other, { type: 'notice', kind: 'info', text: 'there' })!;
    expect(later.notices.map((n) => n.id)).toEqual([3]);
  });

  it('keeps the notices of a session that was only snapshotted again', () => {
    const view = sessionReducer(opened(), { type: 'notice', kind: 'error', text: 'a failure' })!;
    const again = sessionReducer(view, { type: 'snapshot', snapshot: snapshot(base, 'a1') })!;
    expect(again.notices.map((n) => n.text)).toEqual(['a failure']);
  });
});
