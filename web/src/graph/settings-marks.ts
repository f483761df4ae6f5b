import type { TreeNode } from '../../../shared/session-entries';
import { isLabelled, isSettingsEntry } from './entry-kinds';
import type { Work } from './graph-items';

/*
 * Model, thinking-level and session-name changes are marks on the path, not nodes: a run of them
 * (each the only child of the one before) becomes a chip on the node that follows, or, where
 * nothing single follows (the run ends at the leaf, at a branch or at the tip of a branch), one
 * small mark node of its own. A prompt is never part of a run, so it is never hidden. Opening the
 * mark (its id in `expanded`) draws the run's entries as nodes again, to continue from one.
 */

/** The id of the mark a run of settings entries folds into, named by its first entry. */
export function settingsMarkId(first: TreeNode): string {
  return `settings:${first.id}`;
}

function isSettingsWork(work: Work): boolean {
  const { item } = work;
  return item.kind === 'entry' && isSettingsEntry(item.entry) && !isLabelled(item.entry);
}

function entryOf(work: Work): TreeNode {
  if (work.item.kind !== 'entry') throw new Error('a settings run holds entries only');
  return work.item.entry;
}

/**
 * What a piece of a settings chain is drawn as: its entries when the user opened it, a chip on
 * the one node after it, or a mark node. `after` is what follows the piece (empty when the leaf
 * ends it: the mark then holds the leaf). The last item drawn takes the piece's children.
 */
function markOf(piece: Work[], expanded: ReadonlySet<string>, after: Work[]): Work[] {
  const members = piece.map(entryOf);
  const id = settingsMarkId(members[0]!);
  if (expanded.has(id)) return piece;
  const last = piece[piece.length - 1]!;
  const next = !last.isLeaf && after.length === 1 ? after[0]! : undefined;
  if (next && next.item.kind === 'entry') {
    next.item = { ...next.item, settings: members };
    // The node after the piece carries it: nothing is drawn for the piece itself.
    return [];
  }
  const mark: Work = {
    item: { kind: 'settings', role: 'settings', id, members },
    children: [],
    onPath: last.onPath,
    isLeaf: last.isLeaf,
    pinned: piece.some((work) => work.pinned),
  };
  return [mark];
}

/**
 * Replaces each unopened run of settings entries with a chip on its one drawn child, or a mark
 * node. A run ends at the leaf, which stays drawn (as the mark node that holds it).
 */
export function collapseSettings(roots: Work[], expanded: ReadonlySet<string>): Work[] {
  const top = roots.slice();
  const slots: { list: Work[]; index: number }[] = [];
  const pushChildren = (list: Work[]): void => {
    for (let i = 0; i < list.length; i++) slots.push({ list, index: i });
  };
  pushChildren(top);
  while (slots.length > 0) {
    const { list, index } = slots.pop()!;
    const start = list[index]!;
    if (!isSettingsWork(start)) {
      pushChildren(start.children);
      continue;
    }
    const chain = [start];
    let last = start;
    while (last.children.length === 1 && isSettingsWork(last.children[0]!)) {
      last = last.children[0]!;
      chain.push(last);
    }
    const whole = settingsMarkId(entryOf(start));
    if (expanded.has(whole)) {
      pushChildren(last.children);
      continue;
    }
    // The leaf ends a piece of the chain: the pieces before the last are marks of their own.
    const tail = last.children;
    const drawn: Work[] = [];
    let piece: Work[] = [];
    for (const work of chain) {
      piece.push(work);
      if (work.isLeaf || work === last) {
        drawn.push(...markOf(piece, expanded, work === last ? tail : []));
        piece = [];
      }
    }
    if (drawn.length === 0) {
      // The whole chain is a chip on the one node after it, which now stands in its place.
      list[index] = tail[0]!;
      slots.push({ list, index });
      continue;
    }
    for (let i = 0; i < drawn.length - 1; i++) drawn[i]!.children = [drawn[i + 1]!];
    drawn[drawn.length - 1]!.children = tail;
    list[index] = drawn[0]!;
    pushChildren(tail);
  }
  return top;
}
