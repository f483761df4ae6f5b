import type {
  AgentEvent,
  AgentSessionEvent,
  CompactionReason,
  CompactionResult,
} from '../../shared/agent-events.js';
import type { AgentMessage, ImageContent, UserMessage } from '../../shared/messages.js';
import { ThinkingLevelSchema } from '../../shared/session-entries.js';
import { isContextOverflow } from '../models/context-overflow.js';
import type { ModelCatalog, ModelInfo } from '../models/model-catalog.js';
import type { SessionStore } from '../store/session-store.js';
import { runAgentLoop, type AgentLoopConfig } from './agent-loop.js';
import type { AnyAgentTool, StreamFn } from './agent-types.js';
import {
  createCompleteFn,
  NotSupportedError,
  runContextSteps,
  type CompactionContext,
  type Compactor,
  type ContextStep,
} from './context-transforms.js';
import { resolveNavigation } from './navigation.js';
import type { RetrySettings } from './retry-policy.js';
import { contextUsage, pathCost, type ContextUsage } from './session-metrics.js';

/*
 * The product layer around the agent loop: one session tree (the store), one run at a time, any
 * number of listeners. Every agent event goes to listeners first and is then persisted (at
 * message_end), so listeners see `message_end` followed by the store's `entry_appended`. After
 * every run, leaf move and compaction the agent's context is rebuilt from the store.
 */

export class SessionBusyError extends Error {
  readonly code = 'session_busy';
  constructor(message = 'The session is running; wait for it to finish or abort it first') {
    super(message);
  }
}

export class UnknownModelError extends Error {
  readonly code = 'unknown_model';
}

export class InvalidRequestError extends Error {
  readonly code = 'invalid_request';
}

export type AgentSessionState = {
  isStreaming: boolean;
  isCompacting: boolean;
  modelId: string;
  thinkingLevel: string;
  steering: string[];
  followUp: string[];
  leafId: string | null;
  contextUsage: ContextUsage;
  cost: number;
};

export interface NavigateOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface NavigateResult {
  editorText?: string;
  editorImages?: ImageContent[];
  cancelled: boolean;
}

export interface AgentSessionDeps {
  store: SessionStore;
  catalog: ModelCatalog;
  model: ModelInfo;
  thinkingLevel: string;
  tools: ReadonlyMap<string, AnyAgentTool>;
  streamFn: StreamFn;
  systemPrompt: string;
  retry: RetrySettings;
  contextSteps: readonly ContextStep[];
  compactor?: Compactor;
  compactionSettings?: unknown;
}

interface Queued {
  text: string;
  message: UserMessage;
}

function userMessage(text: string, images?: ImageContent[]): UserMessage {
  return {
    role: 'user',
    content: [{ type: 'text', text }, ...(images ?? [])],
    timestamp: Date.now(),
  };
}

export class AgentSession {
  readonly store: SessionStore;
  private readonly catalog: ModelCatalog;
  private readonly deps: AgentSessionDeps;
  private readonly listeners = new Set<(event: AgentSessionEvent) => void>();
  private readonly unsubscribeStore: () => void;
  private messages: AgentMessage[];
  private model: ModelInfo;
  private thinkingLevel: string;
  private steering: Queued[] = [];
  private followUps: Queued[] = [];
  private run: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private compacting = false;
  private disposed = false;

  constructor(deps: AgentSessionDeps) {
    this.deps = deps;
    this.store = deps.store;
    this.catalog = deps.catalog;
    this.model = deps.model;
    this.thinkingLevel = deps.thinkingLevel;
    this.messages = this.store.buildSessionContext().messages;
    this.unsubscribeStore = this.store.onChange((change) => this.emit(change));
  }

