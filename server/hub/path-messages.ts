import { messageOfEntry } from '../../shared/entry-messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { PathMessage } from '../../shared/protocol.js';

/*
 * The messages a chat shows for the active path: every message-like entry from the root to the
 * leaf, each with its entry id. Unlike the model's context this keeps what a compaction summarised
 * (the chat shows history, and the summary where it was made); settings entries carry no message.
 */

export function pathMessages(branch: SessionEntry[]): PathMessage[] {
  const out: PathMessage[] = [];
  for (const entry of branch) {
    const message = messageOfEntry(entry);
    if (message) out.push({ entryId: entry.id, message });
  }
  return out;
}
