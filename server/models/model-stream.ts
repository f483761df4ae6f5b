import type {
  AgentMessage,
  AssistantMessage,
  ImageContent,
  SystemMessage,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from '../../shared/messages.js';
import type { AgentEvent, AssistantMessageEvent } from '../../shared/agent-events.js';
import type { ModelInfo } from '../models/model-catalog.js';

/*
 * The types the agent loop is built from. The loop knows nothing of files, sockets or the SDK: a
 * stream function gives it assistant deltas, tools give it results, and it emits AgentEvents.
 */

/**
 * The roles a provider understands; everything else is converted before a call. System messages
 * are the session's recorded prompt and tools (pi 1.6), rendered by the provider.
 */
export type ProviderMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * One model call, as pi-ai's `Context`: `systemPrompt` and `tools` (when given) lead as a system
 * message before `messages`, whose own system messages then patch them (pi-ai's
 * `normalizeContext`). The agent sends only the session's recorded system messages.
 */
export interface ModelRequest {
  model: ModelInfo;
  apiKey: string | undefined;
  systemPrompt: string;
  messages: ProviderMessage[];
  tools: ToolSpec[];
  thinkingLevel: string;
  signal: AbortSignal;
}

/** `start` marks that the provider accepted the request and the message begins. */
export type ModelStreamEvent = { type: 'start' } | AssistantMessageEvent;

export interface ModelStreamOutcome {
  /** The final message; failures are data (`stopReason` error or aborted, `errorMessage`). */
  message: AssistantMessage;
  /** How long the provider asked us to wait before retrying (Retry-After). */
  retryAfterMs?: number;
}

/**
 * Streams one assistant message. Must not throw for provider or network failures: those end as an
 * outcome with `stopReason: 'error' | 'aborted'`. The signal must reach the HTTP request.
 */
export type StreamFn = (
  request: ModelRequest,
) => AsyncGenerator<ModelStreamEvent, ModelStreamOutcome, void>;

export interface ToolResultValue {
  content: (TextContent | ImageContent)[];
  details?: unknown;
}

export interface ToolContext {
  signal: AbortSignal;
  /** Reports accumulated output so far (becomes `tool_execution_update`). */
  onUpdate: (partial: ToolResultValue) => void;
}

/**
 * A tool the model can call. `execute` receives arguments already validated by `parse`; it
 * throws to report a failure, which becomes an `isError` result the model reads.
 */
export interface AgentTool<Args = unknown> {
  spec: ToolSpec;
  parse(args: unknown): Args;
  execute(args: Args, context: ToolContext): Promise<ToolResultValue>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any>;

export type EmitFn = (event: AgentEvent) => void;

/** A step run on the agent context before every model call (compaction plugs in here). */
export type ContextTransform = (
  messages: AgentMessage[],
  context: { signal: AbortSignal; model: ModelInfo },
) => Promise<AgentMessage[]>;
