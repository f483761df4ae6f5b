import type { SessionView } from './session-reducer';

/** Entry ids root → leaf (a parent cycle ends the walk where an id would repeat). */
export function activePathIds(view: Pick<SessionView, 'byId' | 'leafId'>): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  let current = view.leafId === null ? undefined : view.byId.get(view.leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current.id);
    current = current.parentId === null ? undefined : view.byId.get(current.parentId);
  }
  return path.reverse();
}

/**
 * Whether the active path holds a prompt: before one, there is nothing to compact. Walks up from
 * the leaf and stops at the first prompt, which is near the leaf on any path that has one.
 */
export function pathHasPrompt(view: Pick<SessionView, 'byId' | 'leafId'>): boolean {
  const seen = new Set<string>();
  let current = view.leafId === null ? undefined : view.byId.get(view.leafId);
  while (current && !seen.has(current.id)) {
    if (current.role === 'user') return true;
    seen.add(current.id);
    current = current.parentId === null ? undefined : view.byId.get(current.parentId);
  }
  return false;
}
