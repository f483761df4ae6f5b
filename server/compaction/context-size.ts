import type { AgentMessage } from '../../shared/messages.js';
import { calculateContextTokens, estimateTokens, validAssistantUsage } from './token-estimates.js';

/*
 * The size of a session's context as the threshold check needs it. pi takes the last usage report
 * plus estimates of what came after. Right after a compaction that report describes the old,
 * larger context (the kept messages carry it), so it is not used; the messages are estimated and
 * the request's own overhead (system prompt, tool definitions), learnt from the last fresh report,
 * is added, because on a small window that overhead is a large share.
 */
export class ContextSizer {
  private overheadTokens = 0;

  /** Tokens a request costs beyond its messages, as last measured. */
  get overhead(): number {
    return this.overheadTokens;
  }

  contextTokens(messages: readonly AgentMessage[]): number {
    const summaryTime = messages.find((m) => m.role === 'compactionSummary')?.timestamp;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      const usage = message ? validAssistantUsage(message) : undefined;
      if (!message || !usage) continue;
      if (summaryTime !== undefined && (message.timestamp ?? 0) <= summaryTime) break;
      const used = calculateContextTokens(usage);
      const before = sumEstimates(messages.slice(0, i));
      this.overheadTokens = Math.max(0, used - estimateTokens(message) - before);
      return used + sumEstimates(messages.slice(i + 1));
    }
    return sumEstimates(messages) + this.overheadTokens;
  }
}

export function sumEstimates(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message), 0);
}
