import type { AssistantMessageEvent } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage, ToolResultMessage } from '../../shared/messages.js';
import type { ModelInfo } from '../models/model-catalog.js';
import { emptyAssistantMessage } from '../models/pi-ai-stream.js';
import type { AnyAgentTool } from '../tools/tool-types.js';
import type { EmitFn } from './tool-execution.js';
import type { ModelStreamOutcome, RequestAuth, StreamFn } from '../models/model-stream.js';
import { toProviderMessages } from '../models/convert-to-llm.js';
import { PartialMessage } from './partial-message.js';
import { isRetryableError, retryDelayMs, sleep, type RetrySettings } from './retry-policy.js';
import { systemPromptUpdate, type SystemPromptSections } from './system-prompt.js';
import { executeToolCalls } from './tool-execution.js';

/** A step run on the agent context before every model call (compaction plugs in here). */
export type ContextTransform = (
  messages: AgentMessage[],
  context: { signal: AbortSignal; model: ModelInfo },
) => Promise<AgentMessage[]>;

/*
 * The model/tool loop, in pi 0.73's event order (agent-loop.ts): agent_start, turn_start, the
 * prompt messages, then per turn the streamed assistant message, its tool calls and results, and
 * turn_end; steering is injected before the next model call, follow-ups when the agent would stop.
 * A retryable failure ends the run as pi's does and starts a new one after a backoff, with
 * auto_retry_start/end around it. The loop takes its stream function as a parameter and knows
 * nothing of files: the caller persists at message_end.
 */

export interface AgentLoopConfig {
  /** Read before every model call, so a model change applies to the next call. */
  getModel(): ModelInfo;
  /** How to authorise a request to `model` now (a subscription's token may be renewed first). */
  getAuth(model: ModelInfo, signal: AbortSignal): RequestAuth | Promise<RequestAuth>;
  getThinkingLevel(): string;
  /**
   * The prompt the session should be sending, asked before every model request. When the
   * context's system messages replay to another prompt or other tools, a system message patching
   * them is recorded before the run's first message and before any later request (as pi 1.6
   * does before each turn), so the request is always the recorded replay.
   */
  systemSections: () => SystemPromptSections;
  tools: ReadonlyMap<string, AnyAgentTool>;
  streamFn: StreamFn;
  /** Run in order on the context before every model call, tool loops included. */
  transforms?: readonly ContextTransform[];
  getSteeringMessages(): AgentMessage[];
  /** Awaited before a run's prompts are recorded (a snapshot of the workspace's files). */
  beforePrompts?: () => Promise<void>;
  /** Awaited after a tool batch's results are recorded, before the next model call. */
  afterToolBatch?: (results: ToolResultMessage[]) => Promise<void>;
  getFollowUpMessages(): AgentMessage[];
  retry: RetrySettings;
  /**
   * Called with a failed attempt that is about to be retried, after auto_retry_start: the caller
   * keeps it out of every later request (pi 1.6 records a `context_edit` for it).
   */
  onRetryScheduled?(failed: AssistantMessage): void;
  /**
   * Told how to read the assistant message being streamed, from its `message_start` to just
   * before its `message_end` (then `null`). A read gives the loop's own object with every delta
   * so far applied, deltas of events already emitted included: readers copy what they keep.
   */
  onStreaming?(read: (() => AssistantMessage) | null): void;
}

export interface AgentLoopResult {
  /** Every message the run added (prompts, assistants, tool results), failed attempts included. */
  messages: AgentMessage[];
  /** The last assistant message, if any. */
  lastAssistant?: AssistantMessage;
}

