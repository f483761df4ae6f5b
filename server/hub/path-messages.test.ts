import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../shared/session-entries.js';
import { snapshotMessages } from './path-messages.js';

const at = '2026-03-01T09:00:00.000Z';

function user(id: string, parentId: string | null): SessionEntry {
  return {
    type: 'message',
    id,
    parentId,
    timestamp: at,
    message: { role: 'user', content: id, timestamp: 0 },
  };
}

describe('snapshotMessages', () => {
  it('keeps the newest messages in path order and counts only message-like entries as omitted', () => {
    const branch: SessionEntry[] = [
      user('a', null),
      {
        type: 'thinking_level_change',
        id: 's1',
        parentId: 'a',
        timestamp: at,
        thinkingLevel: 'off',
      },
      user('b', 's1'),
      {
        type: 'compaction',
        id: 'c',
        parentId: 'b',
        timestamp: at,
        summary: 'earlier work',
        firstKeptEntryId: 'b',
        tokensBefore: 100,
      },
      { type: 'model_change', id: 's2', parentId: 'c', timestamp: at, provider: 'p', modelId: 'm' },
      user('d', 's2'),
      user('e', 'd'),
    ];
    const { messages, omittedMessages } = snapshotMessages(branch, 3);
    expect(messages.map((m) => m.entryId)).toEqual(['c', 'd', 'e']);
    expect(messages[0]?.message).toMatchObject({
      role: 'compactionSummary',
      summary: 'earlier work',
    });
    expect(omittedMessages).toBe(2);
  });

  it('keeps every message of a path no longer than the limit', () => {
    const { messages, omittedMessages } = snapshotMessages([user('a', null), user('b', 'a')], 2);
    expect(messages.map((m) => m.entryId)).toEqual(['a', 'b']);
    expect(omittedMessages).toBe(0);
  });

  it('gives nothing for an empty path', () => {
    expect(snapshotMessages([], 5)).toEqual({ messages: [], omittedMessages: 0 });
  });
});
