/*
 * Entries whose parents lead back to themselves (A's parent is B, B's parent is A) make no tree:
 * no view can place them. An imported file is checked for such a cycle before it is kept.
 */

/** The parent of each entry id (the last line of an id wins, as in pi) and its line number. */
export class ParentMap {
  readonly parents = new Map<string, string | null>();
  readonly lines = new Map<string, number>();

  set(id: string, parentId: string | null, line: number): void {
    this.parents.set(id, parentId);
    this.lines.set(id, line);
  }
}

export interface CycleLink {
  id: string;
  line: number;
}

/**
 * One cycle of parent links, in parent order starting anywhere on it, or undefined when there is
 * none. Linear: each entry is walked once.
 */
export function findParentCycle(map: ParentMap): CycleLink[] | undefined {
  const DONE = -1;
  const state = new Map<string, number>(); // walk number while walking, DONE once settled
  let walk = 0;
  for (const start of map.parents.keys()) {
    if (state.has(start)) continue;
    walk++;
    const chain: string[] = [];
    let id: string | null | undefined = start;
    while (id !== null && id !== undefined && !state.has(id) && map.parents.has(id)) {
      state.set(id, walk);
      chain.push(id);
      id = map.parents.get(id);
    }
    if (id !== null && id !== undefined && state.get(id) === walk) {
      const cycle = chain.slice(chain.indexOf(id));
      return cycle.map((member) => ({ id: member, line: map.lines.get(member) ?? 0 }));
    }
    for (const member of chain) state.set(member, DONE);
  }
  return undefined;
}
