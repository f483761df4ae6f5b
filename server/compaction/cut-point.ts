import type { SessionEntry } from '../../shared/session-entries.js';
import { estimateTokens } from './token-estimates.js';

/*
 * Where a compaction cuts a path: keep roughly `keepRecentTokens` of the newest messages, never
 * start the kept part at a tool result (it would lose its call), and say when the cut falls inside
 * a turn so the turn's beginning can be summarised on its own.
 */

export interface CutPoint {
  /** Index of the first entry kept verbatim. */
  firstKeptEntryIndex: number;
  /** When the cut splits a turn: the index of the entry that started it; otherwise −1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** True for entries a kept span may begin with: anything that is a message but a tool result. */
export function isValidCutPoint(entry: SessionEntry): boolean {
  if (entry.type === 'branch_summary' || entry.type === 'custom_message') return true;
  if (entry.type !== 'message') return false;
  const role = entry.message.role;
  return role !== 'toolResult' && role !== 'hookMessage';
}

/** True for entries that open a turn: a user prompt, a user-run command, or a user-like message. */
export function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === 'branch_summary' || entry.type === 'custom_message') return true;
  if (entry.type !== 'message') return false;
  return entry.message.role === 'user' || entry.message.role === 'bashExecution';
}

/** The index of the turn start at or before `entryIndex` (not before `startIndex`), or −1. */
export function findTurnStartIndex(
  entries: readonly SessionEntry[],
  entryIndex: number,
  startIndex: number,
): number {
  for (let i = entryIndex; i >= startIndex; i--) {
    const entry = entries[i];
    if (entry && isTurnStart(entry)) return i;
  }
  return -1;
}

/**
 * The cut for entries in [startIndex, endIndex): walk back from the newest, summing message
 * estimates; at the first entry where the sum reaches `keepRecentTokens`, cut at the first valid
 * point at or after it (or keep everything when the budget is never reached). Then move the cut
 * back over bookkeeping entries right before it, stopping at a message or a compaction.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPoint {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    const entry = entries[i];
    if (entry && isValidCutPoint(entry)) cutPoints.push(i);
  }
  const firstCutPoint = cutPoints[0];
  if (firstCutPoint === undefined) {
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  }

  let cutIndex: number = firstCutPoint;
  let accumulated = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const entry = entries[i];
    if (entry?.type !== 'message') continue;
    accumulated += estimateTokens(entry.message);
    if (accumulated >= keepRecentTokens) {
      const atOrAfter = cutPoints.find((c) => c >= i);
      if (atOrAfter !== undefined) cutIndex = atOrAfter;
      break;
    }
  }

  return finishCut(entries, startIndex, cutIndex);
}

/**
 * The cut that keeps least: at the newest valid cut point after `startIndex` (a tool call's
 * assistant message keeps its results with it), or with `turnStartsOnly` at the newest turn
 * start. Falls back to keeping everything when there is no such point.
 */
export function findLatestCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  options: { turnStartsOnly?: boolean } = {},
): CutPoint {
  const fits = options.turnStartsOnly ? isTurnStart : isValidCutPoint;
  for (let i = endIndex - 1; i > startIndex; i--) {
    const entry = entries[i];
    if (entry && fits(entry)) return finishCut(entries, startIndex, i);
  }
  return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
}

/** Moves a cut back over bookkeeping entries before it and says whether it splits a turn. */
function finishCut(entries: readonly SessionEntry[], startIndex: number, cut: number): CutPoint {
  let cutIndex = cut;
  while (cutIndex > startIndex) {
    const previous = entries[cutIndex - 1];
    if (!previous || previous.type === 'compaction' || previous.type === 'message') break;
    cutIndex--;
  }

  const cutEntry = entries[cutIndex];
  const cutsAtUser = cutEntry?.type === 'message' && cutEntry.message.role === 'user';
  const turnStartIndex = cutsAtUser ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return {
    firstKeptEntryIndex: cutIndex,
    turnStartIndex,
    isSplitTurn: !cutsAtUser && turnStartIndex !== -1,
  };
}
