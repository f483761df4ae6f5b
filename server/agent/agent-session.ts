import type {
  AgentEvent,
  AgentSessionEvent,
  CompactionReason,
  CompactionResult,
} from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage, ImageContent } from '../../shared/messages.js';
import { ThinkingLevelSchema } from '../../shared/session-entries.js';
import { modelRefText, type ModelRef } from '../../shared/model-ref.js';
import type { ModelCatalog, ModelInfo } from '../models/model-catalog.js';
import { clampThinkingLevel } from '../models/request-capabilities.js';
import type { ContextChange } from '../store/context-edit-rule.js';
import type { SessionStore } from '../store/session-store.js';
import type { SessionView } from './session-view.js';
import type { AgentResources } from './agent-resources.js';
import { runAgentLoop, type AgentLoopConfig } from './agent-loop.js';
import { BackgroundSync } from './background-sync.js';
import { compactWithEvents, type CompactionOutcome } from './compaction-run.js';
import { EventListeners } from './event-listeners.js';
import { ShellCommands } from './shell-command.js';
import { createCompleteFn, type CompactionContext } from '../compaction/context-transforms.js';
import { loopConfig } from './loop-config.js';
import { applyNavigation, branchSummaryOptions, resolveNavigation } from './navigation.js';
import { recoverFromOverflow } from './overflow-recovery.js';
import { RunRecorder } from './run-recorder.js';
import {
  InvalidRequestError,
  NotSupportedError,
  SessionBusyError,
  UnknownModelError,
} from './session-errors.js';
import { contextUsage, pathCost } from './session-metrics.js';
import { PromptQueues, userMessage, type QueueKind, type QueueTexts } from './prompt-queues.js';
import type {
  AgentSessionDeps,
  AgentSessionState,
  NavigateOptions,
  NavigateResult,
} from './agent-session-types.js';

/*
 * The product layer around the agent loop: one session tree (the store), one run at a time, any
 * number of listeners. A message is persisted at its message_end before listeners see it (the
 * store's `entry_appended`, then `message_end` naming that entry, `state_changed` after anything
 * that changes the state). After every run, leaf move and compaction the context is rebuilt from
 * the store. Appends are made durable off the event loop (BackgroundSync) at every turn end.
 */

/** The roles a run writes to the file (the prompt and tools recorded first included, pi 1.6). */
const PERSISTED_ROLES = new Set(['system', 'user', 'assistant', 'toolResult', 'custom']);

export class AgentSession {
  readonly store: SessionStore;
  private catalog: ModelCatalog;
  private readonly deps: AgentSessionDeps;
  private readonly listeners = new EventListeners<AgentSessionEvent>();
  private readonly emit = (event: AgentSessionEvent): void => this.listeners.emit(event);
  private readonly unsubscribeStore: () => void;
  private messages: AgentMessage[];
  private model: ModelInfo;
  /** The level in effect: the one asked for, clamped to what the model supports. */
  private thinkingLevel: string;
  /** The level last asked for, re-clamped whenever the model changes. */
  private requestedThinkingLevel: string;
  private readonly queues = new PromptQueues((q) => this.emit({ type: 'queue_update', ...q }));
  private run: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private compacting = false;
  /** Set from the call of a manual compaction until it ends (it first waits for a run to stop). */
  private manualCompaction: Promise<CompactionResult> | undefined;
  private disposed = false;
  /** The editor's `!command`s running now: abort and dispose stop them. */
  private readonly shellCommands: ShellCommands;
  /** The loop's message being streamed (its own object, not a copy), or null. */
  private streaming: (() => AssistantMessage) | null = null;
  private readonly syncer: BackgroundSync;
  private readonly recorder: RunRecorder;

  constructor(deps: AgentSessionDeps) {
    this.deps = deps;
    this.store = deps.store;
    this.catalog = deps.catalog;
    this.model = deps.model;
    this.recorder = new RunRecorder(deps);
    this.shellCommands = new ShellCommands(deps.tools);
    this.requestedThinkingLevel = deps.thinkingLevel;
    this.thinkingLevel = clampThinkingLevel(deps.model, deps.thinkingLevel);
    this.messages = this.store.buildSessionContext().messages;
    this.syncer = new BackgroundSync(this.store);
    this.unsubscribeStore = this.store.onChange((change) => this.emit(change));
  }

