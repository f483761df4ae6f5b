/*
 * How many of the newest chat items the page draws for the open session. The chat draws the newest
 * CHAT_WINDOW items and reveals REVEAL_STEP more on each "Show earlier"; the body loader reads the
 * same count, so it fetches only the bodies the chat is about to draw. Plain state with listeners
 * (no React), so the reducer's helpers and the hooks can both read it.
 */

/** Items drawn at first; older ones come on request, so long sessions open quickly. */
export const CHAT_WINDOW = 60;
/** Items one "Show earlier" adds. */
export const REVEAL_STEP = 200;

export class ChatWindow {
  private sessionId: string | null = null;
  private count = CHAT_WINDOW;
  private readonly listeners = new Set<() => void>();

  /** Items drawn for `sessionId`: what the user revealed there, else the first window. */
  shownFor(sessionId: string | null): number {
    return sessionId !== null && sessionId === this.sessionId ? this.count : CHAT_WINDOW;
  }

  /** One step more of `sessionId`'s history; a reveal in another session starts from the first window. */
  reveal(sessionId: string): void {
    this.count = this.shownFor(sessionId) + REVEAL_STEP;
    this.sessionId = sessionId;
    for (const listener of [...this.listeners]) listener();
  }

  /** At least the newest `count` items of `sessionId` drawn (to show an older entry). */
  showAtLeast(sessionId: string, count: number): void {
    if (this.shownFor(sessionId) >= count) return;
    this.count = count;
    this.sessionId = sessionId;
    for (const listener of [...this.listeners]) listener();
  }

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** The page's one chat. */
export const chatWindow = new ChatWindow();
