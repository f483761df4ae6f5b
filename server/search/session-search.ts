import type { SessionSearchResult } from '../../shared/rest-shapes.js';
import { scanSessionText } from '../store/session-text-scan.js';
import { hitAt, textMatcher } from './text-match.js';

/*
 * One search over a workspace's session files: each file is streamed (session-text-scan.ts), its
 * messages matched (text-match.ts), and the sessions with hits reported one by one as they are
 * found, so a search stopped for time keeps what it had. Runs in a worker thread (search-runner.ts).
 */

export interface SearchLimits {
  /** Sessions with hits reported at most; the search stops at that many. */
  maxSessions: number;
  /** Hits listed per session; more are only flagged (`moreHits`). */
  hitsPerSession: number;
  /** Bytes read of each file at most (the rest of a bigger file is not searched). */
  maxBytesPerFile: number;
  /** Lines longer than this (a huge pasted image, say) are not searched. */
  maxLineBytes: number;
}

export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  maxSessions: 50,
  hitsPerSession: 5,
  maxBytesPerFile: 64 << 20,
  maxLineBytes: 8 << 20,
};

export interface SearchJob {
  query: string;
  /** The workspace's session files, newest first: results come in this order. */
  files: { sessionId: string; file: string }[];
  limits: SearchLimits;
}

export interface SearchSummary {
  /** The sessions cap was reached: older sessions were not searched. */
  capped: boolean;
  /** Files searched only in part (byte budget, or lines too long to search). */
  partialFiles: number;
}

export async function runSearchJob(
  job: SearchJob,
  onResult: (result: SessionSearchResult) => void,
): Promise<SearchSummary> {
  const matcher = textMatcher(job.query);
  const { limits } = job;
  const summary: SearchSummary = { capped: false, partialFiles: 0 };
  let found = 0;
  for (const { sessionId, file } of job.files) {
    if (found >= limits.maxSessions) {
      summary.capped = true;
      break;
    }
    const result: SessionSearchResult = { sessionId, hits: [], moreHits: false };
    let scan;
    try {
      scan = await scanSessionText(
        file,
        {
          maxBytes: limits.maxBytesPerFile,
          maxLineBytes: limits.maxLineBytes,
          mayMatch: (line) => matcher.mayMatchRaw(line),
        },
        (message) => {
          const at = matcher.find(message.text);
          if (!at) return true;
          if (result.hits.length >= limits.hitsPerSession) {
            result.moreHits = true;
            return false;
          }
          result.hits.push(hitAt(message.text, at, message.role, message.entryId));
          return true;
        },
      );
    } catch {
      // A file gone or unreadable since the listing has no hits.
      continue;
    }
    if (scan.cut || scan.skippedLines > 0) summary.partialFiles++;
    if (result.hits.length > 0) {
      found++;
      onResult(result);
    }
  }
  return summary;
}
