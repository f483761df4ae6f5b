import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from './messages.js';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
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

/*
 * The model's view of an entry, pi 1.6's `sessionEntryToContextMessages` and `projectContextEntry`
 * rule for rule. Times are pi's (`new Date(iso).getTime()`, NaN for a time that does not parse),
 * so a context equals pi's exactly.
 */

function piTime(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/**
 * The messages one entry of a context contributes: a message as it is, a custom message, a branch
 * summary with a summary, a compaction's checkpoint (pi 1.6's `systemMessage`) and summary;
 * nothing for settings and bookkeeping entries.
 */
export function contextMessagesOfEntry(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case 'message':
      return [entry.message];
    case 'custom_message':
      return [{ ...customMessageFromEntry(entry), timestamp: piTime(entry.timestamp) }];
    case 'branch_summary':
      return entry.summary
        ? [{ ...branchSummaryMessageFromEntry(entry), timestamp: piTime(entry.timestamp) }]
        : [];
    case 'compaction': {
      const summary = {
        ...compactionSummaryMessageFromEntry(entry),
        timestamp: piTime(entry.timestamp),
      };
      return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

/**
 * An entry's messages after the context edit that applies to it on the active path: `null` omits
 * them all; a replacement sets the content of each user, assistant, tool-result and custom
 * message (a string becomes one text block for an assistant or a tool result), other roles stay.
 */
export function projectContextEntry(
  entry: SessionEntry,
  edit: ContextEditEntry | undefined,
): AgentMessage[] {
  const messages = contextMessagesOfEntry(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message): AgentMessage => {
    switch (message.role) {
      case 'assistant': {
        const content =
          typeof replacement.content === 'string'
            ? [{ type: 'text' as const, text: replacement.content }]
            : replacement.content;
        return { ...message, content: content as typeof message.content };
      }
      case 'toolResult': {
        const content =
          typeof replacement.content === 'string'
            ? [{ type: 'text' as const, text: replacement.content }]
            : replacement.content;
        return { ...message, content: content as typeof message.content };
      }
      case 'user':
      case 'custom':
        return { ...message, content: replacement.content as typeof message.content };
      default:
        return message;
    }
  });
}
