/*
 * A request to show one entry of a session, without moving its leaf: search opens a session at a
 * match this way, and the chat (scrolled to it, when it is on the active path) and the graph
 * (centred on it, focused) each answer it once. Plain state with listeners, like chat-window.ts.
 */

export interface RevealRequest {
  sessionId: string;
  entryId: string;
  /** Tells two requests for the same entry apart: asking again shows it again. */
  seq: number;
}

export class EntryReveal {
  private current: RevealRequest | null = null;
  private seq = 0;
  private readonly listeners = new Set<() => void>();

  request(sessionId: string, entryId: string): void {
    this.current = { sessionId, entryId, seq: ++this.seq };
    for (const listener of [...this.listeners]) listener();
  }

  /** The latest request (null: none yet). */
  get = (): RevealRequest | null => this.current;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** The page's one. */
export const entryReveal = new EntryReveal();

/** Marks the element drawn for a revealed entry (and only it) inside `root`. */
export function markRevealed(root: ParentNode, selector: string): Element | null {
  for (const old of root.querySelectorAll('[data-revealed]')) old.removeAttribute('data-revealed');
  const element = root.querySelector(selector);
  element?.setAttribute('data-revealed', 'true');
  return element;
}
