import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionListItem, WorkspaceInfo } from '../../../shared/rest-shapes';
import { FIRST_WINDOW, revealEarlier, showAtLeast, type ChatWindow } from './chat-window';
import { nextReveal, type RevealRequest } from './entry-reveal';
import { sessionReducer, type SessionAction, type SessionView } from './session-reducer';

/*
 * The page's session state in one store (decisions 089, 093): which session is open and the lists
 * it is chosen from, the open session's view, how much of its chat is drawn, the latest request to
 * show an entry, and the branch being read. One pure reducer
 * (`pageReducer`, which hands session frames to `sessionReducer`) is its only update, and
 * components read it through selectors. Each page makes its own store, so two pages, or two
 * tests, never share any of it.
 */

/** Reading another branch without moving the leaf (decision 076). */
export interface Reading {
  sessionId: string;
  entryId: string;
  /** Whether the `get_path` answer is in (until then nothing else is fetched for the path). */
  loaded: boolean;
}

export interface PageState {
  /** The session the page has open (its view may not be in yet), or null. */
  openSessionId: string | null;
  /** The workspaces sessions are chosen from, as the server last listed them. */
  workspaces: WorkspaceInfo[];
  /** Each workspace's sessions, newest first, by workspace id. */
  sessions: Record<string, SessionListItem[]>;
  /** The latest session view, null before the first snapshot (`openView` pairs it with the open id). */
  view: SessionView | null;
  chatWindow: ChatWindow;
  /** The latest request to show an entry (null: none yet). */
  reveal: RevealRequest | null;
  /** How many requests to show an entry were made: numbers stay unique after one is cleared. */
  revealSeq: number;
  reading: Reading | null;
}

export type PageAction =
  | SessionAction
  /** The page opens this session (its view follows with its snapshot). */
  | { type: 'open_session'; sessionId: string }
  /** This session went away: if it is the one open, none is open any more. */
  | { type: 'close_session'; sessionId: string }
  | { type: 'workspaces_listed'; workspaces: WorkspaceInfo[] }
  /** Every workspace's sessions, by workspace id. */
  | { type: 'sessions_listed'; sessions: Record<string, SessionListItem[]> }
  /** "Show earlier" in the chat. */
  | { type: 'show_earlier'; sessionId: string }
  /** At least this many of the newest chat items drawn (to show an older entry). */
  | { type: 'show_at_least'; sessionId: string; count: number }
  /** Show this entry (a search hit) without moving the leaf. */
  | { type: 'reveal_entry'; sessionId: string; entryId: string }
  /** The search that asked to show an entry was cleared: its marks go too. */
  | { type: 'clear_reveal' }
  | { type: 'read'; sessionId: string; entryId: string }
  /** The read path's `get_path` answer is in. */
  | { type: 'read_loaded'; sessionId: string; entryId: string }
  /** Reading this entry failed: back to the current branch, unless another is read by now. */
  | { type: 'read_failed'; entryId: string }
  /** Back to the current branch. */
  | { type: 'read_back' };

export const EMPTY_PAGE: PageState = {
  openSessionId: null,
  workspaces: [],
  sessions: {},
  view: null,
  chatWindow: FIRST_WINDOW,
  reveal: null,
  revealSeq: 0,
  reading: null,
};

/** The next page state; an action that changes nothing returns `state` itself. */
export function pageReducer(state: PageState, action: PageAction): PageState {
  switch (action.type) {
    case 'open_session':
      return state.openSessionId === action.sessionId
        ? state
        : { ...state, openSessionId: action.sessionId };
    case 'close_session':
      return state.openSessionId === action.sessionId ? { ...state, openSessionId: null } : state;
    case 'workspaces_listed':
      return { ...state, workspaces: action.workspaces };
    case 'sessions_listed':
      return { ...state, sessions: action.sessions };
    case 'show_earlier':
      return { ...state, chatWindow: revealEarlier(state.chatWindow, action.sessionId) };
    case 'show_at_least': {
      const chatWindow = showAtLeast(state.chatWindow, action.sessionId, action.count);
      return chatWindow === state.chatWindow ? state : { ...state, chatWindow };
    }
    case 'reveal_entry': {
      const reveal = nextReveal(state.revealSeq, action.sessionId, action.entryId);
      return { ...state, reveal, revealSeq: reveal.seq };
    }
    case 'clear_reveal':
      return state.reveal ? { ...state, reveal: null } : state;
    case 'read':
      return {
        ...state,
        reading: { sessionId: action.sessionId, entryId: action.entryId, loaded: false },
      };
    case 'read_loaded': {
      const now = state.reading;
      if (!now || now.sessionId !== action.sessionId || now.entryId !== action.entryId)
        return state;
      return { ...state, reading: { ...now, loaded: true } };
    }
    case 'read_failed':
      return state.reading?.entryId === action.entryId ? { ...state, reading: null } : state;
    case 'read_back':
      return state.reading === null ? state : { ...state, reading: null };
    default: {
      const view = sessionReducer(state.view, action);
      return view === state.view ? state : { ...state, view };
    }
  }
}

export type PageStore = StoreApi<PageState> & {
  /** Applies `action` through `pageReducer`; subscribers hear of it only when something changed. */
  dispatch(action: PageAction): void;
};

export function createPageStore(initial: PageState = EMPTY_PAGE): PageStore {
  const store = createStore<PageState>()(() => initial);
  const dispatch = (action: PageAction): void =>
    store.setState(pageReducer(store.getState(), action), true);
  return Object.assign(store, { dispatch });
}
