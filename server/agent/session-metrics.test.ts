import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { AgentMessage } from '../../shared/messages.js';
import { contextUsage, pathCost } from './session-metrics.js';

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

describe('contextUsage', () => {
  const reply = (text: string, total: number): AgentMessage => ({
    role: 'assistant',
    content: [{ type: 'text', text }],
    api: 'x',
    provider: 'p',
    model: 'm',
    usage: { ...usage(0), totalTokens: total },
    stopReason: 'stop',
    timestamp: 1,
  });
  const prompt: AgentMessage = { role: 'user', content: 'a'.repeat(400), timestamp: 1 };
  const kept = reply('b'.repeat(80), 90_000);
  const summary: AgentMessage = {
    role: 'compactionSummary',
    summary: 'c'.repeat(40),
    tokensBefore: 90_000,
    timestamp: 2,
  };
  const branch = [
    { ...base('u'), type: 'message', message: prompt },
    { ...base('a'), type: 'message', message: kept },
    { ...base('c'), type: 'compaction', summary: 's', firstKeptEntryId: 'u', tokensBefore: 90_000 },
  ] as SessionEntry[];

  it('estimates the new context right after a compaction, ignoring usage from before it', () => {
    // 400/4 + 80/4 + 40/4 = 130: what the next request will carry, not the 90,000 before.
    expect(contextUsage(branch, [summary, prompt, kept], 1000)).toEqual({
      tokens: 130,
      contextWindow: 1000,
      percent: 13,
      estimated: true,
    });
  });

  it('takes the usage an answer reports once one came after the compaction', () => {
    const after = reply('d', 500);
    const later = [...branch, { ...base('z'), type: 'message', message: after }] as SessionEntry[];
    const usageNow = contextUsage(later, [summary, prompt, kept, after], 1000);
    expect(usageNow).toEqual({ tokens: 500, contextWindow: 1000, percent: 50 });
  });
});
