import type { AgentMessage, SystemMessage, UserContent } from '../../shared/messages.js';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
} from '../../shared/session-entries.js';

/*
 * Entries built as pi builds them, down to the key order of the written JSON: `type, id,
 * parentId, timestamp` first, except `custom` and `custom_message`, whose payload comes first.
 * Optional fields that are undefined are left out of the line by JSON.stringify, as in pi.
 */

export interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export const buildEntry = {
  message: (base: EntryBase, message: AgentMessage, author?: string): MessageEntry => ({
    type: 'message',
    ...base,
    message,
    ...(author !== undefined ? { author } : {}),
  }),
  thinkingLevelChange: (base: EntryBase, thinkingLevel: string): ThinkingLevelChangeEntry => ({
    type: 'thinking_level_change',
    ...base,
    thinkingLevel,
  }),
  modelChange: (base: EntryBase, provider: string, modelId: string): ModelChangeEntry => ({
    type: 'model_change',
    ...base,
    provider,
    modelId,
  }),
  compaction: (
    base: EntryBase,
    fields: {
      summary: string;
      firstKeptEntryId: string;
      tokensBefore: number;
      details?: unknown;
      fromHook?: boolean | undefined;
    },
    systemMessage?: SystemMessage,
  ): CompactionEntry => ({
    type: 'compaction',
    ...base,
    summary: fields.summary,
    firstKeptEntryId: fields.firstKeptEntryId,
    tokensBefore: fields.tokensBefore,
    details: fields.details,
    fromHook: fields.fromHook,
    // pi 1.6's checkpoint: the prompt and tools in force, timed as the compaction.
    ...(systemMessage
      ? { systemMessage: { ...systemMessage, timestamp: new Date(base.timestamp).getTime() } }
      : {}),
  }),
  branchSummary: (
    base: EntryBase,
    fromId: string,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): BranchSummaryEntry => ({
    type: 'branch_summary',
    ...base,
    fromId,
    summary,
    details,
    fromHook,
  }),
  custom: (base: EntryBase, customType: string, data?: unknown): CustomEntry => ({
    type: 'custom',
    customType,
    data,
    ...base,
  }),
  customMessage: (
    base: EntryBase,
    customType: string,
    content: UserContent,
    display: boolean,
    details?: unknown,
  ): CustomMessageEntry => ({
    type: 'custom_message',
    customType,
    content,
    display,
    details,
    ...base,
  }),
  label: (base: EntryBase, targetId: string, label: string | undefined): LabelEntry => ({
    type: 'label',
    ...base,
    targetId,
    label,
  }),
  sessionInfo: (base: EntryBase, name: string): SessionInfoEntry => ({
    type: 'session_info',
    ...base,
    name: sessionNameOf(name),
  }),
  contextEdit: (
    base: EntryBase,
    targetId: string,
    replacement: ContextEditEntry['replacement'],
  ): ContextEditEntry => ({
    type: 'context_edit',
    ...base,
    targetId,
    replacement,
  }),
};

/** A session name as pi 1.6 writes it: line breaks become one space, then trimmed. */
export function sessionNameOf(name: string): string {
  return name.replace(/[\r\n]+/g, ' ').trim();
}
