import type { AgentMessage } from '../../shared/messages.js';
import type { FileOperationsDetails, SessionEntry } from '../../shared/session-entries.js';
import { branchSummaryInputMessage } from './entry-messages.js';
import {
  collectFileOperations,
  computeFileLists,
  createFileOperations,
  formatFileOperations,
  mergeStoredFileLists,
  type FileOperations,
} from './file-operations.js';
import type { Summarizer, SummaryCallOptions } from './summarizer.js';
import {
  BRANCH_SUMMARY_INSTRUCTIONS,
  BRANCH_SUMMARY_PREAMBLE,
  NO_BRANCH_CONTENT,
  withCustomInstructions,
} from './summary-prompts.js';
import { LoopSlices } from './loop-slices.js';
import { pathNewestFirst, type PathReader } from './session-path.js';
import { estimateTokens } from './token-estimates.js';
import { ensureLatestRequest, latestUserRequest } from './verbatim-requests.js';

/*
 * What is left behind when the leaf moves to another branch, and a summary of it to carry along.
 */

/** The part of a store that branch summaries read. */
export interface BranchReader {
  getBranch(fromId?: string | null): SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
}

export interface CollectedBranch {
  /** Entries from just below the common ancestor to the old leaf, oldest first. */
  entries: SessionEntry[];
  commonAncestorId: string | null;
}

/**
 * The entries between the old leaf and the deepest entry it shares with the target's path (a null
 * target: the whole path to the root). Walks through compactions (their summaries are part of
 * what was explored).
 */
export function collectEntriesForBranchSummary(
  store: BranchReader,
  oldLeafId: string | null,
  targetId: string | null,
): CollectedBranch {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const oldPath = new Set(store.getBranch(oldLeafId).map((entry) => entry.id));
  const targetPath = targetId === null ? [] : store.getBranch(targetId);
  let commonAncestorId: string | null = null;
  for (let i = targetPath.length - 1; i >= 0; i--) {
    const id = targetPath[i]?.id;
    if (id !== undefined && oldPath.has(id)) {
      commonAncestorId = id;
      break;
    }
  }
  const entries: SessionEntry[] = [];
  const seen = new Set<string>();
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId && !seen.has(current)) {
    seen.add(current);
    const entry = store.getEntry(current);
    if (!entry) break;
    entries.push(entry);
    current = entry.parentId;
  }
  entries.reverse();
  return { entries, commonAncestorId };
}

/**
 * `collectEntriesForBranchSummary` on a store whose paths can be read entry by entry, pausing
 * for the event loop every few milliseconds: leaving a long branch must not hold up the other
 * sessions (decision 054). The same entries and ancestor, found the same way.
 */
export async function collectEntriesForBranchSummarySliced(
  store: BranchReader & PathReader,
  oldLeafId: string | null,
  targetId: string | null,
): Promise<CollectedBranch> {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const slices = new LoopSlices();
  const pause = async () => {
    const pending = slices.pause(64);
    if (pending) await pending;
  };
  const oldPath = new Set<string>();
  for (const entry of pathNewestFirst(store, oldLeafId)) {
    oldPath.add(entry.id);
    await pause();
  }
  let commonAncestorId: string | null = null;
  if (targetId !== null) {
    // The target's path newest first: its first entry on the old path is the deepest shared one.
    for (const entry of pathNewestFirst(store, targetId)) {
      if (oldPath.has(entry.id)) {
        commonAncestorId = entry.id;
        break;
      }
      await pause();
    }
  }
  const entries: SessionEntry[] = [];
  const seen = new Set<string>();
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId && !seen.has(current)) {
    seen.add(current);
    const entry: SessionEntry | undefined = store.getEntry(current);
    if (!entry) break;
    entries.push(entry);
    current = entry.parentId;
    await pause();
  }
  entries.reverse();
  return { entries, commonAncestorId };
}

export interface PreparedBranch {
  messages: AgentMessage[];
  fileOps: FileOperations;
  totalTokens: number;
}

/**
 * The newest messages of a branch that fit `tokenBudget` (0 or less: no limit), oldest first.
 * Tool results are left out. A summary that does not fit is still taken while less than 90 % of
 * the budget is used, then the walk stops. File lists come from every entry, fitting or not,
 * including earlier branch summaries' details.
 */
export function prepareBranchEntries(
  entries: readonly SessionEntry[],
  tokenBudget = 0,
): PreparedBranch {
  const messages: AgentMessage[] = [];
  const fileOps = createFileOperations();
  let totalTokens = 0;
  for (const entry of entries) {
    if (entry.type === 'branch_summary' && !entry.fromHook)
      mergeStoredFileLists(entry.details, fileOps);
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const message = entry ? branchSummaryInputMessage(entry) : undefined;
    if (!entry || !message) continue;
    collectFileOperations(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === 'compaction' || entry.type === 'branch_summary';
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.push(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.push(message);
    totalTokens += tokens;
  }
  // Gathered newest first (pushing: unshifting each would be quadratic); returned oldest first.
  messages.reverse();
  return { messages, fileOps, totalTokens };
}

export interface BranchSummaryOptions extends SummaryCallOptions {
  /** Tokens kept free of the window when choosing what to summarise (pi: 16384). */
  reserveTokens?: number;
  customInstructions?: string;
  /** The custom instructions replace the default ones instead of being appended. */
  replaceInstructions?: boolean;
}

export interface BranchSummaryResult {
  summary: string;
  details: FileOperationsDetails;
}

export const DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS = 16384;

/**
 * A summary of the entries left behind: the preamble, the model's text, the file lists. Throws on
 * model errors and `SummaryAbortedError` on abort; "No content to summarize" when there is nothing.
 */
export async function generateBranchSummary(
  summarizer: Summarizer,
  entries: readonly SessionEntry[],
  opts: BranchSummaryOptions = {},
): Promise<BranchSummaryResult> {
  const contextWindow = summarizer.model.contextWindow || 128000;
  const reserve = opts.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS;
  const { messages, fileOps } = prepareBranchEntries(entries, contextWindow - reserve);
  const details = computeFileLists(fileOps);
  if (messages.length === 0) return { summary: NO_BRANCH_CONTENT, details };

  const instructions = withCustomInstructions(
    BRANCH_SUMMARY_INSTRUCTIONS,
    opts.customInstructions,
    opts.replaceInstructions === true,
  );
  const text = await summarizer.summarize(messages, instructions, 2048, {
    ...(opts.signal ? { signal: opts.signal } : {}),
    reasoning: false,
    failure: 'Branch summarization failed',
  });
  const withRequest = opts.replaceInstructions
    ? text
    : ensureLatestRequest(text, latestUserRequest(messages), summarizer.verbatimLimitChars);
  const summary =
    BRANCH_SUMMARY_PREAMBLE +
    withRequest +
    formatFileOperations(details.readFiles, details.modifiedFiles);
  return { summary, details };
}
