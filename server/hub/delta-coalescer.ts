import type { AgentSessionEvent } from '../../shared/agent-events.js';

/*
 * Merges streaming deltas of one session so it sends at most one delta frame per window. A text,
 * thinking or tool-call delta extends the pending delta of the same kind and content index; a
 * tool_execution_update replaces the pending one of the same call (it carries accumulated output).
 * Any other event first flushes what is pending, so the order of events never changes.
 *
 * The first delta after a quiet window goes out at once (no added latency when a stream is slow);
 * deltas that arrive within the window wait for its end.
 */

type Emit = (event: AgentSessionEvent) => void;

function isMergeableDelta(event: AgentSessionEvent): boolean {
  if (event.type === 'tool_execution_update') return true;
  if (event.type !== 'message_update') return false;
  const kind = event.assistantMessageEvent.type;
  return kind === 'text_delta' || kind === 'thinking_delta' || kind === 'toolcall_delta';
}

/** Folds `next` into `last` when they are the same stream of deltas; returns the merged event. */
function merge(last: AgentSessionEvent, next: AgentSessionEvent): AgentSessionEvent | undefined {
  if (last.type === 'message_update' && next.type === 'message_update') {
    const a = last.assistantMessageEvent;
    const b = next.assistantMessageEvent;
    if (
      (a.type === 'text_delta' || a.type === 'thinking_delta' || a.type === 'toolcall_delta') &&
      a.type === b.type &&
      a.contentIndex === b.contentIndex
    ) {
      return {
        ...next,
        assistantMessageEvent: { ...a, delta: a.delta + (b as typeof a).delta },
      };
    }
    return undefined;
  }
  if (
    last.type === 'tool_execution_update' &&
    next.type === 'tool_execution_update' &&
    last.toolCallId === next.toolCallId
  ) {
    return next;
  }
  return undefined;
}

export class DeltaCoalescer {
  private pending: AgentSessionEvent[] = [];
  /** The flush scheduled for the window's end. */
  private timer: NodeJS.Timeout | undefined;
  /** Without a window: a flush is queued for when the current callback's work is done. */
  private tickQueued = false;
  private lastFlush = -Infinity;
  /** Bound once: a stream of thousands of deltas allocates no closure per delta. */
  private readonly flushLater = (): void => {
    this.timer = undefined;
    this.flush();
  };
  private readonly flushAfterTick = (): void => {
    this.tickQueued = false;
    this.flush();
  };
  /** Node runs ticks after the microtask queue drains; queued from a microtask, the flush waits for it. */
  private readonly queueTick = (): void => process.nextTick(this.flushAfterTick);

  constructor(
    private readonly windowMs: number,
    private readonly emit: Emit,
  ) {}

  push(event: AgentSessionEvent): void {
    if (!isMergeableDelta(event)) {
      this.flush();
      this.emit(event);
      return;
    }
    const last = this.pending[this.pending.length - 1];
    const merged = last ? merge(last, event) : undefined;
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(event);
    if (this.windowMs === 0) {
      // After the callback that brought this delta (a network read of the model's stream) and the
      // promise chain it started have run: deltas of that one read merge, and the frame goes out
      // before the next socket's read is handled, not after all of them.
      if (!this.tickQueued) {
        this.tickQueued = true;
        queueMicrotask(this.queueTick);
      }
      return;
    }
    if (this.timer) return;
    const wait = this.lastFlush + this.windowMs - performance.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(this.flushLater, wait);
  }

  /** Sends everything pending now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    if (this.windowMs > 0) this.lastFlush = performance.now();
    for (const event of events) this.emit(event);
  }

  dispose(): void {
    this.flush();
  }
}
