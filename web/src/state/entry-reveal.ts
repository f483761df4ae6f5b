/*
 * A request to show one entry of a session, without moving its leaf: search opens a session at a
 * match this way, and the chat (scrolled to it, when it is on the active path) and the graph
 * (centred on it, focused) each answer it once. A part of the page store (page-store.ts).
 */

export interface RevealRequest {
  sessionId: string;
  entryId: string;
  /** Tells two requests for the same entry apart: asking again shows it again. */
  seq: number;
}

/** The request after the `made`th to show `entryId` of `sessionId`. */
export function nextReveal(made: number, sessionId: string, entryId: string): RevealRequest {
  return { sessionId, entryId, seq: made + 1 };
}

/** Takes the marks of a revealed entry off everything inside `root`. */
export function unmarkRevealed(root: ParentNode): void {
  for (const old of root.querySelectorAll('[data-revealed]')) old.removeAttribute('data-revealed');
}

/** Marks the element drawn for a revealed entry (and only it) inside `root`. */
export function markRevealed(root: ParentNode, selector: string): Element | null {
  unmarkRevealed(root);
  const element = root.querySelector(selector);
  element?.setAttribute('data-revealed', 'true');
  return element;
}
