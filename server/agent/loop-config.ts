import type { CompactionReason } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage, ToolResultMessage } from '../../shared/messages.js';
import { runContextSteps } from '../compaction/context-transforms.js';
import type { ModelInfo } from '../models/model-catalog.js';
import type { RequestAuth } from '../models/model-stream.js';
import type { SessionStore } from '../store/session-store.js';
import type { AgentLoopConfig } from './agent-loop.js';
import type { AgentSessionDeps } from './agent-session-types.js';
import type { QueueKind } from './prompt-queues.js';

/*
 * How a session's runs drive the agent loop: the model, key and thinking level read afresh at
 * each request, its prompt and tools, the context steps (compaction at the threshold), the queued
 * steering and follow-ups, retries and the streaming hook. AgentSession owns the state; this is
 * the one place it is handed to the loop.
 */

/** What the loop reads of its session, each when it asks (they change between turns). */
export interface LoopSession {
  readonly store: SessionStore;
  model(): ModelInfo;
  authFor(model: ModelInfo, signal: AbortSignal): Promise<RequestAuth>;
  thinkingLevel(): string;
  /** Compacts for `reason` and gives the compacted context, or undefined when it did not. */
  compact(reason: CompactionReason): Promise<AgentMessage[] | undefined>;
  takeQueued(kind: QueueKind): AgentMessage[];
  /** A failed attempt about to be retried (`retry` settings). */
  onRetryScheduled(failed: AssistantMessage): void;
  onStreaming(read: (() => AssistantMessage) | null): void;
}

export function loopConfig(deps: AgentSessionDeps, session: LoopSession): AgentLoopConfig {
  return {
    getModel: () => session.model(),
    getAuth: (model, signal) => session.authFor(model, signal),
    getThinkingLevel: () => session.thinkingLevel(),
    systemSections: deps.systemSections,
    tools: deps.tools,
    streamFn: deps.streamFn,
    transforms:
      deps.contextSteps.length > 0
        ? [
            (messages, { signal, model }) =>
              runContextSteps(deps.contextSteps, messages, {
                signal,
                model,
                store: session.store,
                compact: (reason) => session.compact(reason),
              }),
          ]
        : [],
    ...(deps.snapshots
      ? {
          beforePrompts: () => deps.snapshots!.beforePrompt(),
          afterToolBatch: (results: ToolResultMessage[]) => deps.snapshots!.afterTools(results),
        }
      : {}),
    getSteeringMessages: () => session.takeQueued('steering'),
    getFollowUpMessages: () => session.takeQueued('followUp'),
    retry: deps.retry,
    onRetryScheduled: (failed) => session.onRetryScheduled(failed),
    onStreaming: (read) => session.onStreaming(read),
  };
}
