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

export const StopReasonSchema = z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']);

export const UserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: UserContentSchema,
  timestamp: z.number(),
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
  stopReason: StopReasonSchema,
  errorMessage: z.string().optional(),
  timestamp: z.number(),
});

export const ToolResultMessageSchema = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema])),
  details: z.unknown().optional(),
  isError: z.boolean(),
  timestamp: z.number(),
});

export const BashExecutionMessageSchema = z.looseObject({
  role: z.literal('bashExecution'),
  command: z.string(),
  output: z.string(),
  exitCode: z.number().optional(),
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
  display: z.boolean(),
  details: z.unknown().optional(),
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
export type StopReason = z.infer<typeof StopReasonSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolResultMessage = z.infer<typeof ToolResultMessageSchema>;
export type BashExecutionMessage = z.infer<typeof BashExecutionMessageSchema>;
export type CustomMessage = z.infer<typeof CustomMessageSchema>;
export type BranchSummaryMessage = z.infer<typeof BranchSummaryMessageSchema>;
export type CompactionSummaryMessage = z.infer<typeof CompactionSummaryMessageSchema>;
export type AgentMessage = z.infer<typeof AgentMessageSchema>;
export type MessageRole = AgentMessage['role'];

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
