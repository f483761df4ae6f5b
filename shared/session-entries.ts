import { z } from 'zod';
import {
  AgentMessageSchema,
  AssistantMessageSchema,
  SystemMessageSchema,
  UsageSchema,
  UserContentSchema,
} from './messages.js';

/*
 * The lines of a pi session file, version 3. One header line, then entries that form a tree by
 * `id` / `parentId`. Objects are loose so that unknown keys survive a read-write round trip.
 */

export const CURRENT_SESSION_VERSION = 3;

export const SessionHeaderSchema = z.looseObject({
  type: z.literal('session'),
  /** Absent means version 1. */
  version: z.number().optional(),
  id: z.string(),
  timestamp: z.string(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
});

const entryBase = {
  id: z.string().min(1),
  /** `null` marks a root. The key is always written. */
  parentId: z.string().nullable(),
  /** ISO-8601 wall-clock time of the append. */
  timestamp: z.string(),
};

export const MessageEntrySchema = z.looseObject({
  type: z.literal('message'),
  ...entryBase,
  message: AgentMessageSchema,
  /**
   * Arbor: the user who sent a prompt (a team member's name), beside the message, never in what
   * the model sees; pi keeps and ignores it (decision 112).
   */
  author: z.string().max(200).optional(),
});

export const ThinkingLevelSchema = z.enum([
  'off',
  'minimal',
  'low',
  'medium',
  'high',
  'xhigh',
  'max',
]);

export const ThinkingLevelChangeEntrySchema = z.looseObject({
  type: z.literal('thinking_level_change'),
  ...entryBase,
  thinkingLevel: z.string(),
});

export const ModelChangeEntrySchema = z.looseObject({
  type: z.literal('model_change'),
  ...entryBase,
  provider: z.string(),
  modelId: z.string(),
});

export const FileOperationsDetailsSchema = z.looseObject({
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
});

export const CompactionEntrySchema = z.looseObject({
  type: z.literal('compaction'),
  ...entryBase,
  summary: z.string(),
  /**
   * The first entry the compaction keeps; its own id keeps none (pi 1.6). Absent in a v1 file
   * whose `firstKeptEntryIndex` pointed at the header or past the end: then none is kept either.
   */
  firstKeptEntryId: z.string().optional(),
  tokensBefore: z.number(),
  details: z.unknown().optional(),
  fromHook: z.boolean().optional(),
  /** pi 1.6: the replayed prompt and tools at the boundary, first in the context after it. */
  systemMessage: SystemMessageSchema.optional(),
  /** pi 1.6: usage of the summary call (counts in the session's cost). */
  usage: UsageSchema.optional(),
});

export const BranchSummaryEntrySchema = z.looseObject({
  type: z.literal('branch_summary'),
  ...entryBase,
  /** pi 0.73: the branch point (the new parent), or "root"; pi 1.6: the leaf that was left. */
  fromId: z.string(),
  summary: z.string(),
  details: z.unknown().optional(),
  fromHook: z.boolean().optional(),
  usage: UsageSchema.optional(),
});

export const CustomEntrySchema = z.looseObject({
  type: z.literal('custom'),
  ...entryBase,
  customType: z.string(),
  data: z.unknown().optional(),
});

export const CustomMessageEntrySchema = z.looseObject({
  type: z.literal('custom_message'),
  ...entryBase,
  customType: z.string(),
  content: UserContentSchema,
  /** pi writes it; absent reads as not displayed. */
  display: z.boolean().optional(),
  details: z.unknown().optional(),
});

/**
 * pi 1.6: an append-only change to an earlier entry's part of the model's context, on this
 * branch only. `null` omits the target; `{content}` replaces only its content. The target stays
 * as it was in the file, the chat and the cost totals.
 */
export const ContextEditEntrySchema = z.looseObject({
  type: z.literal('context_edit'),
  ...entryBase,
  targetId: z.string(),
  replacement: z
    .looseObject({
      content: z.union([UserContentSchema, AssistantMessageSchema.shape.content]),
    })
    .nullable(),
});

/** pi 1.6: usage outside a model reply (e.g. `cache_warm`); counts in cost, not in the context. */
export const UsageEntrySchema = z.looseObject({
  type: z.literal('usage'),
  ...entryBase,
  kind: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: UsageSchema,
  note: z.string().optional(),
});

export const LabelEntrySchema = z.looseObject({
  type: z.literal('label'),
  ...entryBase,
  targetId: z.string(),
  /** Absent means "clear the label on targetId". */
  label: z.string().optional(),
});

export const SessionInfoEntrySchema = z.looseObject({
  type: z.literal('session_info'),
  ...entryBase,
  name: z.string().optional(),
});

export const SessionEntrySchema = z.discriminatedUnion('type', [
  MessageEntrySchema,
  ThinkingLevelChangeEntrySchema,
  ModelChangeEntrySchema,
  CompactionEntrySchema,
  BranchSummaryEntrySchema,
  CustomEntrySchema,
  CustomMessageEntrySchema,
  LabelEntrySchema,
  SessionInfoEntrySchema,
  ContextEditEntrySchema,
  UsageEntrySchema,
]);

export type SessionHeader = z.infer<typeof SessionHeaderSchema>;
export type MessageEntry = z.infer<typeof MessageEntrySchema>;
export type ThinkingLevel = z.infer<typeof ThinkingLevelSchema>;
export type ThinkingLevelChangeEntry = z.infer<typeof ThinkingLevelChangeEntrySchema>;
export type ModelChangeEntry = z.infer<typeof ModelChangeEntrySchema>;
export type FileOperationsDetails = z.infer<typeof FileOperationsDetailsSchema>;
export type CompactionEntry = z.infer<typeof CompactionEntrySchema>;
export type BranchSummaryEntry = z.infer<typeof BranchSummaryEntrySchema>;
export type CustomEntry = z.infer<typeof CustomEntrySchema>;
export type CustomMessageEntry = z.infer<typeof CustomMessageEntrySchema>;
export type LabelEntry = z.infer<typeof LabelEntrySchema>;
export type SessionInfoEntry = z.infer<typeof SessionInfoEntrySchema>;
export type ContextEditEntry = z.infer<typeof ContextEditEntrySchema>;
export type SessionEntry = z.infer<typeof SessionEntrySchema>;

/**
 * How many characters a skeleton node's preview holds at most; a longer text is cut to
 * `PREVIEW_LENGTH - 1` characters and `…`. Eighty characters fill a tooltip and keep the skeleton
 * of a 20,000-entry session under 2 MB on the wire (docs/decisions/033-tree-wire-encoding.md).
 */
export const PREVIEW_LENGTH = 80;

/**
 * One node of the tree skeleton: everything a tree view needs, no message bodies. This is what
 * the store keeps in memory for every entry and what travels to browsers.
 */
export const TreeNodeSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  type: z.string(),
  /** Message role for `message` entries; `custom` for custom_message entries. */
  role: z.string().optional(),
  /** The entry's text, whitespace collapsed, cut to `PREVIEW_LENGTH` characters. */
  preview: z.string(),
  label: z.string().optional(),
  timestamp: z.string(),
  /** For assistant messages: number of tool calls (lets views fold tool loops). */
  toolCalls: z.number().optional(),
  /** For assistant messages that ended in error or abort. */
  isError: z.boolean().optional(),
  /** For `custom` and `custom_message` entries: their customType (views hide Arbor's own). */
  customType: z.string().optional(),
});
export type TreeNode = z.infer<typeof TreeNodeSchema>;

/** What `buildSessionContext` returns, exactly as pi returns it. */
export interface SessionContext {
  messages: z.infer<typeof AgentMessageSchema>[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}
