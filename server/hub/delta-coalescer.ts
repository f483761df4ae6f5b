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
  private timer: { cancel(): void } | undefined;
  private lastFlush = -Infinity;

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
    if (this.timer) return;
    const wait = this.lastFlush + this.windowMs - performance.now();
    if (this.windowMs > 0 && wait <= 0) {
      this.flush();
      return;
    }
    if (this.windowMs === 0) {
      const immediate = setImmediate(() => this.flush());
      this.timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(() => this.flush(), wait);
      this.timer = { cancel: () => clearTimeout(timeout) };
    }
  }

  /** Sends everything pending now. */
  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.lastFlush = performance.now();
    for (const event of events) this.emit(event);
  }

  dispose(): void {
    this.flush();
  }
}
