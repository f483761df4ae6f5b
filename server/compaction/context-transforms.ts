import type { CompactionReason, CompactionResult } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage, UserMessage } from '../../shared/messages.js';
import type { ModelInfo } from '../models/model-catalog.js';
import type { SessionStore } from '../store/session-store.js';
import type { RequestAuth, StreamFn } from '../models/model-stream.js';

/*
 * The seam between the agent session and compaction. Compaction lives elsewhere
 * (server/compaction/); it plugs in through two things only:
 *
 * - `ContextStep`s: an ordered pipeline run on the agent context before every model call, tool
 *   loops included (threshold compaction is one such step);
 * - a `Compactor`: the session calls it for `compact()`, for overflow recovery, and for branch
 *   summaries in `navigateTree({ summarize })`. It writes to the store; the session then rebuilds
 *   its context from the store, so store, agent and clients agree.
 */

/** One model call without tools, as summaries need it. Fails as data or by throwing. */
export interface CompletionRequest {
  systemPrompt: string;
  messages: UserMessage[];
  maxTokens: number;
  /** A thinking level; set only when the model reasons and the session's level is not "off". */
  reasoning?: string;
}
export type CompleteFn = (
  request: CompletionRequest,
  signal?: AbortSignal,
) => Promise<AssistantMessage>;

export interface CompactionContext {
  store: SessionStore;
  model: ModelInfo;
  complete: CompleteFn;
  thinkingLevel: string;
  signal: AbortSignal;
  /** `settings.compaction` as given to createAgentSession, uninterpreted. */
  settings: unknown;
}

export interface Compactor {
  /** False when settings turn automatic compaction off (overflow recovery is then skipped). */
  isEnabled?(store: SessionStore): boolean;
  /** Appends a compaction entry (never deletes) and returns it; throws with a clear message. */
  compact(
    context: CompactionContext,
    options: { reason: CompactionReason; customInstructions?: string },
  ): Promise<CompactionResult>;
  /**
   * The text of a branch summary for leaving `oldLeafId` for `targetId` (the entry picked in the
   * tree, as pi's collectEntriesForBranchSummary takes it; null for before the root), or
   * undefined when there is nothing to summarise (the move then happens without a summary).
   */
  summarizeBranch?(
    context: CompactionContext,
    options: {
      oldLeafId: string | null;
      targetId: string | null;
      customInstructions?: string;
      replaceInstructions?: boolean;
    },
  ): Promise<{ summary: string; details?: unknown } | undefined>;
}

export interface ContextStepContext {
  signal: AbortSignal;
  model: ModelInfo;
  store: SessionStore;
  /**
   * Runs the session's compactor (with compaction_start/end events) and returns the rebuilt
   * context, or undefined when there is no compactor or it failed (the failure is reported in
   * compaction_end and changes nothing).
   */
  compact(reason: CompactionReason): Promise<AgentMessage[] | undefined>;
}

/** One step of the pipeline: returns the messages the next step (and finally the model) sees. */
export type ContextStep = (
  messages: AgentMessage[],
  context: ContextStepContext,
) => Promise<AgentMessage[]>;

export async function runContextSteps(
  steps: readonly ContextStep[],
  messages: AgentMessage[],
  context: ContextStepContext,
): Promise<AgentMessage[]> {
  let current = messages;
  for (const step of steps) current = await step(current, context);
  return current;
}

/** A CompleteFn over the session's stream function (so summaries use the same client and key). */
export function createCompleteFn(
  streamFn: StreamFn,
  model: ModelInfo,
  authFor: (model: ModelInfo, signal: AbortSignal) => Promise<RequestAuth>,
): CompleteFn {
  return async (request, given) => {
    const signal = given ?? new AbortController().signal;
    const stream = streamFn({
      model: { ...model, maxOutputTokens: Math.min(model.maxOutputTokens, request.maxTokens) },
      auth: await authFor(model, signal),
      systemPrompt: request.systemPrompt,
      messages: request.messages,
      tools: [],
      thinkingLevel: request.reasoning ?? 'off',
      signal,
    });
    for (;;) {
      const next = await stream.next();
      if (next.done) return next.value.message;
    }
  };
}
