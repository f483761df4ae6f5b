import type { ContextUsage } from '../../shared/agent-events.js';
import type { AgentMessage } from '../../shared/messages.js';
import { entriesCost } from '../../shared/session-stats.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import {
  calculateContextTokens,
  estimateContextTokens,
  estimateTokens,
  validAssistantUsage,
} from '../compaction/token-estimates.js';

/*
 * Figures a session shows about itself: context usage as pi computes it (getContextUsage over
 * estimateContextTokens: the last good assistant usage plus chars/4 estimates of what came after)
 * and the cost of the active path. The page shows these figures as the server pushes them
 * (`state_changed`) and computes none of them.
 */

/** The shape clients see (shared/agent-events.ts); this file is its one computation. */
export type { ContextUsage };

/**
 * pi's getContextUsage, but never unknown after a compaction: until an assistant has answered
 * with usage since, older usage counts the context before compaction, so the figure is the chars/4
 * estimate of every message of the new context (pi shows nothing there; decision 076).
 */
export function contextUsage(
  branch: SessionEntry[],
  messages: AgentMessage[],
  contextWindow: number,
): ContextUsage {
  let compactionIndex = -1;
  for (let i = branch.length - 1; i >= 0; i--)
    if (branch[i]!.type === 'compaction') {
      compactionIndex = i;
      break;
    }
  if (compactionIndex >= 0) {
    let known = false;
    for (let i = branch.length - 1; i > compactionIndex; i--) {
      const entry = branch[i]!;
      if (entry.type !== 'message' || entry.message.role !== 'assistant') continue;
      const usage = validAssistantUsage(entry.message);
      if (!usage) continue;
      known = calculateContextTokens(usage) > 0;
      break;
    }
    if (!known) {
      let tokens = 0;
      for (const message of messages) tokens += estimateTokens(message);
      return {
        tokens,
        contextWindow,
        percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : null,
        estimated: true,
      };
    }
  }
  const { tokens } = estimateContextTokens(messages);
  return {
    tokens,
    contextWindow,
    percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : null,
  };
}

/**
 * USD spent on the active path, counted as pi 1.6 counts a session's cost: assistant replies,
 * `usage` entries (cache warming and the like), tools' own model calls, and the calls that wrote
 * compaction and branch summaries.
 */
export function pathCost(branch: SessionEntry[]): number {
  return entriesCost(branch);
}
