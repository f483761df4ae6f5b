import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from '../../shared/messages.js';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomMessageEntry,
  SessionEntry,
} from '../../shared/session-entries.js';

/*
 * How entries of a path become messages, in the three flavours pi uses: the context a model sees,
 * the input of a compaction summary, and the input of a branch summary.
 */

function epochMs(isoTimestamp: string): number {
  return new Date(isoTimestamp).getTime();
}

export function customMessageFromEntry(entry: CustomMessageEntry): CustomMessage {
  return {
    role: 'custom',
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: epochMs(entry.timestamp),
  };
}

export function branchSummaryMessageFromEntry(entry: BranchSummaryEntry): BranchSummaryMessage {
  return {
    role: 'branchSummary',
    summary: entry.summary,
    fromId: entry.fromId,
    timestamp: epochMs(entry.timestamp),
  };
}

export function compactionSummaryMessageFromEntry(
  entry: CompactionEntry,
): CompactionSummaryMessage {
  return {
    role: 'compactionSummary',
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: epochMs(entry.timestamp),
  };
}

/**
 * The message a path entry contributes to a compaction summary's input: messages as they are,
 * custom messages and branch summaries converted, compactions left out (their summary is passed
 * separately as the previous summary).
 */
export function compactionInputMessage(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return entry.message;
    case 'custom_message':
      return customMessageFromEntry(entry);
    case 'branch_summary':
      return branchSummaryMessageFromEntry(entry);
    default:
      return undefined;
  }
}

/**
 * The message an entry contributes to a branch summary's input: tool results are left out (the
 * call says enough), compaction summaries are kept as context.
 */
export function branchSummaryInputMessage(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return entry.message.role === 'toolResult' ? undefined : entry.message;
    case 'custom_message':
      return customMessageFromEntry(entry);
    case 'branch_summary':
      return branchSummaryMessageFromEntry(entry);
    case 'compaction':
      return compactionSummaryMessageFromEntry(entry);
    default:
      return undefined;
  }
}

/** The latest compaction entry among the given path entries, if any. */
export function latestCompaction(pathEntries: readonly SessionEntry[]): CompactionEntry | null {
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    const entry = pathEntries[i];
    if (entry?.type === 'compaction') return entry;
  }
  return null;
}

/**
 * The messages a model would see for a root-to-leaf path, exactly as pi's `buildSessionContext`
 * builds them: the last compaction's summary, the kept entries from its `firstKeptEntryId`, then
 * everything after it. Used to measure `tokensBefore` without needing the store.
 */
export function pathContextMessages(pathEntries: readonly SessionEntry[]): AgentMessage[] {
  let compactionIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    if (pathEntries[i]?.type === 'compaction') {
      compactionIndex = i;
      break;
    }
  }
  const messages: AgentMessage[] = [];
  const append = (entry: SessionEntry): void => {
    if (entry.type === 'message') messages.push(entry.message);
    else if (entry.type === 'custom_message') messages.push(customMessageFromEntry(entry));
    else if (entry.type === 'branch_summary' && entry.summary)
      messages.push(branchSummaryMessageFromEntry(entry));
  };
  const compaction = pathEntries[compactionIndex];
  if (compaction?.type !== 'compaction') {
    for (const entry of pathEntries) append(entry);
    return messages;
  }
  messages.push(compactionSummaryMessageFromEntry(compaction));
  let kept = false;
  for (let i = 0; i < compactionIndex; i++) {
    const entry = pathEntries[i];
    if (!entry) continue;
    if (entry.id === compaction.firstKeptEntryId) kept = true;
    if (kept) append(entry);
  }
  for (let i = compactionIndex + 1; i < pathEntries.length; i++) {
    const entry = pathEntries[i];
    if (entry) append(entry);
  }
  return messages;
}
