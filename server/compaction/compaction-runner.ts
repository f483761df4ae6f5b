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
import { CompactionBusyError } from './compaction-errors.js';
import { ContextSizer } from './context-size.js';
import { latestCompaction } from './entry-messages.js';
import { compactSession, type CompactingStore } from './session-compaction.js';
import { Summarizer } from './summarizer.js';
import { isAbortError, type CompleteFn, type SummaryModelInfo } from './summary-model.js';
import { applyThreshold, effectiveKeepRecent } from './threshold-policy.js';

/*
 * Compaction inside a live session: the threshold check before every model call, recovery from a
 * provider's "context too long", manual compaction, and branch summaries when the leaf moves. It
 * holds no session state of its own beyond what guards against loops; the store is the truth.
 * A compaction that fails or is aborted appends nothing.
 */

/** The part of the store compaction reads and writes. */
export interface CompactionStore extends NavigationWriter, CompactingStore {
  getBranch(fromId?: string | null): SessionEntry[];
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

export { CompactionBusyError, CompactionLoopError } from './compaction-errors.js';

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

function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

export class CompactionRunner {
  private controller: AbortController | undefined;
  private overflowRecoveryAttempted = false;
  private readonly sizer = new ContextSizer();

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

  /** The size of a context for the threshold (see `ContextSizer`). */
  contextTokens(messages: readonly AgentMessage[]): number {
    return this.sizer.contextTokens(messages);
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
    if (this.isCompacting) return messages;
    return applyThreshold({
      messages,
      model: context.model,
      settings: settingsForWindow(this.deps.getSettings().compaction, context.model.contextWindow),
      sizer: this.sizer,
      getBranch: () => this.deps.store.getBranch(),
      compactRound: async (keep, cutAtLatest) => {
        const outcome = await this.runAutomatic('threshold', false, context.signal, {
          keep,
          cutAtLatest,
        });
        return outcome.result ? this.rebuiltContext() : undefined;
      },
    });
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
      const result = await compactSession({
        ...this.compactInput('manual', controller.signal),
        ...(customInstructions ? { customInstructions } : {}),
      });
      this.deps.onContextRebuilt?.(this.rebuiltContext());
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

  private compactInput(reason: CompactionReason, signal: AbortSignal) {
    const level = this.deps.getThinkingLevel?.();
    return {
      store: this.deps.store,
      model: this.deps.getModel(),
      complete: this.deps.complete,
      settings: this.currentSettings(),
      reason,
      signal,
      ...(level ? { thinkingLevel: level } : {}),
    };
  }

  private async runAutomatic(
    reason: Exclude<CompactionReason, 'manual'>,
    willRetry: boolean,
    signal: AbortSignal | undefined,
    round?: { keep: number; cutAtLatest: boolean },
  ): Promise<AutoOutcome> {
    const controller = linkedController(signal);
    this.controller = controller;
    this.deps.emit({ type: 'compaction_start', reason });
    const prefix =
      reason === 'overflow' ? 'Context overflow recovery failed' : 'Auto-compaction failed';
    try {
      const base = this.compactInput(reason, controller.signal);
      const keep =
        round?.keep ?? effectiveKeepRecent(base.settings, base.model, this.sizer.overhead);
      const input = {
        ...base,
        settings: { ...base.settings, keepRecentTokens: keep },
        // Overflow recovery may use the last-resort cut: the context is known not to fit.
        cutAtLatest: round?.cutAtLatest ?? reason === 'overflow',
      };
      const result = await compactSession(input);
      this.deps.onContextRebuilt?.(this.rebuiltContext());
      this.deps.emit({ type: 'compaction_end', reason, result, aborted: false, willRetry });
      return { result };
    } catch (error) {
      if (controller.signal.aborted || isAbortError(error)) {
        this.deps.emit({ type: 'compaction_end', reason, aborted: true, willRetry: false });
        return { aborted: true };
      }
      const reasonText = error instanceof Error ? error.message : String(error);
      const errorMessage = `${prefix}: ${reasonText}`;
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
