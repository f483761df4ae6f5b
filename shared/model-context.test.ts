import { describe, expect, it } from 'vitest';
import { pathContext, type ContextPathItem } from './model-context.js';

const message = (id: string, role: string): ContextPathItem => ({ id, type: 'message', role });
const compaction = (id: string): ContextPathItem => ({ id, type: 'compaction' });

describe('pathContext', () => {
  it('puts every message of a path without a compaction in the context', () => {
    const path = [message('s', 'system'), message('u1', 'user'), message('a1', 'assistant')];
    const context = pathContext(path, undefined);
    expect(context.compactionId).toBeNull();
    expect([...context.historyOnly]).toEqual([]);
    expect([...context.inContext]).toEqual(['s', 'u1', 'a1']);
  });

  it('leaves what a compaction summarised in history only, and keeps its kept range', () => {
    const path = [
      message('s', 'system'),
      message('u1', 'user'),
      message('a1', 'assistant'),
      { id: 'm', type: 'model_change' },
      message('u2', 'user'),
      message('a2', 'assistant'),
      compaction('c'),
      message('u3', 'user'),
      { id: 'e', type: 'context_edit' },
    ];
    const context = pathContext(path, 'u2');
    expect(context.compactionId).toBe('c');
    // The system prompt travels in the compaction's checkpoint; settings are no messages.
    expect([...context.historyOnly]).toEqual(['u1', 'a1']);
    expect([...context.inContext].sort()).toEqual(['a2', 'c', 'e', 'u2', 'u3']);
  });

  it('counts an earlier compaction as summarised by the later one', () => {
    const path = [
      message('u1', 'user'),
      compaction('c1'),
      message('u2', 'user'),
      message('a2', 'assistant'),
      compaction('c2'),
    ];
    const context = pathContext(path, 'a2');
    expect([...context.historyOnly]).toEqual(['u1', 'c1', 'u2']);
    expect(context.inContext.has('c2')).toBe(true);
  });

  it('keeps nothing before the compaction when its first kept entry is not on the path', () => {
    const path = [message('u1', 'user'), message('a1', 'assistant'), compaction('c')];
    expect([...pathContext(path, 'elsewhere').historyOnly]).toEqual(['u1', 'a1']);
  });
});