/**
 * Runs prompts (possibly none, to continue from the context) to completion. `context` is the
 * agent's message list and is extended in place. Never throws for model or tool failures.
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: EmitFn,
  signal: AbortSignal,
): Promise<AgentLoopResult> {
  const all: AgentMessage[] = [];
  let segment: AgentMessage[] = [];
  let lastAssistant: AssistantMessage | undefined;
  let retryAttempt = 0;
  const record = (message: AgentMessage) => {
    context.push(message);
    segment.push(message);
    all.push(message);
  };

  const promptUpdate = () =>
    systemPromptUpdate(
      context,
      config.systemSections(),
      [...config.tools.values()].map((tool) => tool.spec),
      Date.now(),
    );

  emit({ type: 'agent_start' });
  emit({ type: 'turn_start' });
  if (prompts.length > 0) await config.beforePrompts?.();
  const update = promptUpdate();
  for (const prompt of update ? [update, ...prompts] : prompts) {
    emit({ type: 'message_start', message: prompt });
    emit({ type: 'message_end', message: prompt });
    record(prompt);
  }
  let promptChecked = true;
  let pending = config.getSteeringMessages();
  let firstTurn = true;

  for (;;) {
    let moreToolCalls = true;
    while (moreToolCalls || pending.length > 0) {
      if (!firstTurn) emit({ type: 'turn_start' });
      firstTurn = false;
      for (const message of pending) {
        emit({ type: 'message_start', message });
        emit({ type: 'message_end', message });
        record(message);
      }

      // A context file changed since the last request (by a tool, or by hand): patch it in.
      const changed = promptChecked ? undefined : promptUpdate();
      promptChecked = false;
      if (changed) {
        emit({ type: 'message_start', message: changed });
        emit({ type: 'message_end', message: changed });
        record(changed);
      }
      const model = config.getModel();
      const outcome = await streamAssistant(context, model, config, emit, signal);
      const message = outcome.message;
      record(message);
      lastAssistant = message;

      if (message.stopReason !== 'error' && retryAttempt > 0) {
        emit({ type: 'auto_retry_end', success: true, attempt: retryAttempt });
        retryAttempt = 0;
      }

      if (message.stopReason === 'error' || message.stopReason === 'aborted') {
        emit({ type: 'turn_end', message, toolResults: [] });
        emit({ type: 'agent_end', messages: segment });
        const retryable =
          config.retry.enabled && !signal.aborted && isRetryableError(message, model.contextWindow);
        if (!retryable) {
          if (retryAttempt > 0)
            emit({
              type: 'auto_retry_end',
              success: false,
              attempt: retryAttempt,
              finalError: message.errorMessage ?? 'Unknown error',
            });
          return { messages: all, lastAssistant };
        }
        retryAttempt++;
        if (retryAttempt > config.retry.maxRetries) {
          emit({
            type: 'auto_retry_end',
            success: false,
            attempt: retryAttempt - 1,
            finalError: message.errorMessage ?? 'Unknown error',
          });
          return { messages: all, lastAssistant };
        }
        const delayMs = retryDelayMs(config.retry, retryAttempt, outcome.retryAfterMs);
        emit({
          type: 'auto_retry_start',
          attempt: retryAttempt,
          maxAttempts: config.retry.maxRetries,
          delayMs,
          errorMessage: message.errorMessage ?? 'Unknown error',
        });
        // The failed attempt stays in the history (and the file) but not in what the model sees.
        config.onRetryScheduled?.(message);
        if (context[context.length - 1] === message) context.pop();
        try {
          await sleep(delayMs, signal);
        } catch {
          emit({
            type: 'auto_retry_end',
            success: false,
            attempt: retryAttempt,
            finalError: 'Retry cancelled',
          });
          return { messages: all, lastAssistant };
        }
        segment = [];
        emit({ type: 'agent_start' });
        emit({ type: 'turn_start' });
        firstTurn = true;
        moreToolCalls = true;
        pending = config.getSteeringMessages();
        continue;
      }

      const hasCalls = message.content.some((block) => block.type === 'toolCall');
      const toolResults = hasCalls
        ? await executeToolCalls(message, config.tools, signal, emit)
        : [];
      for (const result of toolResults) record(result);
      if (toolResults.length > 0) await config.afterToolBatch?.(toolResults);
      moreToolCalls = hasCalls;
      emit({ type: 'turn_end', message, toolResults });
      if (signal.aborted) {
        emit({ type: 'agent_end', messages: segment });
        return { messages: all, lastAssistant };
      }
      pending = config.getSteeringMessages();
    }
    const followUps = config.getFollowUpMessages();
    if (followUps.length === 0) break;
    pending = followUps;
  }
  emit({ type: 'agent_end', messages: segment });
  return { messages: all, lastAssistant };
}

/** Streams one assistant message, emitting message_start / message_update (deltas) / message_end. */
async function streamAssistant(
  context: AgentMessage[],
  model: ModelInfo,
  config: AgentLoopConfig,
  emit: EmitFn,
  signal: AbortSignal,
): Promise<ModelStreamOutcome> {
  const partial = new PartialMessage(emptyAssistantMessage(model));
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    config.onStreaming?.(() => partial.current());
    emit({ type: 'message_start', message: structuredClone(partial.current()) });
  };
  let outcome: ModelStreamOutcome;
  try {
    let messages = context;
    for (const transform of config.transforms ?? [])
      messages = await transform(messages, { signal, model });
    const stream = config.streamFn({
      model,
      auth: await config.getAuth(model, signal),
      // The prompt and tools travel in the context's system messages (the recorded replay).
      systemPrompt: '',
      messages: toProviderMessages(messages),
      tools: [],
      thinkingLevel: config.getThinkingLevel(),
      signal,
    });
    for (;;) {
      const next = await stream.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      const event = next.value;
      start();
      if (event.type === 'start') continue;
      partial.apply(event as AssistantMessageEvent);
      emit({ type: 'message_update', assistantMessageEvent: event });
    }
  } catch (error) {
    // A stream function or transform that throws is a defect, but the run still ends as data.
    const sofar = partial.current();
    const failed: AssistantMessage = {
      ...sofar,
      content: sofar.content.filter((block) => block.type !== 'toolCall'),
      stopReason: signal.aborted ? 'aborted' : 'error',
      errorMessage: error instanceof Error ? error.message : String(error),
    };
    outcome = { message: failed };
  }
  start();
  config.onStreaming?.(null);
  emit({ type: 'message_end', message: outcome.message });
  return outcome;
}
