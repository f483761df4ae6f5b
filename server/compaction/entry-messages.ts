import {
  branchSummaryMessageFromEntry,
  compactionSummaryMessageFromEntry,
  customMessageFromEntry,
} from '../../shared/entry-messages.js';
import type { AgentMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';

/*
 * How entries of a path become the input of a summary, in the two flavours pi uses: a compaction
 * summary's and a branch summary's. System messages (pi 1.6's prompt and tools) are never part of
 * it. (The context a model sees is the store's `buildSessionContext`, from the rule in
 * shared/entry-messages.ts.)
 */

/**
 * The message a path entry contributes to a compaction summary's input: messages as they are,
 * custom messages and branch summaries converted, compactions left out (their summary is passed
 * separately as the previous summary).
 */
export function compactionInputMessage(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return entry.message.role === 'system' ? undefined : entry.message;
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
      return entry.message.role === 'toolResult' || entry.message.role === 'system'
        ? undefined
        : entry.message;
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