  /** Every agent event and every store change, in one ordered stream. */
  subscribe(listener: (event: AgentSessionEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * Runs a prompt to completion (retries and follow-ups included) and resolves once its entries
   * are durable. The session is idle again as soon as the run ends (at agent_end), before that.
   */
  async prompt(
    text: string,
    opts: { images?: ImageContent[]; author?: string | undefined } = {},
  ): Promise<void> {
    this.assertIdle();
    this.assertModelCallable();
    // A file that cannot be written (held elsewhere, read-only) fails here, before the run.
    this.store.ensureWritable();
    this.recorder.start(this.model, this.thinkingLevel);
    const message = userMessage(this.deps.resources.expand(text), opts.images);
    this.noteAuthor(message, opts.author);
    await this.execute([message]);
    // A failed append is the error to report; a failed fsync after it adds nothing.
    await this.syncer.flush().catch((error: unknown) => {
      if (this.recorder.failed === undefined) throw error;
    });
    if (this.recorder.failed !== undefined) throw this.recorder.failed;
  }

  /** Delivered after the current tool batch, before the next model call. */
  steer(text: string, images?: ImageContent[], author?: string): void {
    this.noteAuthor(this.queues.push('steering', this.deps.resources.expand(text), images), author);
  }

  /** Delivered when the agent would otherwise stop. */
  followUp(text: string, images?: ImageContent[], author?: string): void {
    this.noteAuthor(this.queues.push('followUp', this.deps.resources.expand(text), images), author);
  }

  /** Who sent each prompt of this process's runs, saved on its entry (decision 112). */
  private readonly authors = new WeakMap<AgentMessage, string>();

  private noteAuthor(message: AgentMessage, author: string | undefined): void {
    if (author !== undefined) this.authors.set(message, author);
  }

  clearQueue(): QueueTexts {
    return this.queues.clear();
  }

  /**
   * Takes one queued message back (to edit or drop it). `text` names the message expected at
   * `index`; when the agent already delivered it the request is refused and nothing changes.
   */
  dequeue(kind: QueueKind, index: number, text: string): { text: string; images: ImageContent[] } {
    const removed = this.queues.remove(kind, index, text);
    if (!removed)
      throw new InvalidRequestError(
        'That queued message is no longer in the queue: it was delivered or taken back already',
      );
    return removed;
  }

  /** The editor's `!command`, saved as pi's bashExecution message once no run is streaming. */
  async bash(command: string, excludeFromContext: boolean): Promise<AgentMessage> {
    this.store.ensureWritable();
    const message = await this.shellCommands.run(command, excludeFromContext);
    while (this.run) await this.run.catch(() => undefined);
    if (this.disposed) throw new InvalidRequestError('The session is closed');
    // Its message_end names the entry, as for the agent's messages: the page shows it from that.
    const entryId = this.store.appendMessage(message);
    this.rebuildContext();
    this.emit({ type: 'message_end', message, entryId });
    // Its output is context now (unless `!!`): the meter counts it at once.
    this.emitState();
    return message;
  }

  /**
   * Stops the run at once (HTTP request and tool processes) and every `!command`, and waits until
   * the run has ended. A stopped command is saved as cancelled, as pi saves it.
   */
  async abort(): Promise<void> {
    this.shellCommands.abortAll();
    this.controller?.abort();
    await this.run?.catch(() => {});
  }

  async navigateTree(targetId: string | null, opts: NavigateOptions = {}): Promise<NavigateResult> {
    this.assertIdle();
    this.store.ensureWritable();
    const oldLeaf = this.store.getLeafId();
    if (targetId === oldLeaf) return { cancelled: false };
    const plan = resolveNavigation(this.store, targetId);
    let summary: { summary: string; details?: unknown } | undefined;
    if (opts.summarize) {
      this.assertModelCallable();
      const summarizer = this.deps.compactor;
      if (!summarizer?.summarizeBranch)
        throw new NotSupportedError('Branch summaries are not available in this build');
      this.compacting = true;
      const controller = new AbortController();
      this.controller = controller;
      try {
        summary = await summarizer.summarizeBranch(
          this.compactionContext(controller.signal),
          branchSummaryOptions(oldLeaf, targetId, opts),
        );
      } catch (error) {
        if (controller.signal.aborted) return { cancelled: true };
        throw error;
      } finally {
        this.compacting = false;
        this.controller = undefined;
      }
    }
    applyNavigation(this.store, plan, { targetId, summary, label: opts.label });
    this.rebuildContext();
    this.emitState();
    await this.syncer.flush();
    return {
      cancelled: false,
      ...(plan.editorText !== undefined ? { editorText: plan.editorText } : {}),
      ...(plan.editorImages ? { editorImages: plan.editorImages } : {}),
    };
  }

  /** Manual compaction: aborts a run first, then asks the compactor. */
  compact(customInstructions?: string): Promise<CompactionResult> {
    if (this.disposed) return Promise.reject(new InvalidRequestError('The session is closed'));
    if (this.model.unavailable)
      return Promise.reject(new UnknownModelError(this.model.unavailable));
    if (!this.deps.compactor)
      return Promise.reject(new NotSupportedError('Compaction is not available in this build'));
    if (this.compacting || this.manualCompaction)
      return Promise.reject(new SessionBusyError('A compaction is already running'));
    const compaction = this.compactNow(customInstructions).finally(() => {
      this.manualCompaction = undefined;
    });
    this.manualCompaction = compaction;
    return compaction.then(async (result) => {
      await this.syncer.flush();
      return result;
    });
  }

  /**
   * The server's catalog changed (an admin chose the models in use, saved a key, or models.json
   * was read again): models and keys come from the new one from now on, the next request of a run
   * included, and the session's model is as the new catalog knows it. A model taken out of use
   * keeps its name and says why (`modelProblem`); its prompts are refused until another is chosen.
   */
  useCatalog(catalog: ModelCatalog): void {
    if (catalog === this.catalog) return;
    this.catalog = catalog;
    this.model = catalog.recorded(this.model.provider, this.model.id);
    this.emitState();
  }

  setModel(ref: ModelRef): void {
    const model = this.catalog.get(ref.provider, ref.modelId);
    if (!model) throw new UnknownModelError(`Unknown model "${modelRefText(ref)}"`);
    if (model.id === this.model.id && model.provider === this.model.provider) return;
    this.store.appendModelChange(model.provider, model.id);
    this.model = model;
    this.recorder.modelChanged();
    this.emit({ type: 'model_changed', provider: model.provider, modelId: model.id });
    this.applyThinkingLevel();
    this.emitState();
  }

  /**
   * Asks for a thinking level; the model gets the nearest one it supports (see
   * request-capabilities.ts), which is what is recorded and what the state shows. The level asked
   * for is remembered, so a later model that supports it gets it.
   */
  setThinkingLevel(level: string): void {
    const parsed = ThinkingLevelSchema.safeParse(level);
    if (!parsed.success)
      throw new InvalidRequestError(
        `Unknown thinking level "${level}"; use one of ${ThinkingLevelSchema.options.join(', ')}`,
      );
    this.requestedThinkingLevel = parsed.data;
    if (this.applyThinkingLevel()) this.emitState();
  }

  /** True when the level in effect changed. */
  private applyThinkingLevel(): boolean {
    const effective = clampThinkingLevel(this.model, this.requestedThinkingLevel);
    if (effective === this.thinkingLevel) return false;
    this.store.appendThinkingLevelChange(effective);
    this.thinkingLevel = effective;
    this.recorder.thinkingLevelChanged();
    this.emit({ type: 'thinking_level_changed', level: effective });
    return true;
  }

  /** Sets or clears an entry's label; the store trims it and refuses an unknown entry. */
  setLabel(entryId: string, label: string | undefined): void {
    this.store.appendLabelChange(entryId, label);
  }

  /** Names the session; the store writes it as pi 1.6 does and refuses an empty name. */
  setSessionName(name: string): void {
    this.store.appendSessionInfo(name);
  }

  /**
   * Hides an entry from the model's context, replaces its content there or undoes that, with a
   * context_edit at the leaf (no branch); only while idle (decision 064). Resolves, durable, to
   * the new entry's id.
   */
  async editContext(targetId: string, change: ContextChange): Promise<string> {
    this.assertIdle();
    const id = this.store.appendContextEdit(targetId, change);
    this.rebuildContext();
    this.emitState();
    await this.syncer.flush();
    return id;
  }

  /** The session's tree to read; the hub's one door into it (writes go through the methods above). */
  get view(): SessionView {
    return this.store;
  }

  /** The workspace's context files, skills and templates as this session loads them. */
  get resources(): AgentResources {
    return this.deps.resources;
  }

  /** True while a run, or a compaction or branch summary, is in progress. */
  isBusy(): boolean {
    return this.run !== undefined || this.compacting || this.manualCompaction !== undefined;
  }

  getState(): AgentSessionState {
    const branch = this.store.getBranch();
    const modelProblem = this.catalog.problemOf(this.model);
    return {
      isStreaming: this.run !== undefined,
      isCompacting: this.compacting,
      provider: this.model.provider,
      modelId: this.model.id,
      ...(modelProblem ? { modelProblem } : {}),
      thinkingLevel: this.thinkingLevel,
      ...this.queues.texts(),
      leafId: this.store.getLeafId(),
      contextUsage: contextUsage(branch, this.messages, this.model.contextWindow),
      cost: pathCost(branch),
    };
  }

  /**
   * A copy of the assistant message being streamed, every delta emitted so far applied, or null
   * between messages: what a client that joins mid-run needs to draw it.
   */
  getStreamingMessage(): AssistantMessage | null {
    return this.streaming ? structuredClone(this.streaming()) : null;
  }

  getContextMessages(): AgentMessage[] {
    return [...this.messages];
  }

  /** Aborts a run, makes everything durable, closes the store. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.abort();
    await this.manualCompaction?.catch(() => undefined);
    this.unsubscribeStore();
    await this.syncer.close();
    // Closing fsyncs the file.
    this.store.close();
    for (const tool of this.deps.tools.values()) tool.dispose?.();
    this.listeners.clear();
  }

  // ------------------------------------------------------------------ internals

  /** Refuses a model call on a model this server does not know, naming it and what to do. */
  private assertModelCallable(): void {
    if (this.model.unavailable) throw new UnknownModelError(this.model.unavailable);
  }

  private async compactNow(customInstructions: string | undefined): Promise<CompactionResult> {
    // A file that cannot be written fails the command before a run is stopped for it.
    this.store.ensureWritable();
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

  private assertIdle(): void {
    if (this.disposed) throw new InvalidRequestError('The session is closed');
    if (this.compacting)
      throw new SessionBusyError(
        'A compaction is running; wait for it to finish or abort it first',
      );
    if (this.run) throw new SessionBusyError();
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
        await recoverFromOverflow(result.lastAssistant, {
          model: this.model,
          enabled:
            this.deps.compactor !== undefined &&
            this.deps.compactor.isEnabled?.(this.store) !== false,
          signal: controller.signal,
          omit: (message) => this.recorder.omit(message),
          compact: () => this.runCompaction('overflow', undefined, true),
          rerun: async () =>
            (
              await runAgentLoop(
                [],
                this.messages,
                this.loopConfig(),
                (event) => this.onAgentEvent(event),
                controller.signal,
              )
            ).lastAssistant,
          emit: (event) => this.emit(event),
        });
      } finally {
        this.rebuildContext();
      }
    })();
    this.run = run.finally(() => {
      this.run = undefined;
      this.controller = undefined;
      this.emitState();
    });
    return this.run;
  }

