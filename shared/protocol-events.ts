import { z } from 'zod';
import type { AgentSessionEvent, SessionState } from './agent-events.js';
import {
  AgentMessageSchema,
  ImageContentSchema,
  TextContentSchema,
  ToolCallSchema,
} from './messages.js';
import { TreeNodeSchema } from './session-entries.js';

/*
 * The schema of every agent event a session's stream carries (`event.event` of an `event` frame).
 * The types in shared/agent-events.ts say the same; the checks at the end of this file keep the
 * two in step, so a new event does not compile until it has a schema here.
 */

const contentIndex = z.number().int().min(0);

export const AssistantMessageEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_start'), contentIndex }),
  z.object({ type: z.literal('text_delta'), contentIndex, delta: z.string() }),
  z.object({ type: z.literal('text_end'), contentIndex }),
  z.object({ type: z.literal('thinking_start'), contentIndex }),
  z.object({ type: z.literal('thinking_delta'), contentIndex, delta: z.string() }),
  z.object({ type: z.literal('thinking_end'), contentIndex }),
  z.object({
    type: z.literal('toolcall_start'),
    contentIndex,
    id: z.string(),
    name: z.string(),
  }),
  z.object({ type: z.literal('toolcall_delta'), contentIndex, delta: z.string() }),
  z.object({ type: z.literal('toolcall_end'), contentIndex, toolCall: ToolCallSchema }),
]);

export const ToolResultPayloadSchema = z.object({
  content: z.array(z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema])),
  details: z.unknown().optional(),
});

export const CompactionReasonSchema = z.enum(['manual', 'threshold', 'overflow']);

export const CompactionResultSchema = z.object({
  summary: z.string(),
  firstKeptEntryId: z.string(),
  tokensBefore: z.number(),
  details: z.unknown().optional(),
});

export const ContextUsageSchema = z.object({
  tokens: z.number().nullable(),
  contextWindow: z.number(),
  percent: z.number().nullable(),
  /** `tokens` is a chars/4 estimate of the context (after a compaction, before the next answer). */
  estimated: z.boolean().optional(),
});

/** The state of one session, as the server computes it (`AgentSession.getState()`). */
export const AgentStateSchema = z.object({
  isStreaming: z.boolean(),
  isCompacting: z.boolean(),
  provider: z.string(),
  modelId: z.string(),
  modelProblem: z.string().optional(),
  thinkingLevel: z.string(),
  steering: z.array(z.string()),
  followUp: z.array(z.string()),
  leafId: z.string().nullable(),
  contextUsage: ContextUsageSchema,
  cost: z.number(),
});

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });

const toolEvent = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  event(type, { toolCallId: z.string(), toolName: z.string(), ...shape });

export const AgentSessionEventSchema = z.discriminatedUnion('type', [
  event('agent_start', {}),
  event('agent_end', { messages: z.array(AgentMessageSchema) }),
  event('turn_start', {}),
  event('turn_end', { message: AgentMessageSchema, toolResults: z.array(AgentMessageSchema) }),
  event('message_start', { message: AgentMessageSchema }),
  event('message_update', { assistantMessageEvent: AssistantMessageEventSchema }),
  event('message_end', {
    message: AgentMessageSchema,
    entryId: z.string().optional(),
    author: z.string().optional(),
  }),
  toolEvent('tool_execution_start', { args: z.unknown() }),
  toolEvent('tool_execution_update', { args: z.unknown(), partialResult: ToolResultPayloadSchema }),
  toolEvent('tool_execution_end', {
    result: ToolResultPayloadSchema,
    isError: z.boolean(),
    durationMs: z.number().min(0).optional(),
  }),
  event('auto_retry_start', {
    attempt: z.number(),
    maxAttempts: z.number(),
    delayMs: z.number(),
    errorMessage: z.string(),
  }),
  event('auto_retry_end', {
    success: z.boolean(),
    attempt: z.number(),
    finalError: z.string().optional(),
  }),
  event('queue_update', { steering: z.array(z.string()), followUp: z.array(z.string()) }),
  event('compaction_start', { reason: CompactionReasonSchema }),
  event('compaction_end', {
    reason: CompactionReasonSchema,
    result: CompactionResultSchema.optional(),
    aborted: z.boolean(),
    willRetry: z.boolean(),
    errorMessage: z.string().optional(),
  }),
  event('entry_appended', { node: TreeNodeSchema }),
  event('leaf_moved', { leafId: z.string().nullable() }),
  event('label_changed', { targetId: z.string(), label: z.string().optional() }),
  event('session_info_changed', { name: z.string().optional() }),
  event('thinking_level_changed', { level: z.string() }),
  event('model_changed', { provider: z.string(), modelId: z.string() }),
  event('state_changed', { state: AgentStateSchema }),
]);

// Compile-time: the schema accepts exactly the events shared/agent-events.ts declares.
type Parsed = z.infer<typeof AgentSessionEventSchema>;
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const eventsMatch: Same<Parsed, AgentSessionEvent> = true;
const stateMatches: Same<z.infer<typeof AgentStateSchema>, SessionState> = true;
void eventsMatch;
void stateMatches;
