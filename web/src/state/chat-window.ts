/*
 * How many of the newest chat items the page draws for the open session. The chat draws the newest
 * CHAT_WINDOW items and reveals REVEAL_STEP more on each "Show earlier"; the body loader reads the
 * same count, so it fetches only the bodies the chat is about to draw. Pure functions over a part of
 * the page store (page-store.ts), so the reducer's helpers and the hooks read the same count.
 */

/** Items drawn at first; older ones come on request, so long sessions open quickly. */
export const CHAT_WINDOW = 60;
/** Items one "Show earlier" adds. */
export const REVEAL_STEP = 200;

/** What the user revealed, and in which session (a reveal counts in that session only). */
export interface ChatWindow {
  sessionId: string | null;
  count: number;
}

export const FIRST_WINDOW: ChatWindow = { sessionId: null, count: CHAT_WINDOW };

/** Items drawn for `sessionId`: what the user revealed there, else the first window. */
export function shownFor(window: ChatWindow, sessionId: string | null): number {
  return sessionId !== null && sessionId === window.sessionId ? window.count : CHAT_WINDOW;
}

/** One step more of `sessionId`'s history; a reveal in another session starts from the first window. */
export function revealEarlier(window: ChatWindow, sessionId: string): ChatWindow {
  return { sessionId, count: shownFor(window, sessionId) + REVEAL_STEP };
}

/** At least the newest `count` items of `sessionId` drawn (to show an older entry). */
export function showAtLeast(window: ChatWindow, sessionId: string, count: number): ChatWindow {
  return shownFor(window, sessionId) >= count ? window : { sessionId, count };
}
