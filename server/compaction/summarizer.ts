import type { CompactionResult } from '../../shared/agent-events.js';
import type { AgentMessage } from '../../shared/messages.js';
import type { CompleteFn, CompletionRequest } from './context-transforms.js';
import type { FileOperationsDetails } from '../../shared/session-entries.js';
import type { PlannedCompaction } from './compaction-job.js';
import { formatFileOperations } from './file-operations.js';
import { SummaryRequestTooLargeError } from './fit-summary-request.js';
import { completeText, type SummaryModelInfo } from './summary-model.js';
import {
  mergeSplitTurnSummaries,
  NO_PRIOR_HISTORY,
  SUMMARIZATION_SYSTEM_PROMPT,
} from './summary-prompts.js';
import {
  summaryOutputBudget,
  summaryRequest,
  verbatimLimitChars,
  type SummaryRequest,
} from './summary-requests.js';
import { ensureLatestRequest } from './verbatim-requests.js';

export { summaryOutputBudget } from './summary-requests.js';

/*
 * Asks a model for summaries. The requests are built beforehand (summary-requests.ts; for a
 * compaction on a worker thread, compaction-job.ts), each sized to fit the model; here they are
 * sent, the answers capped to their budget and checked for the user's latest request.
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
    return verbatimLimitChars(this.options.model);
  }

  /**
   * Sends a prepared request and returns the answer, capped to its budget and, when the request
   * names one, holding the user's latest request. Throws on model errors and
   * `SummaryAbortedError` on abort.
   */
  async answer(prepared: SummaryRequest, opts: SummaryCallOptions = {}): Promise<string> {
    const request: CompletionRequest = {
      systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: prepared.promptText }],
          timestamp: Date.now(),
        },
      ],
      maxTokens: prepared.maxTokens,
    };
    const level = this.options.thinkingLevel;
    if (prepared.reasoning && this.options.model.reasoning && level && level !== 'off') {
      request.reasoning = level;
    }
    const text = await completeText(this.options.complete, request, opts.signal, prepared.failure);
    const capped = capSummary(text, prepared.maxTokens);
    if (prepared.latestRequest === undefined) return capped;
    return ensureLatestRequest(
      capped,
      prepared.latestRequest,
      this.verbatimLimitChars,
      ...(prepared.verbatimHeading ? [prepared.verbatimHeading] : []),
    );
  }

  /**
   * Asks for one summary of `messages` under `instructions`, fitting the request to the model
   * (on this thread: for inputs bounded by the window, such as a branch summary's).
   */
  async summarize(
    messages: readonly AgentMessage[],
    instructions: string,
    wantedOutputTokens: number,
    opts: SummaryCallOptions & { previousSummary?: string; reasoning?: boolean; failure: string },
  ): Promise<string> {
    const prepared = summaryRequest(
      this.options.model,
      messages,
      instructions,
      wantedOutputTokens,
      {
        ...(opts.previousSummary ? { previousSummary: opts.previousSummary } : {}),
        reasoning: opts.reasoning === true,
        failure: opts.failure,
      },
    );
    return this.answer(prepared, opts);
  }

  /**
   * The compaction result for a prepared compaction: history and turn-prefix summaries (in
   * parallel when the turn is split), merged, with the file lists appended and in `details`.
   */
  async compact(
    prepared: PlannedCompaction,
    opts: SummaryCallOptions = {},
  ): Promise<CompactionSummary> {
    if (prepared.tooLarge) {
      throw new SummaryRequestTooLargeError(
        prepared.tooLarge.neededTokens,
        prepared.tooLarge.budgetTokens,
      );
    }
    const { history, turnPrefix } = prepared.requests;
    let summary: string;
    if (turnPrefix) {
      const [historyText, prefixText] = await Promise.all([
        history ? this.answer(history, opts) : Promise.resolve(NO_PRIOR_HISTORY),
        this.answer(turnPrefix, opts),
      ]);
      summary = mergeSplitTurnSummaries(historyText, prefixText);
    } else if (history) {
      summary = await this.answer(history, opts);
    } else {
      throw new Error('A prepared compaction holds no summary request');
    }
    const { details } = prepared;
    summary += formatFileOperations(details.readFiles, details.modifiedFiles);
    return {
      summary,
      firstKeptEntryId: prepared.firstKeptEntryId,
      tokensBefore: prepared.tokensBefore,
      details,
    };
  }
}
