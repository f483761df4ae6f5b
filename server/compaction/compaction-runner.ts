import type { AgentEvent, CompactionReason, CompactionResult } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage } from '../../shared/messages.js';
import type { SessionContext, SessionEntry } from '../../shared/session-entries.js';
import {
  collectEntriesForBranchSummary,
  generateBranchSummary,
  type BranchSummaryResult,
} from './branch-summary.js';
import { applyNavigation, navigationTarget, type NavigationWriter } from './branch-navigation.js';
import { settingsForWindow, type SummarySettings } from './compaction-settings.js';
import { isContextOverflow } from './context-overflow.js';
import { latestCompaction } from './entry-messages.js';
import { prepareCompaction, type CompactionPreparation } from './prepare-compaction.js';
import { Summarizer } from './summarizer.js';
import {
  isAbortError,
  SummaryAbortedError,
  type CompleteFn,
  type SummaryModelInfo,
} from './summary-model.js';
import {
  calculateContextTokens,
  estimateTokens,
  shouldCompact,
  validAssistantUsage,
} from './token-estimates.js';

/*
 * Compaction inside a live session: the threshold check before every model call, recovery from a
 * provider's "context too long", manual compaction, and branch summaries when the leaf moves. It
 * holds no session state of its own beyond what guards against loops; the store is the truth.
 * A compaction that fails or is aborted appends nothing.
 */

/** The part of the store compaction reads and writes. */
export interface CompactionStore extends NavigationWriter {
  getLeafId(): string | null;
  getBranch(fromId?: string | null): SessionEntry[];
  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string;
  buildSessionContext(leafId?: string | null): SessionContext;
}

export interface RunnerModel extends SummaryModelInfo {
  id: string;
  provider: string;
}

export interface CompactionRunnerDeps {
  store: CompactionStore;
  /** The session's current model (the one summaries are asked of). */
  getModel(): RunnerModel;
  /** One completion with the current model; see `CompleteFn`. */
  complete: CompleteFn;
  emit(event: AgentEvent): void;
  getSettings(): SummarySettings;
  getThinkingLevel?(): string;
  /** Stops a running turn and resolves when it has ended (manual compaction does this first). */
  abortRun?(): Promise<void>;
  /** Called with the rebuilt context after every compaction, so the agent adopts it. */
  onContextRebuilt?(messages: AgentMessage[]): void;
}

export class CompactionBusyError extends Error {
  readonly code = 'compaction_in_progress';
  constructor(what = 'A compaction or branch summary is running') {
    super(`${what}; wait for it to finish or abort it first.`);
    this.name = 'CompactionBusyError';
  }
}

/** Thrown by the context transform to stop a turn that compaction cannot help. */
export class CompactionLoopError extends Error {
  readonly code = 'compaction_freed_no_room';
  constructor(
    readonly tokensBefore: number,
    readonly tokensAfter: number,
  ) {
    super(
      `Compaction freed no room (about ${tokensBefore} tokens before, ${tokensAfter} after), so this turn stops here instead of compacting again. Start a new branch, shorten the latest message, or switch to a model with a larger context window.`,
    );
    this.name = 'CompactionLoopError';
  }
}

export type OverflowOutcome =
  /** Not an overflow (or one from another model, or already handled): nothing to do. */
  | 'none'
  /** Compacted: rebuild the context and continue the run once. */
  | 'retry'
  /** Recovery failed or was already tried for this user message: the run stops with an error. */
  | 'failed';

interface AutoOutcome {
  result?: CompactionResult;
  aborted?: boolean;
  errorMessage?: string;
}

export interface NavigateOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface NavigateResult {
  editorText?: string;
  cancelled: boolean;
  aborted?: boolean;
  summaryEntryId?: string;
}

const OVERFLOW_RETRY_FAILED =
  'Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.';

function sumEstimates(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message), 0);
}

function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

export class CompactionRunner {
  private controller: AbortController | undefined;
  private overflowRecoveryAttempted = false;
  /** Tokens a request costs beyond its messages (system prompt, tools), from the last usage seen. */
  private overheadTokens = 0;

