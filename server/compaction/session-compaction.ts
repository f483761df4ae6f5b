import type { CompactionReason, CompactionResult } from '../../shared/agent-events.js';
import type { PlannedCompaction } from './compaction-job.js';
import { prepareCompactionInWorker } from './compaction-runner.js';
import { CompactionRefusedError } from './plan-compaction.js';
import { pathNewestFirst, type PathReader } from './session-path.js';
import { Summarizer } from './summarizer.js';
import type { CompleteFn } from './context-transforms.js';
import { SummaryAbortedError, type SummaryModelInfo } from './summary-model.js';
import type { CompactionSettings } from './token-estimates.js';

/** A compaction planned on the path to `leafId`; a leaf that moved since voids it. */
export interface PreparedCompaction extends PlannedCompaction {
  leafId: string | null;
}

export { CompactionRefusedError, planCompaction } from './plan-compaction.js';

/*
 * One compaction of a session's active path, start to finish: plan, summarise, append. Planning
 * and building the requests run on a worker thread (compaction-runner.ts), so a long session's
 * compaction does not hold up the other sessions. Nothing is written unless the summary was
 * completed, was not aborted, and the leaf did not move meanwhile, so a failed or aborted
 * compaction leaves the file exactly as it was.
 */

export interface CompactingStore extends PathReader {
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

/**
 * Plans a compaction of the store's active path and builds its requests, on a worker thread.
 * Throws `CompactionRefusedError` when there is nothing to compact, `SummaryAbortedError` on abort.
 */
export async function prepareSessionCompaction(
  input: Pick<
    CompactSessionInput,
    'store' | 'model' | 'settings' | 'cutAtLatest' | 'reason' | 'customInstructions' | 'signal'
  >,
): Promise<PreparedCompaction> {
  const { model } = input;
  const leafId = input.store.getLeafId();
  const result = await prepareCompactionInWorker(
    pathNewestFirst(input.store, leafId),
    {
      settings: input.settings,
      reason: input.reason,
      cutAtLatest: input.cutAtLatest === true,
      model: {
        contextWindow: model.contextWindow,
        maxOutputTokens: model.maxOutputTokens,
        reasoning: model.reasoning,
      },
      ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
    },
    input.signal,
  );
  if (result.type === 'refused') throw new CompactionRefusedError(result.message);
  return { ...result.compaction, leafId };
}

/**
 * Compacts the active path and returns what was appended. Throws on refusal, error or abort.
 * `prepared` (from `prepareSessionCompaction` with the same input) is used when the leaf has not
 * moved since it was prepared.
 */
export async function compactSession(
  input: CompactSessionInput,
  prepared?: PreparedCompaction,
): Promise<CompactionResult> {
  const { store, signal } = input;
  const leafBefore = store.getLeafId();
  const preparation =
    prepared && prepared.leafId === leafBefore ? prepared : await prepareSessionCompaction(input);
  if (signal?.aborted) throw new SummaryAbortedError();
  if (store.getLeafId() !== leafBefore) {
    throw new Error('The session changed while the compaction was prepared; nothing was appended');
  }
  const summarizer = new Summarizer({
    model: input.model,
    complete: input.complete,
    ...(input.thinkingLevel ? { thinkingLevel: input.thinkingLevel } : {}),
  });
  const result = await summarizer.compact(preparation, signal ? { signal } : {});
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
