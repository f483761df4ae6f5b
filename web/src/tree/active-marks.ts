import { createContext, useContext, useSyncExternalStore } from 'react';

/*
 * Which drawn nodes lie on the active path and which is the leaf, kept outside React Flow's nodes:
 * each node and edge component subscribes for its own id, so a leaf move re-renders only the nodes
 * and edges whose mark changed and hands React Flow no new nodes or edges at all.
 */

export const MARK_NONE = 0;
export const MARK_PATH = 1;
export const MARK_LEAF = 2;
export type Mark = typeof MARK_NONE | typeof MARK_PATH | typeof MARK_LEAF;

export class ActiveMarks {
  private onPath: ReadonlySet<string> = new Set();
  private leaf: string | null = null;
  private readonly listeners = new Set<() => void>();

  /** Sets the marks and tells the subscribers (each rechecks its own id). */
  set(onPath: ReadonlySet<string>, leaf: string | null): void {
    if (onPath === this.onPath && leaf === this.leaf) return;
    this.onPath = onPath;
    this.leaf = leaf;
    for (const listener of this.listeners) listener();
  }

  markOf(id: string): Mark {
    if (id === this.leaf) return MARK_LEAF;
    return this.onPath.has(id) ? MARK_PATH : MARK_NONE;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export const ActiveMarksContext = createContext<ActiveMarks>(new ActiveMarks());

/** The mark of one drawn node; the component re-renders only when that mark changes. */
export function useMark(id: string): Mark {
  const marks = useContext(ActiveMarksContext);
  return useSyncExternalStore(marks.subscribe, () => marks.markOf(id));
}
