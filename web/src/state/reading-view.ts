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
