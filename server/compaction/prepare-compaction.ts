import type { AgentMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { findCutPoint, findLatestCutPoint } from './cut-point.js';
import { buildSessionContextFromEntries } from '../store/session-context.js';
import { compactionInputMessage } from './entry-messages.js';
import {
  collectFileOperations,
  createFileOperations,
  mergeStoredFileLists,
  type FileOperations,
} from './file-operations.js';
import { estimateContextTokens, type CompactionSettings } from './token-estimates.js';

/*
 * Everything a compaction needs, decided before any model is asked: what to summarise, what to
 * keep, the previous summary to build on, and the files touched so far.
 */

export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** Messages that leave the context, summarised as history. */
  messagesToSummarize: AgentMessage[];
  /** When the cut splits a turn: the turn's beginning, summarised on its own. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** Estimated size of the context before compaction, as the model would see it. */
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperations;
  settings: CompactionSettings;
}

/**
 * Plans a compaction of a root-to-leaf path, as pi 0.73 plans it. Returns undefined when there is
 * nothing to do: the path already ends in a compaction, or the cut entry has no id.
 *
 * The summarised span starts at the previous compaction's `firstKeptEntryId` (or right after that
 * compaction when the id is not on the path), so messages kept last time are summarised this time.
 *
 * `cut` replaces pi's budget walk (`budget`) when that keeps everything: `latest-turn` cuts at the
 * newest turn start (a manual compaction of a short session keeps the last exchange), `latest` at
 * the newest valid cut point (Arbor's last resort when the newest messages alone, say a batch of
 * large tool results, exceed the kept budget).
 */
export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  options: { cut?: 'budget' | 'latest' | 'latest-turn' } = {},
): CompactionPreparation | undefined {
  const last = pathEntries[pathEntries.length - 1];
  if (last?.type === 'compaction') return undefined;

  let previousIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    if (pathEntries[i]?.type === 'compaction') {
      previousIndex = i;
      break;
    }
  }
  const previous = pathEntries[previousIndex];
  let previousSummary: string | undefined;
  let boundaryStart = 0;
  if (previous?.type === 'compaction') {
    previousSummary = previous.summary;
    const keptIndex = pathEntries.findIndex((entry) => entry.id === previous.firstKeptEntryId);
    boundaryStart = keptIndex >= 0 ? keptIndex : previousIndex + 1;
  }

  const context = buildSessionContextFromEntries(pathEntries, last?.id);
  const tokensBefore = estimateContextTokens(context.messages).tokens;
  const end = pathEntries.length;
  const cut =
    options.cut === 'latest'
      ? findLatestCutPoint(pathEntries, boundaryStart, end)
      : options.cut === 'latest-turn'
        ? findLatestCutPoint(pathEntries, boundaryStart, end, { turnStartsOnly: true })
        : findCutPoint(pathEntries, boundaryStart, end, settings.keepRecentTokens);
  const firstKept = pathEntries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = messagesBetween(pathEntries, boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn
    ? messagesBetween(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex)
    : [];

  const fileOps = createFileOperations();
  if (previous?.type === 'compaction' && !previous.fromHook) {
    mergeStoredFileLists(previous.details, fileOps);
  }
  for (const message of messagesToSummarize) collectFileOperations(message, fileOps);
  for (const message of turnPrefixMessages) collectFileOperations(message, fileOps);

  return {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    fileOps,
    settings,
  };
}

function messagesBetween(
  entries: readonly SessionEntry[],
  start: number,
  end: number,
): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i];
    const message = entry ? compactionInputMessage(entry) : undefined;
    if (message) messages.push(message);
  }
  return messages;
}
