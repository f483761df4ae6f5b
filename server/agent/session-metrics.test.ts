import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../shared/session-entries.js';
import { pathCost } from './session-metrics.js';

const usage = (total: number) => ({
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
});
const base = (id: string) => ({ id, parentId: null, timestamp: '2026-01-01T00:00:00.000Z' });

describe('pathCost', () => {
  it("counts what pi 1.6 counts: replies, usage entries, tools' and summaries' own calls", () => {
    const branch = [
      {
        ...base('a'),
        type: 'message',
        message: {
          role: 'assistant',
          content: [],
          api: 'x',
          provider: 'p',
          model: 'm',
          usage: usage(1),
          stopReason: 'stop',
          timestamp: 1,
        },
      },
      {
        ...base('g'),
        type: 'usage',
        kind: 'cache_warm',
        provider: 'p',
        model: 'm',
        usage: usage(2),
      },
      {
        ...base('t'),
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: 'c',
          toolName: 'agent',
          content: [],
          usage: usage(4),
          isError: false,
          timestamp: 2,
        },
      },
      {
        ...base('c'),
        type: 'compaction',
        summary: 's',
        firstKeptEntryId: 'a',
        tokensBefore: 1,
        usage: usage(8),
      },
      { ...base('b'), type: 'branch_summary', fromId: 'a', summary: 's', usage: usage(16) },
      { ...base('u'), type: 'message', message: { role: 'user', content: 'hi', timestamp: 3 } },
    ] as SessionEntry[];
    expect(pathCost(branch)).toBe(31);
  });
});
