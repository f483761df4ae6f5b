import type { AgentMessage } from '../../shared/messages.js';
import { convertToLlm } from '../models/convert-to-llm.js';
import { fitSummaryRequest, summaryInputBudget } from './fit-summary-request.js';
import type { CompactionPreparation } from './prepare-compaction.js';
import type { SummaryModelInfo } from './summary-model.js';
import {
  INITIAL_SUMMARY_INSTRUCTIONS,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  UPDATE_SUMMARY_INSTRUCTIONS,
  withCustomInstructions,
} from './summary-prompts.js';
import { latestUserRequest } from './verbatim-requests.js';

/*
 * The requests a summary sends, built without asking any model: the conversation serialised and
 * fitted to the model's window, the answer's budget, and the user request the answer must quote.
 * Pure and plain data in, plain data out, so that a compaction's requests can be built on a
 * worker thread (compaction-job.ts) and only asked on the thread that serves the sessions.
 */

/** One summary request, ready to send. */
export interface SummaryRequest {
  /** The single user message (the conversation, previous summary, instructions). */
  promptText: string;
  /** The most the answer may take. */
  maxTokens: number;
  /** Ask with the session's thinking level (when the model reasons). */
  reasoning: boolean;
  /** Said before a model error: "Summarization failed: …". */
  failure: string;
  /** The newest user request of the summarised messages, which the answer must hold verbatim. */
  latestRequest?: string;
  /** The heading under which that request is appended when the answer lacks it. */
  verbatimHeading?: string;
}

/** The output budget of a summary for `model`: wanted, but within its output and window/8. */
export function summaryOutputBudget(model: SummaryModelInfo, wanted: number): number {
  const { maxOutputTokens, contextWindow } = model;
  return Math.max(64, Math.min(wanted, maxOutputTokens, Math.floor(contextWindow / 8)));
}

/** The longest user request quoted verbatim into a summary: about a sixteenth of the window. */
export function verbatimLimitChars(model: SummaryModelInfo): number {
  return Math.max(1000, Math.floor(model.contextWindow / 4));
}

/**
 * The request summarising `messages` under `instructions`, fitted to the model. Throws
 * `SummaryRequestTooLargeError` when not even the instructions fit.
 */
export function summaryRequest(
  model: SummaryModelInfo,
  messages: readonly AgentMessage[],
  instructions: string,
  wantedOutputTokens: number,
  opts: { previousSummary?: string; reasoning: boolean; failure: string },
): SummaryRequest {
  const maxTokens = summaryOutputBudget(model, wantedOutputTokens);
  const fitted = fitSummaryRequest({
    messages: convertToLlm(messages),
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    instructions,
    ...(opts.previousSummary ? { previousSummary: opts.previousSummary } : {}),
    inputBudgetTokens: summaryInputBudget(model.contextWindow, maxTokens),
  });
  return {
    promptText: fitted.promptText,
    maxTokens,
    reasoning: opts.reasoning,
    failure: opts.failure,
  };
}

/** The history summary's request: initial, or an update of the previous summary. */
export function historyRequest(
  model: SummaryModelInfo,
  messages: readonly AgentMessage[],
  reserveTokens: number,
  opts: { customInstructions?: string; previousSummary?: string },
): SummaryRequest {
  const base = opts.previousSummary ? UPDATE_SUMMARY_INSTRUCTIONS : INITIAL_SUMMARY_INSTRUCTIONS;
  const request = summaryRequest(
    model,
    messages,
    withCustomInstructions(base, opts.customInstructions),
    Math.floor(0.8 * reserveTokens),
    {
      ...(opts.previousSummary ? { previousSummary: opts.previousSummary } : {}),
      reasoning: true,
      failure: 'Summarization failed',
    },
  );
  const latest = latestUserRequest(messages);
  return latest === undefined ? request : { ...request, latestRequest: latest };
}

/** The request summarising a split turn's beginning, which must hold the turn's request. */
export function turnPrefixRequest(
  model: SummaryModelInfo,
  messages: readonly AgentMessage[],
  reserveTokens: number,
): SummaryRequest {
  const request = summaryRequest(
    model,
    messages,
    TURN_PREFIX_INSTRUCTIONS,
    Math.floor(0.5 * reserveTokens),
    { reasoning: true, failure: 'Turn prefix summarization failed' },
  );
  const latest = latestUserRequest(messages);
  return {
    ...request,
    ...(latest === undefined ? {} : { latestRequest: latest }),
    verbatimHeading: '## Original Request (verbatim)',
  };
}

/** What a compaction asks: the history summary (none: "No prior history.") and a turn prefix. */
export interface CompactionRequests {
  history?: SummaryRequest;
  turnPrefix?: SummaryRequest;
}

/**
 * The requests of a compaction: when the turn is split, the history (if there is any, or a
 * previous summary to update) and the turn's beginning; otherwise the history alone.
 */
export function compactionRequests(
  model: SummaryModelInfo,
  preparation: CompactionPreparation,
  customInstructions?: string,
): CompactionRequests {
  const { reserveTokens } = preparation.settings;
  const history = (): SummaryRequest =>
    historyRequest(model, preparation.messagesToSummarize, reserveTokens, {
      ...(customInstructions ? { customInstructions } : {}),
      ...(preparation.previousSummary ? { previousSummary: preparation.previousSummary } : {}),
    });
  if (preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0) {
    const hasHistory =
      preparation.messagesToSummarize.length > 0 || Boolean(preparation.previousSummary);
    return {
      ...(hasHistory ? { history: history() } : {}),
      turnPrefix: turnPrefixRequest(model, preparation.turnPrefixMessages, reserveTokens),
    };
  }
  return { history: history() };
}
