import { describe, expect, it } from 'vitest';
import { entryCopyText, messageCopyText } from './copy-text';

const base = { id: 'e', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' };

describe('the text "Copy text" takes from an entry', () => {
  it('is what a person reads: text blocks, output, command, summary; never thinking or tool JSON', () => {
    expect(
      messageCopyText({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'secret plan' },
          { type: 'text', text: 'First.' },
          { type: 'toolCall', id: 'c', name: 'read', arguments: { path: 'a' } },
          { type: 'text', text: 'Second.' },
        ],
        api: 'openai-completions',
        provider: 'p',
        model: 'm',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
        stopReason: 'stop',
        timestamp: 0,
      }),
    ).toBe('First.\nSecond.');
    expect(messageCopyText({ role: 'user', content: 'just text', timestamp: 0 })).toBe('just text');
    expect(
      messageCopyText({
        role: 'bashExecution',
        command: 'ls',
        output: 'a\nb',
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 0,
      }),
    ).toBe('$ ls\na\nb');
    expect(
      entryCopyText({
        ...base,
        type: 'compaction',
        summary: 'We did things.',
        firstKeptEntryId: 'x',
        tokensBefore: 1,
      }),
    ).toBe('We did things.');
    expect(entryCopyText({ ...base, type: 'model_change', provider: 'p', modelId: 'm' })).toBe('');
  });
});
