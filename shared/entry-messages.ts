import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from './messages.js';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomMessageEntry,
  SessionEntry,
} from './session-entries.js';

/*
 * The messages that non-message entries stand for, as pi builds them: a custom message entry, a
 * branch summary and a compaction each become a message of their own role, timed at the entry.
 */

/** An entry's ISO time in epoch ms; 0 for a time that does not parse (JSON has no NaN). */
export function entryTime(timestamp: string): number {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? 0 : ms;
}

export function customMessageFromEntry(entry: CustomMessageEntry): CustomMessage {
  return {
    role: 'custom',
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    ...(entry.details !== undefined ? { details: entry.details } : {}),
    timestamp: entryTime(entry.timestamp),
  };
}

export function branchSummaryMessageFromEntry(entry: BranchSummaryEntry): BranchSummaryMessage {
  return {
    role: 'branchSummary',
    summary: entry.summary,
    fromId: entry.fromId,
    timestamp: entryTime(entry.timestamp),
  };
}

export function compactionSummaryMessageFromEntry(
  entry: CompactionEntry,
): CompactionSummaryMessage {
  return {
    role: 'compactionSummary',
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: entryTime(entry.timestamp),
  };
}

/**
 * The message an entry shows as in a chat (every message-like entry, compactions included), or
 * undefined for settings and bookkeeping entries.
 */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return entry.message;
    case 'custom_message':
      return customMessageFromEntry(entry);
    case 'compaction':
      return compactionSummaryMessageFromEntry(entry);
    case 'branch_summary':
      return branchSummaryMessageFromEntry(entry);
    default:
      return undefined;
  }
}
