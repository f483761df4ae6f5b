import { z } from 'zod';

/*
 * Message shapes of pi's session format (v3), as stored inside `message` entries and as carried
 * in agent events. Every object is loose: keys this version does not know survive a read-write
 * round trip, because pi and its extensions add fields over time.
 */

export const TextContentSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  textSignature: z.string().optional(),
});

export const ThinkingContentSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  thinkingSignature: z.string().optional(),
  redacted: z.boolean().optional(),
});

export const ImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
});

export const ToolCallSchema = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  thoughtSignature: z.string().optional(),
});

export const UserContentSchema = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema])),
]);

export const CostSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  total: z.number(),
});

export const UsageSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  /** Older (v1) files omit it. */
  totalTokens: z.number().optional(),
  cost: CostSchema.optional(),
});

/** The stop reasons Arbor writes. */
export const StopReasonSchema = z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']);

/**
 * A stop reason as read from a file: Arbor's own, pi 1.6's `deferred`, or any other string a newer
 * pi writes (pi keeps such messages in the context, so Arbor does too).
 */
export const StoredStopReasonSchema = z.union([
  StopReasonSchema,
  z.literal('deferred'),
  z.string().min(1),
]);

export const UserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: UserContentSchema,
  /** pi writes it; pi also reads messages without it (hand-written and old files). */
  timestamp: z.number().optional(),
});

export const AssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(
    z.discriminatedUnion('type', [TextContentSchema, ThinkingContentSchema, ToolCallSchema]),
  ),
  api: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: UsageSchema,
  stopReason: StoredStopReasonSchema,
  errorMessage: z.string().optional(),
  timestamp: z.number(),
});

export const ToolResultMessageSchema = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema])),
  details: z.unknown().optional(),
  /** pi 1.6: usage of the tool's own model calls (counts in the cost, not in the context). */
  usage: UsageSchema.optional(),
  /** pi writes it; absent reads as false. */
  isError: z.boolean().optional(),
  /** pi 1.6: how long the tool ran, in milliseconds (absent for a call refused before it ran). */
  durationMs: z.number().optional(),
  timestamp: z.number(),
});

export const BashExecutionMessageSchema = z.looseObject({
  role: z.literal('bashExecution'),
  command: z.string(),
  output: z.string(),
  /** Absent when cancelled; `null` in files written by hand or by older tools reads the same. */
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
  timestamp: z.number(),
});

export const CustomMessageSchema = z.looseObject({
  role: z.literal('custom'),
  customType: z.string(),
  content: UserContentSchema,
  /** pi writes it; absent reads as not displayed. */
  display: z.boolean().optional(),
  details: z.unknown().optional(),
  timestamp: z.number(),
});

/** A tool as a system message declares it (pi-ai's `Tool` without its executable parts). */
export const ToolDeclarationSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: z.unknown().optional(),
});

/**
 * pi 1.6's prompt and tool loadout, recorded in the transcript. The first one holds the base prompt
 * (`content`), every named section and every tool; a later one adds instructions, patches sections
 * by name (`null` removes one) and adds or removes tools. Replaying them in path order gives the
 * current prompt and tools (`currentSystemMessage` in shared/system-prompt.ts).
 */
export const SystemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: z.union([z.string(), z.array(TextContentSchema)]),
  sections: z.record(z.string(), z.string().nullable()).optional(),
  toolsAdded: z.array(ToolDeclarationSchema).optional(),
  toolsRemoved: z.array(z.looseObject({ name: z.string() })).optional(),
  timestamp: z.number(),
});

/** Only synthesised by context building; never stored as a message. */
export const BranchSummaryMessageSchema = z.looseObject({
  role: z.literal('branchSummary'),
  summary: z.string(),
  fromId: z.string(),
  timestamp: z.number(),
});

/** Only synthesised by context building; never stored as a message. */
export const CompactionSummaryMessageSchema = z.looseObject({
  role: z.literal('compactionSummary'),
  summary: z.string(),
  tokensBefore: z.number(),
  timestamp: z.number(),
});

/** v2 files stored extension messages with this role; migration renames it to `custom`. */
export const HookMessageSchema = CustomMessageSchema.extend({ role: z.literal('hookMessage') });

export const AgentMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolResultMessageSchema,
  BashExecutionMessageSchema,
  CustomMessageSchema,
  BranchSummaryMessageSchema,
  CompactionSummaryMessageSchema,
  HookMessageSchema,
]);

export type TextContent = z.infer<typeof TextContentSchema>;
export type ThinkingContent = z.infer<typeof ThinkingContentSchema>;
export type ImageContent = z.infer<typeof ImageContentSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type UserContent = z.infer<typeof UserContentSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type ToolDeclaration = z.infer<typeof ToolDeclarationSchema>;
export type SystemMessage = z.infer<typeof SystemMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolResultMessage = z.infer<typeof ToolResultMessageSchema>;
export type BashExecutionMessage = z.infer<typeof BashExecutionMessageSchema>;
export type CustomMessage = z.infer<typeof CustomMessageSchema>;
export type BranchSummaryMessage = z.infer<typeof BranchSummaryMessageSchema>;
export type CompactionSummaryMessage = z.infer<typeof CompactionSummaryMessageSchema>;
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

/** The text of a user-like content value: text blocks joined, images left out. */
export function contentText(content: UserContent | AssistantMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

export function emptyUsage(): Required<Usage> {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
