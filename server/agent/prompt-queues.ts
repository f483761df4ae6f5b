import type { AgentMessage, ImageContent, UserMessage } from '../../shared/messages.js';

/*
 * The messages a user queues while the agent runs, as pi keeps them: steering messages are
 * delivered after the current tool batch, follow-ups when the agent would otherwise stop, one
 * message per delivery point (pi's default "one-at-a-time" mode). Every change is reported, so
 * clients show the queues as they are.
 */

export type QueueKind = 'steering' | 'followUp';

export interface QueueTexts {
  steering: string[];
  followUp: string[];
}

interface Queued {
  text: string;
  images: ImageContent[];
  message: UserMessage;
}

export function userMessage(text: string, images?: ImageContent[]): UserMessage {
  return {
    role: 'user',
    content: [{ type: 'text', text }, ...(images ?? [])],
    timestamp: Date.now(),
  };
}

export class PromptQueues {
  private readonly queues: Record<QueueKind, Queued[]> = { steering: [], followUp: [] };

  constructor(private readonly onChange: (texts: QueueTexts) => void) {}

  /** Queues a message; answers the message the agent will be given. */
  push(kind: QueueKind, text: string, images?: ImageContent[]): UserMessage {
    const message = userMessage(text, images);
    this.queues[kind].push({ text, images: images ?? [], message });
    this.onChange(this.texts());
    return message;
  }

  /**
   * Takes one queued message off its queue, for editing or dropping: the one at `index`, which
   * must still read `text` (the agent may have taken it meanwhile, shifting the rest). Returns its
   * text and images, or `undefined` when that message is no longer there.
   */
  remove(
    kind: QueueKind,
    index: number,
    text: string,
  ): { text: string; images: ImageContent[] } | undefined {
    const queue = this.queues[kind];
    const item = queue[index];
    if (!item || item.text !== text) return undefined;
    queue.splice(index, 1);
    this.onChange(this.texts());
    return { text: item.text, images: item.images };
  }

  /** Empties both queues and returns what they held. */
  clear(): QueueTexts {
    const cleared = this.texts();
    this.queues.steering = [];
    this.queues.followUp = [];
    this.onChange(this.texts());
    return cleared;
  }

  /**
   * The next queued message of `kind` (at most one), taken off its queue. The change is reported
   * before the message is injected (queue_update, then its message_start).
   */
  take(kind: QueueKind): AgentMessage[] {
    const next = this.queues[kind].shift();
    if (!next) return [];
    this.onChange(this.texts());
    return [next.message];
  }

  texts(): QueueTexts {
    return {
      steering: this.queues.steering.map((q) => q.text),
      followUp: this.queues.followUp.map((q) => q.text),
    };
  }
}
