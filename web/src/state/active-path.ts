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
