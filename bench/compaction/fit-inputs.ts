import { createHash } from 'node:crypto';
import type {
  FitInput,
  FittedSummaryRequest,
} from '../../server/compaction/fit-summary-request.js';
import { summaryInputBudget } from '../../server/compaction/fit-summary-request.js';
import { planCompaction } from '../../server/compaction/plan-compaction.js';
import { convertToLlm } from '../../server/models/convert-to-llm.js';
import {
  INITIAL_SUMMARY_INSTRUCTIONS,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
} from '../../server/compaction/summary-prompts.js';
import { summaryOutputBudget } from '../../server/compaction/summary-requests.js';
import type { CompactionJobParams } from '../../server/compaction/compaction-job.js';
import { longSessionEntries } from '../../server/compaction/test-support/long-session.js';

/*
 * The bench's session and the fitting inputs a manual compaction of it makes, built the same way
 * in the main process and in the worker that runs the old (quadratic) fitting, so that both fit
 * exactly the same requests. Deterministic for a message count.
 */

/** Texts at a quarter of the test sessions' size, so that a million messages fit in memory. */
export const TEXT_SCALE = 0.25;

export const PARAMS: CompactionJobParams = {
  settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  reason: 'manual',
  cutAtLatest: false,
  model: { contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false },
};

export function benchEntries(messages: number) {
  return longSessionEntries(messages, { textScale: TEXT_SCALE });
}

/** The requests a manual compaction of `entries` fits: the history, and a split turn's prefix. */
export function fitInputs(entries: ReturnType<typeof benchEntries>): FitInput[] {
  const preparation = planCompaction(entries, PARAMS.settings, 'manual');
  const { reserveTokens } = PARAMS.settings;
  const input = (
    messages: typeof preparation.messagesToSummarize,
    instructions: string,
    wanted: number,
  ): FitInput => ({
    messages: convertToLlm(messages),
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    instructions,
    inputBudgetTokens: summaryInputBudget(
      PARAMS.model.contextWindow,
      summaryOutputBudget(PARAMS.model, wanted),
    ),
  });
  const inputs = [
    input(
      preparation.messagesToSummarize,
      INITIAL_SUMMARY_INSTRUCTIONS,
      Math.floor(0.8 * reserveTokens),
    ),
  ];
  if (preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0) {
    inputs.push(
      input(
        preparation.turnPrefixMessages,
        TURN_PREFIX_INSTRUCTIONS,
        Math.floor(0.5 * reserveTokens),
      ),
    );
  }
  return inputs;
}

/** A digest of fitted requests, to check that the old and new fitting agree. */
export function digest(fitted: readonly FittedSummaryRequest[]): string {
  const hash = createHash('sha256');
  for (const request of fitted) hash.update(JSON.stringify(request));
  return hash.digest('hex').slice(0, 16);
}