  constructor(private readonly deps: CompactionRunnerDeps) {}

  /** True while a compaction or a branch summary is being written. */
  get isCompacting(): boolean {
    return this.controller !== undefined;
  }

  /** Aborts a running compaction or branch summary; the session is left as it was. */
  abort(): void {
    this.controller?.abort();
  }

  /** Throws `CompactionBusyError` while a compaction runs (navigation and prompts check this). */
  assertIdle(what?: string): void {
    if (this.isCompacting) throw new CompactionBusyError(what);
  }

  /** A new user message starts: it gets its own overflow recovery. */
  beginUserMessage(): void {
    this.overflowRecoveryAttempted = false;
  }

  /** The context as the store now builds it, without a failed answer at its end. */
  rebuiltContext(): AgentMessage[] {
    const messages = this.deps.store.buildSessionContext().messages;
    while (messages.length > 0) {
      const last = messages[messages.length - 1];
      if (last?.role !== 'assistant' || last.stopReason !== 'error') break;
      messages.pop();
    }
    return messages;
  }

  /**
   * The size of a context for the threshold: the last usage report plus estimates after it, as pi
   * counts it; but a usage report from before the latest compaction describes the old, larger
   * context, so then the messages are estimated and the last known overhead added.
   */
  contextTokens(messages: readonly AgentMessage[]): number {
    const summaryTime = messages.find((m) => m.role === 'compactionSummary')?.timestamp;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      const usage = message ? validAssistantUsage(message) : undefined;
      if (!message || !usage) continue;
      if (summaryTime !== undefined && message.timestamp <= summaryTime) break;
      const before = sumEstimates(messages.slice(0, i));
      const used = calculateContextTokens(usage);
      const answer = estimateTokens(message);
      this.overheadTokens = Math.max(0, used - answer - before);
      return used + sumEstimates(messages.slice(i + 1));
    }
    return sumEstimates(messages) + this.overheadTokens;
  }

  /**
   * The first context transform: before every model call, compacts when the context crosses
   * `contextWindow − reserveTokens`. Returns the compacted context (and hands it to
   * `onContextRebuilt`), or the messages unchanged. Throws `CompactionLoopError` when a compaction
   * freed no room, which ends the turn with that error.
   */
  readonly transformContext = async (
    messages: AgentMessage[],
    context: { signal: AbortSignal; model: RunnerModel },
  ): Promise<AgentMessage[]> => {
    const window = context.model.contextWindow;
    const settings = settingsForWindow(this.deps.getSettings().compaction, window);
    if (!settings.enabled || this.isCompacting) return messages;
    const tokens = this.contextTokens(messages);
    if (!shouldCompact(tokens, window, settings)) return messages;
    const preparation = prepareCompaction(this.deps.store.getBranch(), settings);
    // Nothing older than the kept part: compacting would only add a summary. The call goes ahead;
    // if it does not fit, overflow recovery reports it.
    if (!preparation || !hasSomethingToSummarize(preparation)) return messages;
    const before = sumEstimates(messages);
    const outcome = await this.runAutomatic('threshold', false, context.signal, preparation);
    if (!outcome.result) return messages;
    const rebuilt = this.rebuiltContext();
    const after = sumEstimates(rebuilt);
    if (after >= before) throw new CompactionLoopError(before, after);
    return rebuilt;
  };

  /**
   * After a run ends on `message`: when the provider said the context was too long, compacts and
   * asks for one retry (once per user message); a second overflow reports failure.
   */
  async handleRunEnd(
    message: AssistantMessage | undefined,
    signal?: AbortSignal,
  ): Promise<OverflowOutcome> {
    if (!message) return 'none';
    if (message.stopReason !== 'error') {
      if (message.stopReason !== 'aborted') this.overflowRecoveryAttempted = false;
      return 'none';
    }
    const model = this.deps.getModel();
    if (message.provider !== model.provider || message.model !== model.id) return 'none';
    if (!isContextOverflow(message, model.contextWindow)) return 'none';
    if (!this.deps.getSettings().compaction.enabled) return 'none';
    const compaction = latestCompaction(this.deps.store.getBranch());
    if (compaction && message.timestamp <= new Date(compaction.timestamp).getTime()) return 'none';
    if (this.overflowRecoveryAttempted) {
      this.deps.emit({
        type: 'compaction_end',
        reason: 'overflow',
        aborted: false,
        willRetry: false,
        errorMessage: OVERFLOW_RETRY_FAILED,
      });
      return 'failed';
    }
    this.overflowRecoveryAttempted = true;
    const outcome = await this.runAutomatic('overflow', true, signal);
    return outcome.result ? 'retry' : 'failed';
  }

  /**
   * Manual compaction with optional focus. Stops a running turn first. Throws "Already compacted",
   * "Nothing to compact (session too small)", model errors, or `SummaryAbortedError`; in every such
   * case nothing was appended.
   */
  async compact(customInstructions?: string): Promise<CompactionResult> {
    await this.deps.abortRun?.();
    this.assertIdle();
    const controller = new AbortController();
    this.controller = controller;
    this.deps.emit({ type: 'compaction_start', reason: 'manual' });
    try {
      const path = this.deps.store.getBranch();
      const settings = this.currentSettings();
      const preparation = prepareCompaction(path, settings);
      if (!preparation) {
        throw new Error(
          path[path.length - 1]?.type === 'compaction'
            ? 'Already compacted'
            : 'Nothing to compact (session too small)',
        );
      }
      if (!hasSomethingToSummarize(preparation)) {
        throw new Error('Nothing to compact (session too small)');
      }
      const result = await this.summarizeAndAppend(
        preparation,
        controller.signal,
        customInstructions,
      );
      this.deps.emit({
        type: 'compaction_end',
        reason: 'manual',
        result,
        aborted: false,
        willRetry: false,
      });
      return result;
    } catch (error) {
      const aborted = controller.signal.aborted || isAbortError(error);
      const message = error instanceof Error ? error.message : String(error);
      this.deps.emit({
        type: 'compaction_end',
        reason: 'manual',
        aborted,
        willRetry: false,
        ...(aborted ? {} : { errorMessage: `Compaction failed: ${message}` }),
      });
      throw error;
    } finally {
      this.controller = undefined;
    }
  }

  /**
   * Moves the leaf to `targetId` as pi's navigateTree does, with an optional summary of the branch
   * left behind and an optional label. An aborted summary leaves everything as it was and returns
   * `{cancelled: true, aborted: true}`; a failed one throws and nothing moves.
   */
  async navigate(targetId: string, opts: NavigateOptions = {}): Promise<NavigateResult> {
    this.assertIdle('A compaction is running; navigation waits until it ends');
    const store = this.deps.store;
    const oldLeafId = store.getLeafId();
    if (targetId === oldLeafId) return { cancelled: false };
    const target = navigationTarget(store, targetId);
    let summary: BranchSummaryResult | undefined;
    if (opts.summarize) {
      try {
        summary = await this.summarizeBranch(oldLeafId, targetId, opts);
      } catch (error) {
        if (isAbortError(error)) return { cancelled: true, aborted: true };
        throw error;
      }
      if (store.getLeafId() !== oldLeafId) {
        throw new Error('The session changed while the branch summary was written; nothing moved.');
      }
    }
    const summaryEntryId = applyNavigation(store, {
      targetId,
      newLeafId: target.newLeafId,
      ...(summary ? { summary: { text: summary.summary, details: summary.details } } : {}),
      ...(opts.label !== undefined ? { label: opts.label } : {}),
    });
    this.deps.onContextRebuilt?.(this.rebuiltContext());
    return {
      cancelled: false,
      ...(target.editorText !== undefined ? { editorText: target.editorText } : {}),
      ...(summaryEntryId ? { summaryEntryId } : {}),
    };
  }

  /**
   * A summary of what lies between `oldLeafId` and its common ancestor with `targetId`, or
   * undefined when nothing does. Abortable through `abort()`.
   */
  async summarizeBranch(
    oldLeafId: string | null,
    targetId: string,
    opts: Pick<NavigateOptions, 'customInstructions' | 'replaceInstructions'> = {},
  ): Promise<BranchSummaryResult | undefined> {
    this.assertIdle();
    const { entries } = collectEntriesForBranchSummary(this.deps.store, oldLeafId, targetId);
    if (entries.length === 0) return undefined;
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await generateBranchSummary(this.summarizer(), entries, {
        signal: controller.signal,
        reserveTokens: this.deps.getSettings().branchSummary.reserveTokens,
        ...(opts.customInstructions ? { customInstructions: opts.customInstructions } : {}),
        ...(opts.replaceInstructions ? { replaceInstructions: true } : {}),
      });
    } finally {
      this.controller = undefined;
    }
  }

  private currentSettings() {
    return settingsForWindow(
      this.deps.getSettings().compaction,
      this.deps.getModel().contextWindow,
    );
  }

  private summarizer(): Summarizer {
    const level = this.deps.getThinkingLevel?.();
    return new Summarizer({
      model: this.deps.getModel(),
      complete: this.deps.complete,
      ...(level ? { thinkingLevel: level } : {}),
    });
  }

  /** Writes the summary and appends it, unless aborted or the leaf moved meanwhile. */
  private async summarizeAndAppend(
    preparation: CompactionPreparation,
    signal: AbortSignal,
    customInstructions?: string,
  ): Promise<CompactionResult> {
    const leafBefore = this.deps.store.getLeafId();
    const result = await this.summarizer().compact(preparation, {
      signal,
      ...(customInstructions ? { customInstructions } : {}),
    });
    if (signal.aborted) throw new SummaryAbortedError();
    if (this.deps.store.getLeafId() !== leafBefore) {
      throw new Error('The session changed while the summary was written; nothing was appended.');
    }
    this.deps.store.appendCompaction(
      result.summary,
      result.firstKeptEntryId,
      result.tokensBefore,
      result.details,
    );
    this.deps.onContextRebuilt?.(this.rebuiltContext());
    return result;
  }

  private async runAutomatic(
    reason: Exclude<CompactionReason, 'manual'>,
    willRetry: boolean,
    signal: AbortSignal | undefined,
    prepared?: CompactionPreparation,
  ): Promise<AutoOutcome> {
    const controller = linkedController(signal);
    this.controller = controller;
    this.deps.emit({ type: 'compaction_start', reason });
    const prefix =
      reason === 'overflow' ? 'Context overflow recovery failed' : 'Auto-compaction failed';
    try {
      const preparation =
        prepared ?? prepareCompaction(this.deps.store.getBranch(), this.currentSettings());
      if (!preparation || !hasSomethingToSummarize(preparation)) {
        const errorMessage = `${prefix}: nothing older than the latest messages is left to summarize, and they alone do not fit the model's context window.`;
        this.deps.emit({
          type: 'compaction_end',
          reason,
          aborted: false,
          willRetry: false,
          errorMessage,
        });
        return { errorMessage };
      }
      const result = await this.summarizeAndAppend(preparation, controller.signal);
      this.deps.emit({ type: 'compaction_end', reason, result, aborted: false, willRetry });
      return { result };
    } catch (error) {
      if (controller.signal.aborted || isAbortError(error)) {
        this.deps.emit({ type: 'compaction_end', reason, aborted: true, willRetry: false });
        return { aborted: true };
      }
      const errorMessage = `${prefix}: ${error instanceof Error ? error.message : String(error)}`;
      this.deps.emit({
        type: 'compaction_end',
        reason,
        aborted: false,
        willRetry: false,
        errorMessage,
      });
      return { errorMessage };
    } finally {
      this.controller = undefined;
    }
  }
}

function hasSomethingToSummarize(preparation: CompactionPreparation): boolean {
  return preparation.messagesToSummarize.length > 0 || preparation.turnPrefixMessages.length > 0;
}
