import type { CompactionReason } from '../../shared/agent-events.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { prepareCompaction, type CompactionPreparation } from './prepare-compaction.js';
import type { CompactionSettings } from './token-estimates.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * Which plan a compaction follows, or why there is none. Pure: it runs on the compaction worker
 * (compaction-job.ts), over a copy of the session's path.
 */

/** Refusals a user can act on: "Already compacted", "Nothing to compact (session too small)". */
export class CompactionRefusedError extends CodedError {
  readonly code = 'nothing_to_compact';
  constructor(message: string) {
    super(message);
    this.name = 'CompactionRefusedError';
  }
}

export function hasSomethingToSummarize(preparation: CompactionPreparation): boolean {
  return preparation.messagesToSummarize.length > 0 || preparation.turnPrefixMessages.length > 0;
}

/** The smallest kept budget an automatic compaction tries before it gives up. */
export const MIN_KEEP_RECENT_TOKENS = 64;

/**
 * The plan for compacting `path`, or a refusal. A plan that would summarise nothing is refused:
 * it would only add a summary, never free room. When the configured kept budget keeps everything,
 * a manual compaction keeps the latest turn instead (refusing only a single-turn session), and an
 * automatic one halves the budget (down to 64 tokens) and, with `cutAtLatest`, finally cuts at the
 * newest valid point.
 */
export function planCompaction(
  path: readonly SessionEntry[],
  settings: CompactionSettings,
  reason: CompactionReason,
  options: { cutAtLatest?: boolean } = {},
): CompactionPreparation {
  if (reason === 'manual') {
    for (const cut of ['budget', 'latest-turn'] as const) {
      const preparation = prepareCompaction(path, settings, { cut });
      if (preparation && hasSomethingToSummarize(preparation)) return preparation;
    }
  }
  let keepRecentTokens = settings.keepRecentTokens;
  for (;;) {
    const preparation = prepareCompaction(path, { ...settings, keepRecentTokens });
    if (preparation && hasSomethingToSummarize(preparation)) return preparation;
    if (!preparation || reason === 'manual' || keepRecentTokens <= MIN_KEEP_RECENT_TOKENS) break;
    keepRecentTokens = Math.max(MIN_KEEP_RECENT_TOKENS, Math.floor(keepRecentTokens / 2));
  }
  if (options.cutAtLatest && reason !== 'manual') {
    const latest = prepareCompaction(path, settings, { cut: 'latest' });
    if (latest && hasSomethingToSummarize(latest)) return latest;
  }
  if (reason !== 'manual') {
    throw new CompactionRefusedError(
      "Nothing older than the latest messages is left to summarize, and they alone do not fit the model's context window",
    );
  }
  throw new CompactionRefusedError(
    path[path.length - 1]?.type === 'compaction'
      ? 'Already compacted'
      : 'Nothing to compact (session too small)',
  );
}