  /** Every agent event and every store change, in one ordered stream. */
  subscribe(listener: (event: AgentSessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a prompt to completion (retries and follow-ups included). */
  async prompt(text: string, opts: { images?: ImageContent[] } = {}): Promise<void> {
    this.assertIdle();
    await this.execute([userMessage(text, opts.images)]);
  }

  /** Delivered after the current tool batch, before the next model call. */
  steer(text: string, images?: ImageContent[]): void {
    this.steering.push({ text, message: userMessage(text, images) });
    this.emitQueue();
  }

  /** Delivered when the agent would otherwise stop. */
  followUp(text: string, images?: ImageContent[]): void {
    this.followUps.push({ text, message: userMessage(text, images) });
    this.emitQueue();
  }

  clearQueue(): { steering: string[]; followUp: string[] } {
    const cleared = {
      steering: this.steering.map((q) => q.text),
      followUp: this.followUps.map((q) => q.text),
    };
    this.steering = [];
    this.followUps = [];
    this.emitQueue();
    return cleared;
  }

  /** Stops the run at once (HTTP request and tool processes) and waits until it has ended. */
  async abort(): Promise<void> {
    this.controller?.abort();
    await this.run?.catch(() => {});
  }

  async navigateTree(targetId: string | null, opts: NavigateOptions = {}): Promise<NavigateResult> {
    this.assertIdle();
    const oldLeaf = this.store.getLeafId();
    if (targetId === oldLeaf) return { cancelled: false };
    const plan = resolveNavigation(this.store, targetId);
    let summary: { summary: string; details?: unknown } | undefined;
    if (opts.summarize) {
      const summarizer = this.deps.compactor;
      if (!summarizer?.summarizeBranch)
        throw new NotSupportedError('Branch summaries are not available in this build');
      this.compacting = true;
      const controller = new AbortController();
      this.controller = controller;
      try {
        summary = await summarizer.summarizeBranch(this.compactionContext(controller.signal), {
          oldLeafId: oldLeaf,
          // The picked entry, as pi collects the branch (a picked prompt goes to the editor).
          targetId,
          ...(opts.customInstructions !== undefined
            ? { customInstructions: opts.customInstructions }
            : {}),
          ...(opts.replaceInstructions !== undefined
            ? { replaceInstructions: opts.replaceInstructions }
            : {}),
        });
      } catch (error) {
        if (controller.signal.aborted) return { cancelled: true };
        throw error;
      } finally {
        this.compacting = false;
        this.controller = undefined;
      }
    }
    if (summary) {
      const id = this.store.branchWithSummary(
        plan.newLeafId,
        summary.summary,
        summary.details,
        false,
      );
      if (opts.label) this.store.appendLabelChange(id, opts.label);
    } else {
      if (plan.newLeafId === null) this.store.resetLeaf();
      else this.store.branch(plan.newLeafId);
      if (opts.label && targetId !== null) this.store.appendLabelChange(targetId, opts.label);
    }
    this.rebuildContext();
    this.store.sync();
    return {
      cancelled: false,
      ...(plan.editorText !== undefined ? { editorText: plan.editorText } : {}),
      ...(plan.editorImages ? { editorImages: plan.editorImages } : {}),
    };
  }

  /** Manual compaction: aborts a run first, then asks the compactor. */
  async compact(customInstructions?: string): Promise<CompactionResult> {
    if (!this.deps.compactor)
      throw new NotSupportedError('Compaction is not available in this build');
    if (this.compacting) throw new SessionBusyError('A compaction is already running');
    await this.abort();
    // Its own controller, so that abort() also stops a manual compaction.
    const controller = new AbortController();
    this.controller = controller;
    try {
      const result = await this.runCompaction('manual', customInstructions, false);
      if (!result.ok) throw result.error;
      return result.result;
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  setModel(modelId: string): void {
    const model = this.catalog.get(modelId);
    if (!model) throw new UnknownModelError(`Unknown model "${modelId}"`);
    if (model.id === this.model.id && model.provider === this.model.provider) return;
    this.model = model;
    this.store.appendModelChange(model.provider, model.id);
    this.emit({ type: 'model_changed', modelId: model.id });
  }

  setThinkingLevel(level: string): void {
    const parsed = ThinkingLevelSchema.safeParse(level);
    if (!parsed.success)
      throw new InvalidRequestError(
        `Unknown thinking level "${level}"; use one of ${ThinkingLevelSchema.options.join(', ')}`,
      );
    if (parsed.data === this.thinkingLevel) return;
    this.thinkingLevel = parsed.data;
    this.store.appendThinkingLevelChange(parsed.data);
    this.emit({ type: 'thinking_level_changed', level: parsed.data });
  }

  setLabel(entryId: string, label: string | undefined): void {
    if (!this.store.getNode(entryId)) throw new InvalidRequestError(`Unknown entry "${entryId}"`);
    const trimmed = label?.trim();
    this.store.appendLabelChange(entryId, trimmed ? trimmed : undefined);
  }

  setSessionName(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new InvalidRequestError('A session name cannot be empty');
    this.store.appendSessionInfo(trimmed);
  }

  getState(): AgentSessionState {
    return {
      isStreaming: this.run !== undefined,
      isCompacting: this.compacting,
      modelId: this.model.id,
      thinkingLevel: this.thinkingLevel,
      steering: this.steering.map((q) => q.text),
      followUp: this.followUps.map((q) => q.text),
      leafId: this.store.getLeafId(),
      contextUsage: contextUsage(this.store.getBranch(), this.messages, this.model.contextWindow),
      cost: pathCost(this.store.getBranch()),
    };
  }

  /** The agent's context: what the next model call is built from (before conversion). */
  getContextMessages(): AgentMessage[] {
    return [...this.messages];
  }

  /** Aborts a run, makes everything durable, closes the store. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.abort();
    this.unsubscribeStore();
    this.store.sync();
    this.store.close();
    this.listeners.clear();
  }

  // ------------------------------------------------------------------ internals

  private assertIdle(): void {
    if (this.disposed) throw new InvalidRequestError('The session is closed');
    if (this.compacting)
      throw new SessionBusyError(
        'A compaction is running; wait for it to finish or abort it first',
      );
    if (this.run) throw new SessionBusyError();
  }

  private emit(event: AgentSessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break the run or the other listeners.
      }
    }
  }

  private emitQueue(): void {
    this.emit({
      type: 'queue_update',
      steering: this.steering.map((q) => q.text),
      followUp: this.followUps.map((q) => q.text),
    });
  }

  private execute(prompts: AgentMessage[]): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const run = (async () => {
      try {
        const result = await runAgentLoop(
          prompts,
          this.messages,
          this.loopConfig(),
          (event) => this.onAgentEvent(event),
          controller.signal,
        );
        // Overflow: compact once, then continue from the compacted context (pi's recovery).
        const last = result.lastAssistant;
        if (
          last &&
          this.deps.compactor &&
          this.deps.compactor.isEnabled?.(this.store) !== false &&
          !controller.signal.aborted &&
          isContextOverflow(last, this.model.contextWindow) &&
          last.stopReason === 'error'
        ) {
          const compacted = await this.runCompaction('overflow', undefined, true);
          if (compacted.ok && !controller.signal.aborted) {
            const retried = await runAgentLoop(
              [],
              this.messages,
              this.loopConfig(),
              (event) => this.onAgentEvent(event),
              controller.signal,
            );
            // One recovery per prompt: a second overflow stops with a clear error (as pi).
            const again = retried.lastAssistant;
            if (
              again?.stopReason === 'error' &&
              isContextOverflow(again, this.model.contextWindow)
            ) {
              this.emit({
                type: 'compaction_end',
                reason: 'overflow',
                aborted: false,
                willRetry: false,
                errorMessage:
                  'Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.',
              });
            }
          }
        }
      } finally {
        this.store.sync();
        this.rebuildContext();
      }
    })();
    this.run = run.finally(() => {
      this.run = undefined;
      this.controller = undefined;
    });
    return this.run;
  }

  private loopConfig(): AgentLoopConfig {
    return {
      getModel: () => this.model,
      getApiKey: (model) => this.catalog.apiKeyFor(model.id),
      getThinkingLevel: () => this.thinkingLevel,
      systemPrompt: this.deps.systemPrompt,
      tools: this.deps.tools,
      streamFn: this.deps.streamFn,
      transforms:
        this.deps.contextSteps.length > 0
          ? [
              (messages, { signal, model }) =>
                runContextSteps(this.deps.contextSteps, messages, {
                  signal,
                  model,
                  store: this.store,
                  compact: async (reason) => {
                    const outcome = await this.runCompaction(reason, undefined, false);
                    return outcome.ok ? this.messages : undefined;
                  },
                }),
            ]
          : [],
      getSteeringMessages: () => this.drain('steering'),
      getFollowUpMessages: () => this.drain('followUp'),
      retry: this.deps.retry,
    };
  }

  /** pi's default queue mode, one-at-a-time: one queued message per delivery point. */
  private drain(kind: 'steering' | 'followUp'): AgentMessage[] {
    const queue = kind === 'steering' ? this.steering : this.followUps;
    const next = queue.shift();
    if (!next) return [];
    // The queue shrinks just before the message is injected (queue_update, then message_start).
    this.emitQueue();
    return [next.message];
  }

  private onAgentEvent(event: AgentEvent): void {
    this.emit(event);
    if (event.type === 'message_end') {
      const role = event.message.role;
      if (role === 'user' || role === 'assistant' || role === 'toolResult' || role === 'custom')
        this.store.appendMessage(event.message);
    } else if (event.type === 'turn_end') {
      this.store.sync();
    }
  }

  private rebuildContext(): void {
    const rebuilt = this.store.buildSessionContext().messages;
    this.messages.splice(0, this.messages.length, ...rebuilt);
  }

  private compactionContext(signal: AbortSignal): CompactionContext {
    return {
      store: this.store,
      model: this.model,
      complete: createCompleteFn(
        this.deps.streamFn,
        this.model,
        this.catalog.apiKeyFor(this.model.id),
      ),
      thinkingLevel: this.thinkingLevel,
      signal,
      settings: this.deps.compactionSettings,
    };
  }

  private async runCompaction(
    reason: CompactionReason,
    customInstructions: string | undefined,
    willRetry: boolean,
  ): Promise<{ ok: true; result: CompactionResult } | { ok: false; error: Error }> {
    const compactor = this.deps.compactor;
    if (!compactor)
      return { ok: false, error: new NotSupportedError('Compaction is not available') };
    const signal = this.controller?.signal ?? new AbortController().signal;
    this.compacting = true;
    this.emit({ type: 'compaction_start', reason });
    try {
      const result = await compactor.compact(this.compactionContext(signal), {
        reason,
        ...(customInstructions !== undefined ? { customInstructions } : {}),
      });
      this.rebuildContext();
      this.emit({ type: 'compaction_end', reason, result, aborted: false, willRetry });
      return { ok: true, result };
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      this.emit({
        type: 'compaction_end',
        reason,
        aborted: signal.aborted,
        willRetry: false,
        errorMessage: err.message,
      });
      return { ok: false, error: err };
    } finally {
      this.compacting = false;
    }
  }
}
