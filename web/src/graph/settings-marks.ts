import type { TreeNode } from '../../../shared/session-entries';
import { isLabelled, isSettingsEntry } from './entry-kinds';
import type { Work } from './fold-rules';

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
    const run = [start];
    let last = start;
    while (!last.isLeaf && last.children.length === 1 && isSettingsWork(last.children[0]!)) {
      last = last.children[0]!;
      run.push(last);
    }
    const members: TreeNode[] = [];
    for (const work of run) if (work.item.kind === 'entry') members.push(work.item.entry);
    const id = settingsMarkId(members[0]!);
    const tail = last.children;
    if (expanded.has(id)) {
      pushChildren(tail);
      continue;
    }
    const next = !last.isLeaf && tail.length === 1 ? tail[0]! : undefined;
    if (next && next.item.kind === 'entry') {
      next.item = { ...next.item, settings: members };
      list[index] = next;
      pushChildren(next.children);
      continue;
    }
    list[index] = {
      item: { kind: 'settings', role: 'settings', id, members },
      children: tail,
      onPath: last.onPath,
      isLeaf: last.isLeaf,
      pinned: run.some((work) => work.pinned),
    };
    pushChildren(tail);
  }
  return top;
}