  private loopConfig(): AgentLoopConfig {
    return loopConfig(this.deps, {
      store: this.store,
      model: () => this.model,
      authFor: (model, signal) => this.catalog.requestAuth(model, signal),
      thinkingLevel: () => this.thinkingLevel,
      compact: async (reason) => {
        const outcome = await this.runCompaction(reason, undefined, false);
        return outcome.ok ? this.messages : undefined;
      },
      takeQueued: (kind) => this.queues.take(kind),
      onRetryScheduled: (failed) => {
        if (!this.recorder.omit(failed)) this.controller?.abort();
      },
      onStreaming: (read) => {
        this.streaming = read;
      },
    });
  }

  private onAgentEvent(event: AgentEvent): void {
    if (event.type === 'agent_end') this.recorder.showFailure(this.model, (e) => this.emit(e));
    if (event.type === 'message_end' && PERSISTED_ROLES.has(event.message.role)) {
      // Saved first, so that message_end can name its entry (its entry_appended comes just
      // before). A failed append stops the run: it ends with agent_end, its failure shown first.
      const author = this.authors.get(event.message);
      const entryId = this.recorder.append(event.message, author);
      if (entryId === undefined) this.controller?.abort();
      this.emit(
        entryId === undefined
          ? event
          : { ...event, entryId, ...(author !== undefined ? { author } : {}) },
      );
      return;
    }
    this.emit(event);
    if (event.type === 'turn_end') {
      this.syncer.requestQuietly();
      // The turn's answer and tool results are in the context now: new cost and usage.
      this.emitState();
    }
  }

