import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../shared/session-entries.js';
import { nodeOfEntry } from './tree-node.js';

/* What the tree says about pi 1.6's own entries: never a blank node. */

const base = (id: string, type: string) => ({
  type,
  id,
  parentId: null,
  timestamp: '2026-01-01T00:00:00.000Z',
});
const preview = (entry: object) => nodeOfEntry(entry as SessionEntry).preview;

describe("tree nodes of pi 1.6's entries", () => {
  it('a system message names its sections and tools, a patch what it removes', () => {
    expect(
      preview({
        ...base('s1', 'message'),
        message: {
          role: 'system',
          content: '',
          sections: { preamble: 'You are…', tools: '<tools/>' },
          toolsAdded: [{ name: 'read' }, { name: 'bash' }],
          timestamp: 1,
        },
      }),
    ).toBe('System: 2 sections, 2 tools · preamble, tools · +read +bash');
    expect(
      preview({
        ...base('s2', 'message'),
        message: {
          role: 'system',
          content: [{ type: 'text', text: 'Be brief.' }],
          sections: { old: null },
          toolsRemoved: [{ name: 'bash' }],
          timestamp: 2,
        },
      }),
    ).toBe('System: 1 section removed, 1 tool removed · −old · −bash · Be brief.');
    expect(
      preview({ ...base('s3', 'message'), message: { role: 'system', content: '', timestamp: 3 } }),
    ).toBe('System: (empty)');
  });

  it('a context edit says what it hides or replaces', () => {
    expect(preview({ ...base('e1', 'context_edit'), targetId: 'abc', replacement: null })).toBe(
      'Hidden from the context: abc',
    );
    expect(
      preview({
        ...base('e2', 'context_edit'),
        targetId: 'abc',
        replacement: { content: [{ type: 'text', text: 'short   output' }] },
      }),
    ).toBe('Replaced in the context: abc → short output');
  });

  it('a usage entry says what it counted', () => {
    expect(
      preview({
        ...base('g1', 'usage'),
        kind: 'cache_warm',
        provider: 'arbor',
        model: 'arbor-demo',
        usage: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 7 },
        note: 'warm',
      }),
    ).toBe('cache_warm: arbor/arbor-demo, 7 tokens (warm)');
  });

  it('a deferred reply without text says so', () => {
    const assistant = (stopReason: string) => ({
      ...base('a1', 'message'),
      message: {
        role: 'assistant',
        content: [],
        api: 'x',
        provider: 'p',
        model: 'm',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        stopReason,
        timestamp: 1,
      },
    });
    expect(preview(assistant('deferred'))).toBe('(deferred reply)');
    expect(preview(assistant('pending'))).toBe('(pending)');
    expect(preview(assistant('stop'))).toBe('');
  });
});
