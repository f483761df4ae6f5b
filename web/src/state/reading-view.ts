import type { SessionView } from './session-reducer';

/*
 * Reading mode (decision 076): the chat shows the path to another entry while the session's leaf
 * stays where it is. The chat's queries (`chatItems`, `missingBodies`, the context edits and the
 * model's context) all read the path from `leafId`, so reading is the same view with the read
 * entry in that place and nothing of the live run, which belongs to the real leaf.
 */

/** The view the chat draws while reading the path root → `entryId`. */
export function readingView(view: SessionView, entryId: string): SessionView {
  return { ...view, leafId: entryId, unsaved: [], streaming: null };
}

/** Reading mode as the page's parts use it (app/use-reading-mode.ts keeps it). */
export interface ReadingMode {
  /** The entry whose path the chat shows instead of the active path, or null. */
  entryId: string | null;
  read(entryId: string): void;
  /** Back to the current branch. */
  back(): void;
  /**
   * `action`, after going back to the current branch: a prompt goes to the session's leaf, and a
   * click that moves the leaf shows where it moved. The same function for the same action.
   */
  backThen<A extends unknown[]>(action: (...args: A) => void): (...args: A) => void;
}
