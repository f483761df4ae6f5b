import type { CompactionReason, CompactionResult } from '../../shared/agent-events.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { prepareCompaction, type CompactionPreparation } from './prepare-compaction.js';
import { Summarizer } from './summarizer.js';
import type { CompleteFn } from '../agent/context-transforms.js';
import { SummaryAbortedError, type SummaryModelInfo } from './summary-model.js';
import type { CompactionSettings } from './token-estimates.js';

/*
 * One compaction of a session's active path, start to finish: plan, summarise, append. Nothing is
 * written unless the summary was completed, was not aborted, and the leaf did not move meanwhile,
 * so a failed or aborted compaction leaves the file exactly as it was.
 */

export interface CompactingStore {
  getLeafId(): string | null;
  getBranch(fromId?: string | null): SessionEntry[];
  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string;
}

export interface CompactSessionInput {
  store: CompactingStore;
  model: SummaryModelInfo;
  complete: CompleteFn;
  /** Effective settings (already scaled to the model's window). */
  settings: CompactionSettings;
  /** Allow the last-resort cut at the newest valid point (see `prepareCompaction`). */
  cutAtLatest?: boolean;
  reason: CompactionReason;
  customInstructions?: string;
  thinkingLevel?: string;
  signal?: AbortSignal;
}

/** Refusals a user can act on: "Already compacted", "Nothing to compact (session too small)". */
export class CompactionRefusedError extends Error {
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

/** Compacts the active path and returns what was appended. Throws on refusal, error or abort. */
export async function compactSession(
  input: CompactSessionInput,
  prepared?: CompactionPreparation,
): Promise<CompactionResult> {
  const { store, signal } = input;
  const leafBefore = store.getLeafId();
  const preparation =
    prepared ??
    planCompaction(store.getBranch(), input.settings, input.reason, {
      cutAtLatest: input.cutAtLatest === true,
    });
  const summarizer = new Summarizer({
    model: input.model,
    complete: input.complete,
    ...(input.thinkingLevel ? { thinkingLevel: input.thinkingLevel } : {}),
  });
  const result = await summarizer.compact(preparation, {
    ...(signal ? { signal } : {}),
    ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
  });
  if (signal?.aborted) throw new SummaryAbortedError();
  if (store.getLeafId() !== leafBefore) {
    throw new Error('The session changed while the summary was written; nothing was appended');
  }
  store.appendCompaction(
    result.summary,
    result.firstKeptEntryId,
    result.tokensBefore,
    result.details,
  );
  return result;
}
