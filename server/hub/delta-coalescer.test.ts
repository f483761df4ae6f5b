import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSessionEvent } from '../../shared/agent-events.js';
import { DeltaCoalescer } from './delta-coalescer.js';

const text = (delta: string, contentIndex = 0): AgentSessionEvent => ({
  type: 'message_update',
  assistantMessageEvent: { type: 'text_delta', contentIndex, delta },
});

afterEach(() => vi.useRealTimers());

describe('DeltaCoalescer', () => {
  it('sends the first delta at once and merges the rest of the window into one', () => {
    vi.useFakeTimers();
    const out: AgentSessionEvent[] = [];
    const coalescer = new DeltaCoalescer(30, (event) => out.push(event));
    coalescer.push(text('a'));
    expect(out).toEqual([text('a')]);
    coalescer.push(text('b'));
    coalescer.push(text('c'));
    expect(out).toHaveLength(1);
    vi.advanceTimersByTime(30);
    expect(out).toEqual([text('a'), text('bc')]);
  });

  it('keeps order: another event flushes pending deltas before it goes out', () => {
    vi.useFakeTimers();
    const out: AgentSessionEvent[] = [];
    const coalescer = new DeltaCoalescer(30, (event) => out.push(event));
    coalescer.push(text('a'));
    coalescer.push(text('b'));
    coalescer.push(text('x', 1));
    coalescer.push({ type: 'turn_start' });
    expect(out).toEqual([text('a'), text('b'), text('x', 1), { type: 'turn_start' }]);
  });

  it('keeps only the latest tool output of a call within a window', () => {
    vi.useFakeTimers();
    const out: AgentSessionEvent[] = [];
    const coalescer = new DeltaCoalescer(30, (event) => out.push(event));
    const update = (text: string): AgentSessionEvent => ({
      type: 'tool_execution_update',
      toolCallId: 't1',
      toolName: 'bash',
      args: {},
      partialResult: { content: [{ type: 'text', text }] },
    });
    coalescer.push(update('1'));
    coalescer.push(update('12'));
    coalescer.push(update('123'));
    coalescer.flush();
    expect(out).toEqual([update('1'), update('123')]);
  });

  it('without a window, merges what one callback and its promise chain push, and sends it before the next callback', async () => {
    const out: AgentSessionEvent[] = [];
    const coalescer = new DeltaCoalescer(0, (event) => out.push(event));
    let seenByNextCallback: AgentSessionEvent[] | undefined;
    await new Promise<void>((resolve) => {
      setImmediate(() => {
        // One network read: deltas reach the coalescer across several promise hops.
        coalescer.push(text('a'));
        void Promise.resolve()
          .then(() => coalescer.push(text('b')))
          .then(() => coalescer.push(text('c')));
        setImmediate(() => {
          seenByNextCallback = [...out];
          coalescer.push(text('d'));
          setImmediate(resolve);
        });
      });
    });
    expect(seenByNextCallback).toEqual([text('abc')]);
    expect(out).toEqual([text('abc'), text('d')]);
  });
});
