import { describe, expect, it } from 'vitest';
import { CHAT_WINDOW, REVEAL_STEP, shownFor } from './chat-window';
import { createPageStore, EMPTY_PAGE, pageReducer } from './page-store';
import { chain } from '../test-support/tree-builder';
import { snapshot } from '../test-support/snapshot-builder';

const tree = chain(null, [
  { id: 'u1', role: 'user', preview: 'hello' },
  { id: 'a1', role: 'assistant', preview: 'hi' },
]);

function openedStore() {
  const store = createPageStore();
  store.dispatch({ type: 'snapshot', snapshot: snapshot(tree, 'a1') });
  return store;
}

describe('page store', () => {
  it('keeps each page its own: two stores share no chat window, reveal, reading or notice ids', () => {
    const one = openedStore();
    const two = openedStore();
    const sessionId = one.getState().view!.sessionId;
    one.dispatch({ type: 'show_earlier', sessionId });
    one.dispatch({ type: 'reveal_entry', sessionId, entryId: 'u1' });
    one.dispatch({ type: 'read', sessionId, entryId: 'u1' });
    one.dispatch({ type: 'notice', kind: 'error', text: 'in one' });
    two.dispatch({ type: 'notice', kind: 'error', text: 'in two' });

    expect(shownFor(one.getState().chatWindow, sessionId)).toBe(CHAT_WINDOW + REVEAL_STEP);
    expect(shownFor(two.getState().chatWindow, sessionId)).toBe(CHAT_WINDOW);
    expect(one.getState().reveal).toMatchObject({ entryId: 'u1', seq: 1 });
    expect(two.getState().reveal).toBeNull();
    expect(one.getState().reading).toEqual({ sessionId, entryId: 'u1', loaded: false });
    expect(two.getState().reading).toBeNull();
    expect(one.getState().view!.notices.map((n) => n.id)).toEqual([1]);
    expect(two.getState().view!.notices.map((n) => n.id)).toEqual([1]);
  });

  it('tells its subscribers of a change, and of nothing that changed nothing', () => {
    const store = openedStore();
    const sessionId = store.getState().view!.sessionId;
    let heard = 0;
    const stop = store.subscribe(() => heard++);
    store.dispatch({ type: 'show_at_least', sessionId, count: CHAT_WINDOW - 1 });
    store.dispatch({ type: 'read_back' });
    store.dispatch({
      type: 'event',
      frame: { type: 'event', sessionId: 'other', seq: 9, event: { type: 'turn_start' } },
    });
    expect(heard).toBe(0);
    store.dispatch({ type: 'show_at_least', sessionId, count: CHAT_WINDOW + 5 });
    expect(shownFor(store.getState().chatWindow, sessionId)).toBe(CHAT_WINDOW + 5);
    expect(heard).toBe(1);
    stop();
    store.dispatch({ type: 'show_earlier', sessionId });
    expect(heard).toBe(1);
  });

  it('numbers each request to show an entry, so asking again shows it again', () => {
    let state = pageReducer(EMPTY_PAGE, { type: 'reveal_entry', sessionId: 's', entryId: 'u1' });
    state = pageReducer(state, { type: 'reveal_entry', sessionId: 's', entryId: 'u1' });
    expect(state.reveal).toEqual({ sessionId: 's', entryId: 'u1', seq: 2 });
  });

  it('marks a read path loaded only when its answer is for the entry still read', () => {
    let state = pageReducer(EMPTY_PAGE, { type: 'read', sessionId: 's', entryId: 'u1' });
    state = pageReducer(state, { type: 'read', sessionId: 's', entryId: 'u2' });
    state = pageReducer(state, { type: 'read_loaded', sessionId: 's', entryId: 'u1' });
    expect(state.reading).toEqual({ sessionId: 's', entryId: 'u2', loaded: false });
    // A failure for the path no longer read leaves the one being read.
    state = pageReducer(state, { type: 'read_failed', entryId: 'u1' });
    expect(state.reading?.entryId).toBe('u2');
    state = pageReducer(state, { type: 'read_loaded', sessionId: 's', entryId: 'u2' });
    expect(state.reading?.loaded).toBe(true);
    state = pageReducer(state, { type: 'read_failed', entryId: 'u2' });
    expect(state.reading).toBeNull();
  });
});
