import type {
  AssistantMessage,
  SystemMessage,
  ToolResultMessage,
  UserMessage,
} from '../../shared/messages.js';
import type { AssistantMessageEvent } from '../../shared/agent-events.js';
import type { ModelInfo } from './model-info.js';

/*
 * The model layer's contract, as pi-ai's: the messages a provider understands, one request, and
 * the stream function that answers it. The agent loop and compaction import these; this layer
 * imports nothing above it.
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
 * How one request is authorised, as pi-ai's `ModelAuth`: a key (or a subscription's access
 * token), and for some subscriptions the account's own endpoint or headers; `problem` says, in
 * words a person acts on, why there is nothing to send.
 */
export interface RequestAuth {
  apiKey?: string;
  /** pi-ai's provider headers: a null value removes a default header. */
  headers?: Record<string, string | null>;
  baseUrl?: string;
  problem?: string;
}

/**
 * One model call, as pi-ai's `Context`: `systemPrompt` and `tools` (when given) lead as a system
 * message before `messages`, whose own system messages then patch them (pi-ai's
 * `normalizeContext`). The agent sends only the session's recorded system messages.
 */
export interface ModelRequest {
  model: ModelInfo;
  auth: RequestAuth;
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
