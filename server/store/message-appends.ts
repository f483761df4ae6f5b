import { AgentMessageSchema, type AgentMessage } from '../../shared/messages.js';
import { currentSystemMessage } from '../../shared/system-prompt.js';
import type { SessionContext, SessionEntry } from '../../shared/session-entries.js';
import { replacementFor, type ContextChange } from './context-edit-rule.js';
import { buildEntry } from './entry-factory.js';
import type { EntryLog } from './entry-log.js';
import { LEAF_MARKER_TYPE } from './session-index.js';

/*
 * The appends that have a rule beyond building their entry: which messages may be appended and
 * as what, the custom type kept for leaf markers, what a compaction records, what a context edit
 * replaces. Each appended entry becomes the leaf.
 */

/**
 * Appends a message; custom-role messages become custom_message entries (as pi's agent does). A
 * prompt's `author` (the user who sent it) is kept on its entry.
 */
export function appendMessage(log: EntryLog, message: AgentMessage, author?: string): string {
  const parsed = AgentMessageSchema.safeParse(message);
  if (!parsed.success) throw new Error(`Invalid message: ${parsed.error.message}`);
  if (message.role === 'custom') {
    const { customType, content, display, details } = message;
    return log.append(
      buildEntry.customMessage(log.base(), customType, content, display ?? false, details),
    );
  }
  if (
    message.role === 'branchSummary' ||
    message.role === 'compactionSummary' ||
    message.role === 'hookMessage'
  ) {
    throw new Error(
      `A ${message.role} message cannot be appended; use branchWithSummary or appendCompaction`,
    );
  }
  return log.append(
    buildEntry.message(log.base(), message, message.role === 'user' ? author : undefined),
  );
}

/** Appends a custom entry of any type but the one reserved for leaf markers. */
export function appendCustomEntry(log: EntryLog, customType: string, data?: unknown): string {
  if (customType === LEAF_MARKER_TYPE) {
    throw new Error(`The custom type "${LEAF_MARKER_TYPE}" is reserved for leaf markers`);
  }
  return log.append(buildEntry.custom(log.base(), customType, data));
}

/** What a compaction entry records besides its checkpoint. */
export interface CompactionFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean | undefined;
}

/**
 * Appends a compaction whose checkpoint is pi 1.6's: the prompt and tools the context at the leaf
 * (`context`) replays to at the boundary.
 */
export function appendCompaction(
  log: EntryLog,
  fields: CompactionFields,
  context: SessionContext,
): string {
  const checkpoint = currentSystemMessage(context.messages);
  return log.append(buildEntry.compaction(log.base(), fields, checkpoint));
}

/**
 * Appends a pi 1.6 context_edit of `targetId` at the leaf, whose active path is `branch`
 * (context-edit-rule.ts says which replacement).
 */
export function appendContextEdit(
  log: EntryLog,
  targetId: string,
  change: ContextChange,
  branch: SessionEntry[],
): string {
  const exists = log.index.byId.get(targetId)?.marker === false;
  const replacement = replacementFor(branch, targetId, exists, change);
  return log.append(buildEntry.contextEdit(log.base(), targetId, replacement));
}
