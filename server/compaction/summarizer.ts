import type { CompactionResult } from '../../shared/agent-events.js';
import type { AgentMessage } from '../../shared/messages.js';
import type { CompleteFn, CompletionRequest } from '../agent/context-transforms.js';
import { convertToLlm } from '../agent/convert-to-llm.js';
import type { FileOperationsDetails } from '../../shared/session-entries.js';
import { computeFileLists, formatFileOperations } from './file-operations.js';
import { fitSummaryRequest, summaryInputBudget } from './fit-summary-request.js';
import type { CompactionPreparation } from './prepare-compaction.js';
import { completeText, type SummaryModelInfo } from './summary-model.js';
import {
  INITIAL_SUMMARY_INSTRUCTIONS,
  mergeSplitTurnSummaries,
  NO_PRIOR_HISTORY,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  UPDATE_SUMMARY_INSTRUCTIONS,
  withCustomInstructions,
} from './summary-prompts.js';
import { ensureLatestRequest, latestUserRequest } from './verbatim-requests.js';

/*
 * Turns prepared messages into summaries by asking a model, with every request sized to fit it.
 */

export interface SummarizerOptions {
  model: SummaryModelInfo;
  complete: CompleteFn;
  /** The session's thinking level; passed on only when the model reasons. */
  thinkingLevel?: string;
}

export interface SummaryCallOptions {
  signal?: AbortSignal;
}

export interface CompactionSummary extends CompactionResult {
  details: FileOperationsDetails;
}

/** The output budget of a summary for `model` (see `Summarizer.outputBudget`). */
export function summaryOutputBudget(model: SummaryModelInfo, wanted: number): number {
  const { maxOutputTokens, contextWindow } = model;
  return Math.max(64, Math.min(wanted, maxOutputTokens, Math.floor(contextWindow / 8)));
}

/**
 * A summary longer than its budget (a provider that ignores max_tokens) is cut to it, so one
 * answer cannot crowd the context it was meant to relieve.
 */
export function capSummary(text: string, maxTokens: number): string {
  const maxChars = maxTokens * 4;
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars).trimEnd()}\n\n[Summary cut to its ${maxTokens}-token budget.]`;
}

export class Summarizer {
  constructor(private readonly options: SummarizerOptions) {}

  get model(): SummaryModelInfo {
    return this.options.model;
  }

  /**
   * The most a summary may answer: the wanted share of the reserve, never more than the model may
   * produce, and never more than an eighth of its window (the summary lives in every later request).
   */
  outputBudget(wanted: number): number {
    return summaryOutputBudget(this.options.model, wanted);
  }

  /** The longest user request quoted verbatim into a summary: about a sixteenth of the window. */
  get verbatimLimitChars(): number {
    return Math.max(1000, Math.floor(this.options.model.contextWindow / 4));
  }

  /**
   * Asks for one summary of `messages` under `instructions`, fitting the request to the model.
   * Throws on model errors and `SummaryAbortedError` on abort.
   */
  async summarize(
    messages: readonly AgentMessage[],
    instructions: string,
    wantedOutputTokens: number,
    opts: SummaryCallOptions & { previousSummary?: string; reasoning?: boolean; failure: string },
  ): Promise<string> {
    const maxTokens = this.outputBudget(wantedOutputTokens);
    const fitted = fitSummaryRequest({
      messages: convertToLlm(messages),
      systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
      instructions,
      ...(opts.previousSummary ? { previousSummary: opts.previousSummary } : {}),
      inputBudgetTokens: summaryInputBudget(this.options.model.contextWindow, maxTokens),
    });
    const request: CompletionRequest = {
      systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: fitted.promptText }],
          timestamp: Date.now(),
        },
      ],
      maxTokens,
    };
    const level = this.options.thinkingLevel;
    if (opts.reasoning && this.options.model.reasoning && level && level !== 'off') {
      request.reasoning = level;
    }
    const text = await completeText(this.options.complete, request, opts.signal, opts.failure);
    return capSummary(text, maxTokens);
  }

  /** The history summary: initial, or an update of `previousSummary`; custom focus appended. */
  async summarizeHistory(
    messages: readonly AgentMessage[],
    reserveTokens: number,
    opts: SummaryCallOptions & { customInstructions?: string; previousSummary?: string },
  ): Promise<string> {
    const base = opts.previousSummary ? UPDATE_SUMMARY_INSTRUCTIONS : INITIAL_SUMMARY_INSTRUCTIONS;
    const text = await this.summarize(
      messages,
      withCustomInstructions(base, opts.customInstructions),
      Math.floor(0.8 * reserveTokens),
      {
        ...opts,
        reasoning: true,
        failure: 'Summarization failed',
      },
    );
    return ensureLatestRequest(text, latestUserRequest(messages), this.verbatimLimitChars);
  }

  /** The summary of a split turn's beginning, holding the turn's request word for word. */
  async summarizeTurnPrefix(
    messages: readonly AgentMessage[],
    reserveTokens: number,
    opts: SummaryCallOptions,
  ): Promise<string> {
    const text = await this.summarize(
      messages,
      TURN_PREFIX_INSTRUCTIONS,
      Math.floor(0.5 * reserveTokens),
      { ...opts, reasoning: true, failure: 'Turn prefix summarization failed' },
    );
    return ensureLatestRequest(
      text,
      latestUserRequest(messages),
      this.verbatimLimitChars,
      '## Original Request (verbatim)',
    );
  }

  /**
   * The compaction result for a preparation: history and turn-prefix summaries (in parallel when
   * the turn is split), merged, with the file lists appended and mirrored in `details`.
   */
  async compact(
    preparation: CompactionPreparation,
    opts: SummaryCallOptions & { customInstructions?: string } = {},
  ): Promise<CompactionSummary> {
    const { settings } = preparation;
    const history = (): Promise<string> =>
      this.summarizeHistory(preparation.messagesToSummarize, settings.reserveTokens, {
        ...opts,
        ...(preparation.previousSummary ? { previousSummary: preparation.previousSummary } : {}),
      });
    let summary: string;
    if (preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0) {
      const [historyText, prefixText] = await Promise.all([
        preparation.messagesToSummarize.length > 0 || preparation.previousSummary
          ? history()
          : Promise.resolve(NO_PRIOR_HISTORY),
        this.summarizeTurnPrefix(preparation.turnPrefixMessages, settings.reserveTokens, opts),
      ]);
      summary = mergeSplitTurnSummaries(historyText, prefixText);
    } else {
      summary = await history();
    }
    const details = computeFileLists(preparation.fileOps);
    summary += formatFileOperations(details.readFiles, details.modifiedFiles);
    return {
      summary,
      firstKeptEntryId: preparation.firstKeptEntryId,
      tokensBefore: preparation.tokensBefore,
      details,
    };
  }
}