  /** Pushes the session's state to listeners (see `state_changed` in shared/agent-events.ts). */
  private emitState(): void {
    if (this.disposed) return;
    this.emit({ type: 'state_changed', state: this.getState() });
  }

  private rebuildContext(): void {
    const rebuilt = this.store.buildSessionContext().messages;
    this.messages.splice(0, this.messages.length, ...rebuilt);
  }

  private compactionContext(signal: AbortSignal): CompactionContext {
    const { catalog } = this;
    const complete = createCompleteFn(this.deps.streamFn, this.model, (model, signal) =>
      catalog.requestAuth(model, signal),
    );
    const { store, model, thinkingLevel } = this;
    const settings = this.deps.compactionSettings;
    return { store, model, complete, thinkingLevel, signal, settings };
  }

  private async runCompaction(
    reason: CompactionReason,
    customInstructions: string | undefined,
    willRetry: boolean,
  ): Promise<CompactionOutcome> {
    const compactor = this.deps.compactor;
    if (!compactor)
      return { ok: false, error: new NotSupportedError('Compaction is not available') };
    const signal = this.controller?.signal ?? new AbortController().signal;
    this.compacting = true;
    try {
      const run = { reason, customInstructions, willRetry };
      const context = this.compactionContext(signal);
      return await compactWithEvents(compactor, context, run, this.emit, () =>
        this.rebuildContext(),
      );
    } finally {
      this.compacting = false;
      this.emitState();
    }
  }
}
