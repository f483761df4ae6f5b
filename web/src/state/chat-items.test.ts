import { describe, expect, it } from 'vitest';
import { messageOfEntry } from '../../../shared/entry-messages';
import type { SessionEntry } from '../../../shared/session-entries';
import { bodyOfEntry } from './chat-items';

const base = { id: 'e', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' };

const entries: SessionEntry[] = [
  { ...base, type: 'custom_message', customType: 'note', content: 'a note', display: true },
  {
    ...base,
    type: 'compaction',
    summary: 'so far',
    firstKeptEntryId: 'k',
    tokensBefore: 10,
  },
  { ...base, type: 'branch_summary', summary: 'left behind', fromId: 'f' },
  { ...base, type: 'model_change', provider: 'demo', modelId: 'm' },
];

describe('the body the chat draws for an entry', () => {
  it.each(entries.map((entry) => [entry.type, entry]))(
    'a %s entry shows as the message the shared rule makes of it, field for field',
    (_type, entry) => {
      expect(bodyOfEntry(entry)).toStrictEqual(messageOfEntry(entry));
    },
  );
});
