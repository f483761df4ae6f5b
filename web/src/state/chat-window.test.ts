import { describe, expect, it } from 'vitest';
import { chatItems, missingBodies } from './chat-items';
import { sessionReducer, type SessionView } from './session-reducer';
import { CHAT_WINDOW, FIRST_WINDOW, REVEAL_STEP, revealEarlier, shownFor } from './chat-window';
import { chain } from '../test-support/tree-builder';
import { run } from '../test-support/run-events';
import { assistantMessage, snapshot, userMessage } from '../test-support/snapshot-builder';

/* The chat's window over a long path: which bodies it asks for, and how it grows per session. */

/** A path of `n` prompts and answers, p0 … a{n-1}, of which the snapshot carried the newest `sent`. */
function longSession(turns: number, sent: number): { view: SessionView; ids: string[] } {
  const tree = chain(
    null,
    Array.from({ length: turns }, (_, i) => [
      { id: `p${i}`, role: 'user' },
      { id: `a${i}`, role: 'assistant' },
    ]).flat(),
  );
  const ids = tree.map((n) => n.id);
  const messages = ids.slice(-sent).map((id) => ({
    entryId: id,
    message: id.startsWith('p') ? userMessage(id) : assistantMessage(id),
  }));
  const view = sessionReducer(null, {
    type: 'snapshot',
    snapshot: snapshot(tree, ids.at(-1)!, {
      messages,
      omittedMessages: ids.length - sent,
    }),
  })!;
  return { view, ids };
}

describe('missingBodies with a snapshot of the newest messages only', () => {
  it('asks for nothing while the drawn window is covered by the snapshot', () => {
    const { view, ids } = longSession(150, 200);
    expect(missingBodies(view, CHAT_WINDOW)).toEqual([]);
    // Items older than the window are placeholders the chat does not draw yet.
    const items = chatItems(view);
    expect(items).toHaveLength(300);
    expect(items[0]).toMatchObject({ entryId: ids[0], message: undefined, role: 'user' });
  });

  it('asks for exactly the revealed items it lacks, root side first', () => {
    const { view, ids } = longSession(150, 200);
    expect(missingBodies(view, CHAT_WINDOW + REVEAL_STEP)).toEqual(ids.slice(40, 100));
    expect(missingBodies(view, 10_000)).toEqual(ids.slice(0, 100));
  });

  it('marks bodies the server could not give, and never asks for them again', () => {
    const { view, ids } = longSession(150, 200);
    const wanted = missingBodies(view, 10_000);
    const lost = wanted.slice(0, 3);
    const loaded = sessionReducer(view, {
      type: 'entries_loaded',
      entries: [],
      unavailable: lost,
    })!;
    expect(missingBodies(loaded, 10_000)).toEqual(wanted.slice(3));
    const items = chatItems(loaded);
    expect(items.find((item) => item.entryId === lost[0])).toMatchObject({ unavailable: true });
    expect(items.find((item) => item.entryId === ids[5])?.unavailable).toBeUndefined();
  });

  it('counts unsaved and streaming messages against the window, as the chat draws them', () => {
    const { view, ids } = longSession(150, 200);
    const busy: SessionView = {
      ...view,
      unsaved: [userMessage('sent')],
      streaming: assistantMessage('typing'),
    };
    expect(missingBodies(busy, 202)).toEqual([]);
    expect(missingBodies(busy, 204)).toEqual(ids.slice(98, 100));
  });

  it('skips hidden notes without spending the window on them', () => {
    const { view, ids } = longSession(150, 200);
    const bodies = new Map(view.bodies);
    // Make the newest ten bodies hidden custom messages: the window reaches ten items further back.
    for (const id of ids.slice(-10))
      bodies.set(id, {
        role: 'custom',
        customType: 'note',
        content: 'hidden',
        display: false,
        timestamp: 0,
      });
    expect(missingBodies({ ...view, bodies }, 190)).toEqual([]);
    expect(missingBodies({ ...view, bodies }, 200)).toEqual(ids.slice(90, 100));
  });

  it('leaves out entries whose bodies the event stream is about to bring', () => {
    const { view, ids } = longSession(150, 200);
    expect(missingBodies({ ...view, awaitingBody: [ids[99]!] }, 201)).toEqual([]);
  });

  it("after a leaf move, asks for the new path's drawn bodies only", () => {
    const { view, ids } = longSession(150, 200);
    // Move to a prompt deep in the omitted part: its newest window is all unfetched.
    const moved = run(view, [{ type: 'leaf_moved', leafId: ids[79]! }]);
    expect(missingBodies(moved, CHAT_WINDOW)).toEqual(ids.slice(20, 80));
    const loaded = sessionReducer(moved, {
      type: 'entries_loaded',
      entries: ids.slice(20, 80).map((id) => ({
        type: 'message' as const,
        id,
        parentId: null,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: id.startsWith('p') ? userMessage(id) : assistantMessage(id),
      })),
    })!;
    expect(missingBodies(loaded, CHAT_WINDOW)).toEqual([]);
    expect(chatItems(loaded).at(-1)).toMatchObject({
      entryId: ids[79],
      message: { role: 'assistant' },
    });
  });

  it('keeps bodies fetched earlier when a fresh snapshot of the same session arrives', () => {
    const { view, ids } = longSession(150, 200);
    const loaded = sessionReducer(view, {
      type: 'entries_loaded',
      entries: [
        {
          type: 'message',
          id: ids[0]!,
          parentId: null,
          timestamp: '2026-01-01T00:00:00.000Z',
          message: userMessage('first'),
        },
      ],
    })!;
    const again = sessionReducer(loaded, {
      type: 'snapshot',
      snapshot: snapshot(view.tree, ids.at(-1)!, { messages: [], omittedMessages: 300 }),
    })!;
    expect(again.bodies.get(ids[0]!)).toMatchObject({ role: 'user' });
  });
});

describe('chat window', () => {
  it('starts each session at the first window and grows by a step per reveal', () => {
    let window = FIRST_WINDOW;
    expect(shownFor(window, 's1')).toBe(CHAT_WINDOW);
    window = revealEarlier(revealEarlier(window, 's1'), 's1');
    expect(shownFor(window, 's1')).toBe(CHAT_WINDOW + 2 * REVEAL_STEP);
    expect(shownFor(window, 's2')).toBe(CHAT_WINDOW);
    window = revealEarlier(window, 's2');
    expect(shownFor(window, 's2')).toBe(CHAT_WINDOW + REVEAL_STEP);
    expect(shownFor(window, null)).toBe(CHAT_WINDOW);
  });
});
