import type { Usage } from './messages.js';
import type { SessionEntry } from './session-entries.js';

/*
 * Token and cost figures of a set of entries, counted as pi 1.6 counts them (agent-session.js
 * getSessionStats, usage-totals.js getUsageCostBreakdown): assistant replies under their
 * `provider/model` (the model that answered, `responseModel`, when it differs), pi 1.6's `usage`
 * entries under theirs, and the usage of tools' own model calls and of the calls that wrote
 * compaction and branch summaries under "Tools/summaries". The one place this rule lives: the
 * server's `get_session_stats` and the session's cost use it.
 */

/** pi's bucket for usage no model reply carries. */
export const TOOLS_AND_SUMMARIES = 'Tools/summaries';

export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output + cacheRead + cacheWrite, as pi adds them. */
  total: number;
}

export interface ModelUsage extends TokenTotals {
  /** `provider/model`, or "Tools/summaries". */
  key: string;
  /** USD. */
  cost: number;
}

export interface UsageStats {
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  /** Every message entry, whatever its role (pi's count). */
  totalMessages: number;
  tokens: TokenTotals;
  /** USD. */
  cost: number;
  /** One row per model with tokens or cost, the most expensive first (pi's order). */
  byModel: ModelUsage[];
}

/** The usage an entry carries and whom pi attributes it to, or undefined. */
export function attributedUsage(entry: SessionEntry): { key: string; usage: Usage } | undefined {
  if (entry.type === 'message') {
    const message = entry.message;
    if (message.role === 'assistant') {
      const model = (message as { responseModel?: unknown }).responseModel;
      const name = typeof model === 'string' ? model : message.model;
      return { key: `${message.provider}/${name}`, usage: message.usage };
    }
    if (message.role === 'toolResult' && message.usage)
      return { key: TOOLS_AND_SUMMARIES, usage: message.usage };
    return undefined;
  }
  if (entry.type === 'usage')
    return { key: `${entry.provider}/${entry.model}`, usage: entry.usage };
  if ((entry.type === 'compaction' || entry.type === 'branch_summary') && entry.usage)
    return { key: TOOLS_AND_SUMMARIES, usage: entry.usage };
  return undefined;
}

const zeroTokens = (): TokenTotals => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  total: 0,
});

function addTokens(into: TokenTotals, usage: Usage): void {
  into.input += usage.input;
  into.output += usage.output;
  into.cacheRead += usage.cacheRead;
  into.cacheWrite += usage.cacheWrite;
  into.total += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** A fold over entries, one at a time (a whole session need not be in memory at once). */
export class UsageStatsBuilder {
  private readonly stats: Omit<UsageStats, 'byModel'> = {
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    tokens: zeroTokens(),
    cost: 0,
  };
  private readonly models = new Map<string, ModelUsage>();

  add(entry: SessionEntry): void {
    if (entry.type === 'message') {
      const message = entry.message;
      this.stats.totalMessages++;
      if (message.role === 'user') this.stats.userMessages++;
      else if (message.role === 'toolResult') this.stats.toolResults++;
      else if (message.role === 'assistant') {
        this.stats.assistantMessages++;
        if (Array.isArray(message.content))
          this.stats.toolCalls += message.content.filter((c) => c.type === 'toolCall').length;
      }
    }
    const attributed = attributedUsage(entry);
    if (!attributed) return;
    const { key, usage } = attributed;
    const cost = usage.cost?.total ?? 0;
    addTokens(this.stats.tokens, usage);
    this.stats.cost += cost;
    let row = this.models.get(key);
    if (!row) {
      row = { key, ...zeroTokens(), cost: 0 };
      this.models.set(key, row);
    }
    addTokens(row, usage);
    row.cost += cost;
  }

  result(): UsageStats {
    const byModel = [...this.models.values()]
      .filter((row) => row.cost > 0 || row.total > 0)
      .sort((a, b) => b.cost - a.cost);
    return { ...this.stats, tokens: { ...this.stats.tokens }, byModel };
  }
}

/** The figures of `entries` (a session's, or one path's). */
export function usageStats(entries: Iterable<SessionEntry>): UsageStats {
  const builder = new UsageStatsBuilder();
  for (const entry of entries) builder.add(entry);
  return builder.result();
}

/** USD spent by `entries`: the cost of a path as the session's state shows it. */
export function entriesCost(entries: Iterable<SessionEntry>): number {
  let total = 0;
  for (const entry of entries) total += attributedUsage(entry)?.usage.cost?.total ?? 0;
  return total;
}
