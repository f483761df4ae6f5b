import type { AgentMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { PathMessage } from '../../shared/protocol.js';

/*
 * The messages a chat shows for the active path: every message-like entry from the root to the
 * leaf, each with its entry id. Unlike the model's context this keeps what a compaction summarised
 * (the chat shows history, and the summary where it was made); settings entries carry no message.
 */

function epoch(timestamp: string): number {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? 0 : ms;
}

/** The message an entry shows as in a chat, or undefined for entries that are not messages. */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return entry.message;
    case 'custom_message':
      return {
        role: 'custom',
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        ...(entry.details !== undefined ? { details: entry.details } : {}),
        timestamp: epoch(entry.timestamp),
      };
    case 'compaction':
      return {
        role: 'compactionSummary',
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: epoch(entry.timestamp),
      };
    case 'branch_summary':
      return {
        role: 'branchSummary',
        summary: entry.summary,
        fromId: entry.fromId,
        timestamp: epoch(entry.timestamp),
      };
    default:
      return undefined;
  }
}

export function pathMessages(branch: SessionEntry[]): PathMessage[] {
  const out: PathMessage[] = [];
  for (const entry of branch) {
    const message = messageOfEntry(entry);
    if (message) out.push({ entryId: entry.id, message });
  }
  return out;
}
