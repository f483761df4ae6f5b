import { messageOfEntry } from '../../shared/entry-messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { PathMessage } from '../../shared/protocol.js';

/*
 * The messages a chat shows for the active path: the message-like entries from the root to the
 * leaf, each with its entry id. Unlike the model's context this keeps what a compaction summarised
 * (the chat shows history, and the summary where it was made); settings entries carry no message.
 */

/**
 * How many of the newest path messages a snapshot carries (docs/decisions/034-snapshot-message-window.md):
 * the chat draws the newest 60 at first, so 200 covers that window several times over (hidden
 * notes, a leaf move a few turns back) while a long session's snapshot stops growing with its age.
 */
export const SNAPSHOT_MESSAGES = 200;

export interface SnapshotMessages {
  /** The newest `limit` path messages, root side first. */
  messages: PathMessage[];
  /** Path messages before the first of `messages` that were left out (their bodies are fetched with `get_entries`). */
  omittedMessages: number;
}

/**
 * The newest `limit` messages of the path `branch` (root → leaf) and how many older ones were left
 * out; older bodies are fetched on demand.
 */
export function snapshotMessages(
  branch: SessionEntry[],
  limit: number = SNAPSHOT_MESSAGES,
): SnapshotMessages {
  const newestFirst: PathMessage[] = [];
  let omittedMessages = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    const message = messageOfEntry(entry);
    if (!message) continue;
    if (newestFirst.length < limit) newestFirst.push({ entryId: entry.id, message });
    else omittedMessages++;
  }
  return { messages: newestFirst.reverse(), omittedMessages };
}
