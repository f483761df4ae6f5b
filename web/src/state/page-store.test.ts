import { describe, expect, it } from 'vitest';
import type { SessionListItem, WorkspaceInfo } from '../../../shared/rest-shapes';
import { CHAT_WINDOW, REVEAL_STEP, shownFor } from './chat-window';
import { openView, readEntryId, shownSessionId } from './page-selectors';
import { createPageStore, EMPTY_PAGE, pageReducer } from './page-store';
import { chain } from '../test-support/tree-builder';
import { SESSION_ID, snapshot } from '../test-support/snapshot-builder';

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
    // Cleared (the search emptied), and asked again: a new number, so it is shown again.
    state = pageReducer(state, { type: 'clear_reveal' });
    expect(state.reveal).toBeNull();
    state = pageReducer(state, { type: 'reveal_entry', sessionId: 's', entryId: 'u1' });
    expect(state.reveal).toEqual({ sessionId: 's', entryId: 'u1', seq: 3 });
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

const workspace: WorkspaceInfo = { id: 'ws', name: 'Demo', path: '/work/demo' };

function listed(id: string): SessionListItem {
  return {
    id,
    workspaceId: 'ws',
    firstMessage: 'hello',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    messageCount: 2,
    owner: null,
    may: { rename: true, delete: true },
  };
}

/** A page with the snapshot's session open, as a page opened at `?session=` has it. */
function shownStore() {
  const store = createPageStore({ ...EMPTY_PAGE, openSessionId: SESSION_ID });
  store.dispatch({ type: 'snapshot', snapshot: snapshot(tree, 'a1') });
  return store;
}

describe('page store: the open session and its lists', () => {
  it('opens a session, and opening the open one again changes nothing', () => {
    const store = createPageStore();
    let heard = 0;
    store.subscribe(() => heard++);
    store.dispatch({ type: 'open_session', sessionId: 'a' });
    expect(store.getState().openSessionId).toBe('a');
    const opened = store.getState();
    store.dispatch({ type: 'open_session', sessionId: 'a' });
    expect(store.getState()).toBe(opened);
    expect(heard).toBe(1);
    store.dispatch({ type: 'open_session', sessionId: 'b' });
    expect(store.getState().openSessionId).toBe('b');
  });

  it('closes the open session when it goes away, and no other', () => {
    let state = pageReducer(EMPTY_PAGE, { type: 'open_session', sessionId: 'a' });
    const open = state;
    state = pageReducer(state, { type: 'close_session', sessionId: 'b' });
    expect(state).toBe(open);
    state = pageReducer(state, { type: 'close_session', sessionId: 'a' });
    expect(state.openSessionId).toBeNull();
  });

  it('keeps the workspaces and their sessions as last listed', () => {
    let state = pageReducer(EMPTY_PAGE, { type: 'workspaces_listed', workspaces: [workspace] });
    state = pageReducer(state, { type: 'sessions_listed', sessions: { ws: [listed('a')] } });
    state = pageReducer(state, {
      type: 'sessions_listed',
      sessions: { ws: [listed('b'), listed('a')] },
    });
    expect(state.workspaces).toEqual([workspace]);
    expect(state.sessions.ws?.map((s) => s.id)).toEqual(['b', 'a']);
  });

  it('shows a view only while its session is the one open', () => {
    const store = shownStore();
    expect(openView(store.getState())?.sessionId).toBe(SESSION_ID);
    expect(shownSessionId(store.getState())).toBe(SESSION_ID);
    store.dispatch({ type: 'read', sessionId: SESSION_ID, entryId: 'u1' });
    expect(readEntryId(store.getState())).toBe('u1');
    // Another session opens: until its snapshot comes, nothing is shown and nothing is read.
    store.dispatch({ type: 'open_session', sessionId: 'other' });
    expect(openView(store.getState())).toBeNull();
    expect(shownSessionId(store.getState())).toBeNull();
    expect(readEntryId(store.getState())).toBeNull();
    // Back to the first: its view and its reading show again.
    store.dispatch({ type: 'open_session', sessionId: SESSION_ID });
    expect(readEntryId(store.getState())).toBe('u1');
  });

  it('reads no entry the open session does not have', () => {
    const store = shownStore();
    store.dispatch({ type: 'read', sessionId: SESSION_ID, entryId: 'gone' });
    expect(store.getState().reading?.entryId).toBe('gone');
    expect(readEntryId(store.getState())).toBeNull();
  });
});
