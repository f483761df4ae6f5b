import type { TreeNode } from '../../../shared/session-entries';
import {
  isAlwaysHidden,
  isLabelled,
  isLoopMember,
  isSettingsEntry,
  isUserLike,
} from './entry-kinds';
import type { FoldItem, Work } from './graph-items';
import { collapseSettings } from './settings-marks';

/*
 * What folds in the session graph, decided in one place for every way a graph is made: a graph
 * derived on load, one grown live entry by entry and one restyled for a leaf move all ask these
 * rules, so a reload draws what the live page drew (docs/decisions/075-graph-marks-and-follow.md).
 * Folding depends on the skeleton, the leaf, the filter and the folds the user opened, never on
 * what the page happened to show before.
 */

/** A long unbranched run of turns off the active path folds from this many items on. */
export const SEGMENT_MIN_ITEMS = 12;

/** Entries never folded into a tool loop or a segment: the active path, the leaf, labelled ones. */
export function isPinned(entry: TreeNode, onPath: boolean, isLeaf: boolean): boolean {
  return onPath || isLeaf || isLabelled(entry);
}

/**
 * Whether an entry's part in folding does not hang on where the leaf is, so a graph may grow by
 * it, or the leaf move onto or off it, without a derivation: everything but unlabelled settings
 * entries, whose runs end at the leaf and become a chip on the next node once one follows.
 */
export function standsAlone(entry: TreeNode): boolean {
  return !isSettingsEntry(entry) || isLabelled(entry);
}

/**
 * Whether a leaf move across these entries (on the old path and not the new, or the other way)
 * may keep every fold as it is: only entries that never take part in folding (never drawn, or
 * labelled and so pinned either way) qualify.
 */
export function pathChangeKeepsFolds(entry: TreeNode): boolean {
  return isAlwaysHidden(entry) || isLabelled(entry);
}

/**
 * Whether an entry drawn on its own keeps every fold as it is when its label changes from
 * `previous`'s to `next`'s: it is pinned with either label, and a settings entry, which a label
 * takes out of its run of marks, is labelled in both.
 */
export function labelChangeKeepsFolds(
  previous: TreeNode,
  next: TreeNode,
  onPath: boolean,
  isLeaf: boolean,
): boolean {
  if (!isPinned(previous, onPath, isLeaf) || !isPinned(next, onPath, isLeaf)) return false;
  return !isSettingsEntry(next) || (isLabelled(previous) && isLabelled(next));
}

interface ChainRule {
  /** May this item be part of a chain at all (an unpinned item of the right kind)? */
  inChain(work: Work): boolean;
  /** Chains shorter than this stay as they are. */
  minChain: number;
  /** May this item go into a fold (items that may not split the chain into pieces)? */
  foldable(work: Work): boolean;
  /** Pieces (maximal runs of foldable items) shorter than this stay as they are. */
  minPiece: number;
  makeFold(piece: Work[]): FoldItem;
}

/**
 * Finds every maximal chain of items (each one's only child is the next) the rule admits, and in
 * chains long enough replaces each long enough run of foldable items with one fold item, unless
 * the user opened that fold. Items that are not foldable stay drawn, linked to the folds around.
 */
function collapseChains(roots: Work[], rule: ChainRule, expanded: ReadonlySet<string>): Work[] {
  // Iterative, so that a 10,000-entry chain does not exhaust the call stack.
  const top = roots.slice();
  const slots: { list: Work[]; index: number }[] = [];
  const pushChildren = (list: Work[]): void => {
    for (let i = 0; i < list.length; i++) slots.push({ list, index: i });
  };
  pushChildren(top);
  while (slots.length > 0) {
    const { list, index } = slots.pop()!;
    const start = list[index]!;
    if (!rule.inChain(start)) {
      pushChildren(start.children);
      continue;
    }
    const chain = [start];
    let last = start;
    while (last.children.length === 1 && rule.inChain(last.children[0]!)) {
      last = last.children[0]!;
      chain.push(last);
    }
    const tail = last.children;
    if (chain.length < rule.minChain) {
      pushChildren(tail);
      continue;
    }
    const drawn: Work[] = [];
    let piece: Work[] = [];
    const closePiece = (): void => {
      const fold = piece.length >= rule.minPiece ? rule.makeFold(piece) : null;
      if (fold && !expanded.has(fold.id))
        drawn.push({ item: fold, children: [], onPath: false, isLeaf: false, pinned: false });
      else drawn.push(...piece);
      piece = [];
    };
    for (const work of chain) {
      if (rule.foldable(work)) {
        piece.push(work);
        continue;
      }
      closePiece();
      drawn.push(work);
    }
    closePiece();
    for (let i = 0; i < drawn.length - 1; i++) drawn[i]!.children = [drawn[i + 1]!];
    drawn[drawn.length - 1]!.children = tail;
    list[index] = drawn[0]!;
    pushChildren(tail);
  }
  return top;
}

/** Every entry a chain of items stands for, root-most first (a chip's settings before its node). */
function membersOf(chain: Work[]): TreeNode[] {
  const members: TreeNode[] = [];
  for (const { item } of chain) {
    if (item.kind === 'entry') {
      if (item.settings) members.push(...item.settings);
      members.push(item.entry);
    } else members.push(...item.members);
  }
  return members;
}

function isUserItem(work: Work): boolean {
  return work.item.kind === 'entry' && isUserLike(work.item.entry);
}

/**
 * Folds the drawn forest: runs of settings entries into marks, then the tool loops of turns, then
 * the rest of each turn in long unbranched runs of turns. Prompts and pinned entries are never
 * inside a tool-loop fold or a segment.
 */
export function foldForest(
  roots: Work[],
  expanded: ReadonlySet<string>,
  segmentMinItems: number,
): Work[] {
  const marked = collapseSettings(roots, expanded);
  const loopFolded = collapseChains(
    marked,
    {
      inChain: (work) =>
        !work.pinned && work.item.kind === 'entry' && isLoopMember(work.item.entry),
      minChain: 2,
      foldable: () => true,
      minPiece: 2,
      makeFold: (piece) => ({
        kind: 'fold',
        role: 'fold',
        id: `fold:${piece[0]!.item.id}`,
        members: membersOf(piece),
      }),
    },
    expanded,
  );
  return collapseChains(
    loopFolded,
    {
      inChain: (work) => !work.pinned,
      minChain: segmentMinItems,
      foldable: (work) => !isUserItem(work),
      minPiece: 2,
      makeFold: (piece) => {
        const members = membersOf(piece);
        return { kind: 'segment', role: 'segment', id: `segment:${members[0]!.id}`, members };
      },
    },
    expanded,
  );
}
