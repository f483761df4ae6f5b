import { describe, expect, it } from 'vitest';
import { lineageRows } from './session-lineage';
import type { SessionListItem } from '../../../shared/rest-shapes';

function item(id: string, modified: string, parentSessionId?: string): SessionListItem {
  return {
    id,
    workspaceId: 'w',
    firstMessage: `first ${id}`,
    created: modified,
    modified,
    messageCount: 1,
    owner: null,
    may: { rename: false, delete: false },
    ...(parentSessionId ? { parentSessionId } : {}),
  };
}

describe('lineageRows', () => {
  it('lists sessions newest first with forks indented under their parent', () => {
    const rows = lineageRows([
      item('old', '2026-01-01'),
      item('fork', '2026-01-05', 'old'),
      item('new', '2026-01-03'),
      item('forkOfFork', '2026-01-06', 'fork'),
    ]);
    expect(rows.map((r) => [r.session.id, r.depth])).toEqual([
      ['new', 0],
      ['old', 0],
      ['fork', 1],
      ['forkOfFork', 2],
    ]);
  });

  it('keeps a fork whose parent is not listed at the top level, and survives cycles', () => {
    const rows = lineageRows([
      item('a', '2026-01-02', 'gone'),
      item('x', '1', 'y'),
      item('y', '2', 'x'),
    ]);
    expect(rows.map((r) => r.session.id).sort()).toEqual(['a', 'x', 'y']);
  });
});
