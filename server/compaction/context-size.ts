import type { AgentMessage } from '../../shared/messages.js';
import { LoopSlices } from './loop-slices.js';
import { calculateContextTokens, estimateTokens, validAssistantUsage } from './token-estimates.js';

/*
 * The size of a session's context as the threshold check needs it. pi takes the last usage report
 * plus estimates of what came after. Right after a compaction that report describes the old,
 * larger context (the kept messages carry it), so it is not used; the messages are estimated and
 * the request's own overhead (system prompt, tool definitions), learnt from the last fresh report,
 * is added, because on a small window that overhead is a large share.
 *
 * The check runs before every model call on the thread that serves every session, and a long
 * session's context has hundreds of thousands of messages, so the sums pause for the event loop
 * every few milliseconds (decision 054).
 */
export class ContextSizer {
  private overheadTokens = 0;

  /** Tokens a request costs beyond its messages, as last measured. */
  get overhead(): number {
    return this.overheadTokens;
  }

  async contextTokens(messages: readonly AgentMessage[]): Promise<number> {
    const summaryTime = messages.find((m) => m.role === 'compactionSummary')?.timestamp;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      const usage = message ? validAssistantUsage(message) : undefined;
      if (!message || !usage) continue;
      if (summaryTime !== undefined && (message.timestamp ?? 0) <= summaryTime) break;
      const used = calculateContextTokens(usage);
      const before = await sumEstimates(messages, 0, i);
      this.overheadTokens = Math.max(0, used - estimateTokens(message) - before);
      return used + (await sumEstimates(messages, i + 1));
    }
    return (await sumEstimates(messages)) + this.overheadTokens;
  }
}

/** The estimates of `messages[from, to)` added up, pausing for the event loop now and then. */
export async function sumEstimates(
  messages: readonly AgentMessage[],
  from = 0,
  to = messages.length,
): Promise<number> {
  const slices = new LoopSlices();
  let total = 0;
  for (let i = from; i < to; i++) {
    const message = messages[i];
    if (message) total += estimateTokens(message);
    const pause = slices.pause(64);
    if (pause) await pause;
  }
  return total;
}
