import { messageOfEntry } from '../../shared/entry-messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { PathMessage } from '../../shared/protocol.js';
import { fitBody } from './fit-body.js';

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

/**
 * The most bytes of bodies one frame carries (a snapshot's `messages`, a `get_entries` answer),
 * whatever the client's buffer limit; half of that limit when it is smaller (decision 055).
 */
export const MAX_FRAME_BODY_BYTES = 4 * 1024 * 1024;

/** The body budget of one frame for a client whose socket may hold `bufferLimitBytes` unsent. */
export function frameBodyBudget(bufferLimitBytes: number): number {
  return Math.min(MAX_FRAME_BODY_BYTES, Math.floor(bufferLimitBytes / 2));
}

export interface SnapshotMessages {
  /** The newest `limit` path messages, root side first. */
  messages: PathMessage[];
  /** Path messages before the first of `messages` that were left out (their bodies are fetched with `get_entries`). */
  omittedMessages: number;
}

/**
 * The newest messages of the path `branch` (root → leaf), at most `limit` of them and at most
 * `budgetBytes` of their JSON, and how many older ones were left out; older bodies are fetched on
 * demand. A message bigger than half the budget is sent cut (`fitBody`), so that the newest one
 * always fits and no body can make the snapshot too big to send.
 */
export function snapshotMessages(
  branch: SessionEntry[],
  limit: number = SNAPSHOT_MESSAGES,
  budgetBytes: number = MAX_FRAME_BODY_BYTES,
): SnapshotMessages {
  const newestFirst: PathMessage[] = [];
  let omittedMessages = 0;
  let used = 0;
  let full = false;
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    const message = messageOfEntry(entry);
    if (!message) continue;
    if (!full && newestFirst.length < limit) {
      const fitted = fitBody(message, Math.floor(budgetBytes / 2));
      if (used + fitted.bytes <= budgetBytes) {
        used += fitted.bytes;
        const author = entry.type === 'message' ? entry.author : undefined;
        newestFirst.push({
          entryId: entry.id,
          message: fitted.value,
          ...(author !== undefined ? { author } : {}),
        });
        continue;
      }
    }
    full = true;
    omittedMessages++;
  }
  return { messages: newestFirst.reverse(), omittedMessages };
}
