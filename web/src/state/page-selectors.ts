import type { PageState } from './page-store';
import type { SessionView } from './session-reducer';

/*
 * The parts of the page state the panes read, as selectors for `usePage` (decision 093). Each
 * returns a part of the state itself, or a value compared by `Object.is` (a string, a number, a
 * boolean), so a pane re-renders only when what it picks has changed.
 */

/** The open session's view: null until its snapshot is in (a view of another session is stale). */
export function openView(state: PageState): SessionView | null {
  const { view } = state;
  return view && view.sessionId === state.openSessionId ? view : null;
}

/** The id of the session the page shows, once its view is in. */
export function shownSessionId(state: PageState): string | null {
  return openView(state)?.sessionId ?? null;
}

/**
 * The entry whose path the chat reads instead of the active path, or null: reading belongs to one
 * session, and to an entry it still has.
 */
export function readEntryId(state: PageState): string | null {
  return readEntryIn(openView(state), state);
}

/** The entry read in `view` (which may lag behind the store: the chat's deferred view), or null. */
export function readEntryIn(
  view: SessionView | null,
  state: Pick<PageState, 'reading'>,
): string | null {
  const { reading } = state;
  return reading && view && reading.sessionId === view.sessionId && view.byId.has(reading.entryId)
    ? reading.entryId
    : null;
}
