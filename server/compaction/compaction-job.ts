import type { CompactionReason } from '../../shared/agent-events.js';
import type { FileOperationsDetails, SessionEntry } from '../../shared/session-entries.js';
import { SummaryRequestTooLargeError } from './fit-summary-request.js';
import { computeFileLists } from './file-operations.js';
import { CompactionRefusedError, planCompaction } from './plan-compaction.js';
import type { SummaryModelInfo } from './summary-model.js';
import { compactionRequests, type CompactionRequests } from './summary-requests.js';
import type { CompactionSettings } from './token-estimates.js';

/*
 * Everything a compaction does before it asks a model, as one pure step over a copy of the
 * session's path: plan the cut (pi's walk, several times for an automatic compaction), estimate
 * the context, collect the file lists, serialise the conversation and fit each request to the
 * model. It is O(n) in the session and takes seconds for a million messages, so it runs on a
 * worker thread (compaction-runner.ts, decision 054); what it returns is small and plain data.
 */

/** What a compaction job is asked, besides the path (which is shipped on its own). */
export interface CompactionJobParams {
  settings: CompactionSettings;
  reason: CompactionReason;
  /** Allow the last-resort cut at the newest valid point (see `planCompaction`). */
  cutAtLatest: boolean;
  model: SummaryModelInfo;
  customInstructions?: string;
}

/** A planned compaction with its requests built: all the session needs to ask and append. */
export interface PlannedCompaction {
  firstKeptEntryId: string;
  tokensBefore: number;
  details: FileOperationsDetails;
  requests: CompactionRequests;
  /** Set when a request cannot fit the model: the compaction fails with this, asking nothing. */
  tooLarge?: { neededTokens: number; budgetTokens: number };
}

export type CompactionJobResult =
  { type: 'prepared'; compaction: PlannedCompaction } | { type: 'refused'; message: string };

/** Plans a compaction of `path` and builds its requests. Throws only on bugs. */
export function runCompactionJob(
  path: readonly SessionEntry[],
  params: CompactionJobParams,
): CompactionJobResult {
  let preparation;
  try {
    preparation = planCompaction(path, params.settings, params.reason, {
      cutAtLatest: params.cutAtLatest,
    });
  } catch (error) {
    if (error instanceof CompactionRefusedError) return { type: 'refused', message: error.message };
    throw error;
  }
  const compaction: PlannedCompaction = {
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: computeFileLists(preparation.fileOps),
    requests: {},
  };
  try {
    compaction.requests = compactionRequests(params.model, preparation, params.customInstructions);
  } catch (error) {
    if (!(error instanceof SummaryRequestTooLargeError)) throw error;
    compaction.tooLarge = { neededTokens: error.neededTokens, budgetTokens: error.budgetTokens };
  }
  return { type: 'prepared', compaction };
}
