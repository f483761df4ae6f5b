import { describe, expect, it } from 'vitest';
import { applyAssistantDelta, type AssistantMessageEvent } from '../../shared/agent-events.js';
import { emptyUsage, type AssistantMessage } from '../../shared/messages.js';
import { prng } from '../../shared/prng.js';
import { PartialMessage } from './partial-message.js';

function empty(): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: 'openai-completions',
    provider: 'p',
    model: 'm',
    usage: emptyUsage(),
    stopReason: 'stop',
    timestamp: 0,
  };
}

/** A plausible stream: blocks started in order, deltas to any open block, some ended. */
function randomEvents(random: () => number, count: number): AssistantMessageEvent[] {
  const events: AssistantMessageEvent[] = [];
  const open: { index: number; kind: 'text' | 'thinking' | 'toolCall' }[] = [];
  let next = 0;
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (open.length === 0 || roll < 0.06) {
      const kind = (['text', 'thinking', 'toolCall'] as const)[Math.floor(random() * 3)]!;
      const index = next++;
      open.push({ index, kind });
      events.push(
        kind === 'toolCall'
          ? { type: 'toolcall_start', contentIndex: index, id: `c${index}`, name: 'ls' }
          : { type: kind === 'text' ? 'text_start' : 'thinking_start', contentIndex: index },
      );
    } else if (roll < 0.1) {
      const block = open.splice(Math.floor(random() * open.length), 1)[0]!;
      events.push(
        block.kind === 'toolCall'
          ? {
              type: 'toolcall_end',
              contentIndex: block.index,
              toolCall: { type: 'toolCall', id: `c${block.index}`, name: 'ls', arguments: {} },
            }
          : {
              type: block.kind === 'text' ? 'text_end' : 'thinking_end',
              contentIndex: block.index,
            },
      );
    } else {
      const block = open[Math.floor(random() * open.length)]!;
      const delta = `w${i}é `.repeat(1 + Math.floor(random() * 3));
      events.push({
        type:
          block.kind === 'text'
            ? 'text_delta'
            : block.kind === 'thinking'
              ? 'thinking_delta'
              : 'toolcall_delta',
        contentIndex: block.index,
        delta,
      });
    }
  }
  return events;
}

describe('PartialMessage', () => {
  it('reads the same message as applying every delta in place, whenever it is read', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = prng(seed);
      const reference = empty();
      const partial = new PartialMessage(empty());
      for (const event of randomEvents(random, 300)) {
        applyAssistantDelta(reference, event);
        partial.apply(event);
        if (random() < 0.05) expect(partial.current(), `seed ${seed}`).toEqual(reference);
      }
      expect(partial.current(), `seed ${seed}`).toEqual(reference);
    }
  });

  it('ignores a delta for a block that is not there or of another kind, as in place', () => {
    const partial = new PartialMessage(empty());
    partial.apply({ type: 'text_delta', contentIndex: 0, delta: 'lost' });
    partial.apply({ type: 'thinking_start', contentIndex: 0 });
    partial.apply({ type: 'text_delta', contentIndex: 0, delta: 'wrong kind' });
    expect(partial.current().content).toEqual([{ type: 'thinking', thinking: '' }]);
  });
});
