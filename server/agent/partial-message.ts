import { applyAssistantDelta, type AssistantMessageEvent } from '../../shared/agent-events.js';
import type { AssistantMessage } from '../../shared/messages.js';
import { TextGatherer } from '../models/text-gatherer.js';

/**
 * The assistant message being streamed, every delta applied. Text and thinking deltas are gathered
 * (text-gatherer.ts) and written into the message when it is read, so a stream of thousands of
 * deltas leaves a few flat strings behind instead of a rope node per delta.
 */
export class PartialMessage {
  private readonly gathered = new Map<number, TextGatherer>();

  constructor(private readonly message: AssistantMessage) {}

  apply(event: AssistantMessageEvent): void {
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      const block = this.message.content[event.contentIndex];
      if (block?.type !== (event.type === 'text_delta' ? 'text' : 'thinking')) return;
      let gatherer = this.gathered.get(event.contentIndex);
      if (!gatherer) {
        gatherer = new TextGatherer();
        gatherer.append(block.type === 'text' ? block.text : block.thinking);
        this.gathered.set(event.contentIndex, gatherer);
      }
      gatherer.append(event.delta);
      return;
    }
    // Other events may replace a block: what was gathered goes into the message first.
    this.current();
    this.gathered.clear();
    applyAssistantDelta(this.message, event);
  }

  /** The message with everything applied (the same object each time). */
  current(): AssistantMessage {
    for (const [index, gatherer] of this.gathered) {
      const block = this.message.content[index];
      if (block?.type === 'text') block.text = gatherer.text();
      else if (block?.type === 'thinking') block.thinking = gatherer.text();
    }
    return this.message;
  }
}
