import type { TreeNode } from './session-entries.js';
import type {
  AgentMessage,
  AssistantMessage,
  ImageContent,
  TextContent,
  ToolCall,
} from './messages.js';

/*
 * The events of an agent session, named and shaped as pi 0.73 names and shapes them. One deliberate
 * difference: `message_update` carries the delta (`assistantMessageEvent`) and not the whole partial
 * message, so a long answer does not cost quadratic bandwidth. A client rebuilds the partial by
 * applying deltas to the message it got in `message_start` (see `applyAssistantDelta`).
 */

export type AssistantMessageEvent =
  | { type: 'text_start'; contentIndex: number }
  | { type: 'text_delta'; contentIndex: number; delta: string }
  | { type: 'text_end'; contentIndex: number }
  | { type: 'thinking_start'; contentIndex: number }
  | { type: 'thinking_delta'; contentIndex: number; delta: string }
  | { type: 'thinking_end'; contentIndex: number }
  | { type: 'toolcall_start'; contentIndex: number; id: string; name: string }
  | { type: 'toolcall_delta'; contentIndex: number; delta: string }
  | { type: 'toolcall_end'; contentIndex: number; toolCall: ToolCall };

export interface ToolResultPayload {
  content: (TextContent | ImageContent)[];
  details?: unknown;
}

export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
}

export type CompactionReason = 'manual' | 'threshold' | 'overflow';

export type AgentEvent =
  | { type: 'agent_start' }
  | { type: 'agent_end'; messages: AgentMessage[] }
  | { type: 'turn_start' }
  | { type: 'turn_end'; message: AgentMessage; toolResults: AgentMessage[] }
  | { type: 'message_start'; message: AgentMessage }
  | { type: 'message_update'; assistantMessageEvent: AssistantMessageEvent }
  /**
   * `entryId`: the entry the message was appended as (Arbor; absent for a message that is not
   * saved, such as the notice of a failed save). The entry's `entry_appended` came just before.
   */
  /** `author`: the user who sent a prompt, as saved on its entry (decision 112). */
  | { type: 'message_end'; message: AgentMessage; entryId?: string; author?: string }
  | { type: 'tool_execution_start'; toolCallId: string; toolName: string; args: unknown }
  | {
      type: 'tool_execution_update';
      toolCallId: string;
      toolName: string;
      args: unknown;
      /** Accumulated output so far, not a delta (as pi). */
      partialResult: ToolResultPayload;
    }
  | {
      type: 'tool_execution_end';
      toolCallId: string;
      toolName: string;
      result: ToolResultPayload;
      isError: boolean;
      /** How long the tool ran (pi 1.6); absent for a call refused before it ran. */
      durationMs?: number;
    }
  | {
      type: 'auto_retry_start';
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      errorMessage: string;
    }
  | { type: 'auto_retry_end'; success: boolean; attempt: number; finalError?: string }
  | { type: 'queue_update'; steering: string[]; followUp: string[] }
  | { type: 'compaction_start'; reason: CompactionReason }
  | {
      type: 'compaction_end';
      reason: CompactionReason;
      result?: CompactionResult;
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
    };

/**
 * Applies one streaming delta to a partial assistant message, in place. Used by every client that
 * shows a message while it streams (the web page, `arbor run`, tests).
 */
export function applyAssistantDelta(message: AssistantMessage, event: AssistantMessageEvent): void {
  const content = message.content;
  switch (event.type) {
    case 'text_start':
      content[event.contentIndex] = { type: 'text', text: '' };
      return;
    case 'thinking_start':
      content[event.contentIndex] = { type: 'thinking', thinking: '' };
      return;
    case 'toolcall_start':
      content[event.contentIndex] = {
        type: 'toolCall',
        id: event.id,
        name: event.name,
        arguments: {},
        partialArgs: '',
      };
      return;
    case 'text_delta': {
      const block = content[event.contentIndex];
      if (block?.type === 'text') block.text += event.delta;
      return;
    }
    case 'thinking_delta': {
      const block = content[event.contentIndex];
      if (block?.type === 'thinking') block.thinking += event.delta;
      return;
    }
    case 'toolcall_delta': {
      const block = content[event.contentIndex];
      if (block?.type === 'toolCall')
        block.partialArgs = String(block.partialArgs ?? '') + event.delta;
      return;
    }
    case 'toolcall_end':
      content[event.contentIndex] = event.toolCall;
      return;
    case 'text_end':
    case 'thinking_end':
      return;
    default:
      assertNever(event);
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled variant: ${JSON.stringify(value)}`);
}

/**
 * Events an AgentSession adds to the agent's own: changes of the stored tree and of the session's
 * settings, so that every client can mirror the store without reading it.
 */
export type SessionChangeEvent =
  | { type: 'entry_appended'; node: TreeNode }
  | { type: 'leaf_moved'; leafId: string | null }
  | { type: 'label_changed'; targetId: string; label?: string }
  | { type: 'session_info_changed'; name?: string }
  | { type: 'thinking_level_changed'; level: string }
  | { type: 'model_changed'; provider: string; modelId: string }
  /**
   * The session's state as the server computes it (server/agent/session-metrics.ts): sent when a
   * run ends, after each saved answer, and whenever the model, thinking level, context (a
   * compaction, a context edit) or leaf changes. Clients show it as it is; they compute none of it.
   */
  | { type: 'state_changed'; state: SessionState };

/** Context usage as pi's getContextUsage reports it. */
export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
  /** `tokens` is a chars/4 estimate of the context (after a compaction, before the next answer). */
  estimated?: boolean;
}

/** What a session shows about itself: its settings, its figures, its queues, whether it runs. */
export interface SessionState {
  isStreaming: boolean;
  isCompacting: boolean;
  /** The session's model, as pi names it: provider and id. */
  provider: string;
  modelId: string;
  /** Why the session's model cannot be used now (not configured on the server, no key), if so. */
  modelProblem?: string;
  thinkingLevel: string;
  steering: string[];
  followUp: string[];
  leafId: string | null;
  contextUsage: ContextUsage;
  cost: number;
}

export type AgentSessionEvent = AgentEvent | SessionChangeEvent;
